import type { Abi } from 'viem'
import { parseAbi } from 'viem'
import prebuyBuyRouter from '../../chain/contracts/artifacts/PrebuyBuyRouter.json' with { type: 'json' }

/**
 * What launchpads revert a plain swap with while it is not allowed yet (launch gating): Clanker's SniperAuctionV2
 * outside an open block (clanker-devco/v4-contracts src/mev-modules/interfaces/IClankerSniperAuctionV0.sol) and the
 * v4.0 block-delay module (src/interfaces/IClankerMevModule.sol), Doppler's scheduled multicurve before its start
 * (whetstoneresearch/doppler legacy/src/initializers/UniswapV4ScheduledMulticurveInitializerHook.sol) and the
 * Dutch-auction hook (src/initializers/Doppler.sol). A buy reverted by one of them met a gated block, not a fault.
 */
export const LAUNCH_GATING_ERRORS = ['NotAuctionBlock', 'PoolLocked', 'CannotSwapBeforeStartingTime', 'CannotSwapBeforeStartTime'] as const
const LAUNCH_GATING_ABI = parseAbi(LAUNCH_GATING_ERRORS.map((name) => `error ${name}()`))

/**
 * Not an error the chain names: the name the executor gives a revert WITHOUT a reason that landed in a Clanker auction
 * block. In that block SniperAuctionV2 decodes the swap's hook data as a bid, and a plain swap's empty hook data makes
 * that decode revert with no data (src/mev-modules/ClankerSniperAuctionV2.sol): gating, not a fault. Settle-buys checks
 * the module's state before the block (ExecutorChainReads.auctionBlock) before naming a revert so.
 */
export const AUCTION_BLOCK_REVERT = 'AuctionBlock'

const errorsOf = (abi: readonly { type: string }[]): Abi => abi.filter((item) => item.type === 'error') as unknown as Abi

/**
 * Custom errors revert reasons are decoded against, so a failed operation reads `TooLittleReceived(90, 100)` rather
 * than a selector: the project's own contracts (the buy router the executor calls, the devnet stablecoin) and the
 * ERC-20 errors of OpenZeppelin 5 and of the EntryPoint's account helpers.
 */
export const KNOWN_ERRORS: Abi = [
  ...errorsOf(prebuyBuyRouter.abi),
  // The devnet stablecoin's (devnet/contracts/fixtures/TestStablecoin.sol), written out: the product never imports the devnet wing.
  ...parseAbi(['error NotMinter()', 'error InsufficientBalance()', 'error InsufficientAllowance()']),
  ...parseAbi([
    'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
    'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
    'error ERC20InvalidSender(address sender)',
    'error ERC20InvalidReceiver(address receiver)',
    'error ERC20InvalidApprover(address approver)',
    'error ERC20InvalidSpender(address spender)',
  ]),
  // Uniswap v4 wraps a hook's revert (v4-core src/libraries/CustomRevert.sol); decodeRevertReason unwraps it.
  ...parseAbi(['error WrappedError(address target, bytes4 selector, bytes reason, bytes details)']),
  ...LAUNCH_GATING_ABI,
]
