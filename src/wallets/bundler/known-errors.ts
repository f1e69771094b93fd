import type { Abi } from 'viem'
import { parseAbi } from 'viem'
import prebuyBuyRouter from '../../chain/contracts/artifacts/PrebuyBuyRouter.json' with { type: 'json' }
import testStablecoin from '../../chain/contracts/artifacts/TestStablecoin.json' with { type: 'json' }

const errorsOf = (abi: readonly { type: string }[]): Abi => abi.filter((item) => item.type === 'error') as unknown as Abi

/**
 * Custom errors revert reasons are decoded against, so a failed operation reads `TooLittleReceived(90, 100)` rather
 * than a selector: the project's own contracts (the buy router the executor calls, the devnet stablecoin) and the
 * ERC-20 errors of OpenZeppelin 5 and of the EntryPoint's account helpers.
 */
export const KNOWN_ERRORS: Abi = [
  ...errorsOf(prebuyBuyRouter.abi),
  ...errorsOf(testStablecoin.abi),
  ...parseAbi([
    'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
    'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
    'error ERC20InvalidSender(address sender)',
    'error ERC20InvalidReceiver(address receiver)',
    'error ERC20InvalidApprover(address approver)',
    'error ERC20InvalidSpender(address spender)',
  ]),
]
