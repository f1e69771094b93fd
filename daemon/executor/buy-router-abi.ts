import type { Abi } from 'viem'
import artifact from '../../src/chain/contracts/artifacts/PrebuyBuyRouter.json' with { type: 'json' }

/** ABI and creation code of src/chain/contracts/execution/PrebuyBuyRouter.sol (compiled, checked in). */
export const buyRouterAbi = artifact.abi as Abi
export const buyRouterBytecode = artifact.bytecode as `0x${string}`
