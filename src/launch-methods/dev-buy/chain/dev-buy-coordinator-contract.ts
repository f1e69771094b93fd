import { concat, decodeErrorResult, encodeAbiParameters, encodeFunctionData, keccak256, type Abi, type Address, type Hex, type PublicClient } from 'viem'
import { revertDataOf } from '../../../chain/revert-data.ts'
import artifact from '../../../chain/contracts/artifacts/PrebuyDevBuyCoordinator.json' with { type: 'json' }

/** PrebuyDevBuyCoordinator (src/chain/contracts/launch-methods/PrebuyDevBuyCoordinator.sol), compiled and checked in. */
export const DEV_BUY_COORDINATOR_ABI = artifact.abi as Abi
export const DEV_BUY_COORDINATOR_BYTECODE = artifact.bytecode as Hex

/** CREATE2 salt of the coordinator (bump the version when the contract changes: a new address). */
export const DEV_BUY_COORDINATOR_SALT: Hex = keccak256(new TextEncoder().encode('prebuy.PrebuyDevBuyCoordinator.v1'))

export interface DevBuyCoordinatorArgs {
  entryPoint: Address
  stablecoin: Address
  weth: Address
  /** The WETH/stablecoin v3 pool the contributions are swapped on. */
  ethUsdPool: Address
  /** The Clanker v4 factory (`deployToken(DeploymentConfig)`). */
  factory: Address
  /** PrebuyVesting: where a locked launch puts each buyer's share. */
  vesting: Address
  /** The service's bundler EOA: the only caller of `launch`. */
  operator: Address
  feeRecipient: Address
}

/** Init code of the coordinator for this service on one chain. */
export const devBuyCoordinatorInitCode = (args: DevBuyCoordinatorArgs): Hex =>
  concat([
    DEV_BUY_COORDINATOR_BYTECODE,
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'address' },
        { type: 'address' },
        { type: 'address' },
        { type: 'address' },
        { type: 'address' },
        { type: 'address' },
        { type: 'address' },
      ],
      [args.entryPoint, args.stablecoin, args.weth, args.ethUsdPool, args.factory, args.vesting, args.operator, args.feeRecipient],
    ),
  ])

/** The token a launch id deployed, or null while it has not launched. */
export async function launchedToken(client: PublicClient, coordinator: Address, launchId: Hex): Promise<Address | null> {
  const token = (await client.readContract({ address: coordinator, abi: DEV_BUY_COORDINATOR_ABI, functionName: 'launchedToken', args: [launchId] })) as Address
  return /^0x0{40}$/i.test(token) ? null : token
}

/**
 * The ETH (wei) `stableIn` stablecoin atoms buy on the coordinator's v3 pool now, exactly as its launch would swap them:
 * the contract's `quoteStableToEth` swaps and reverts with the amount (the Uniswap quoter pattern), so nothing moves.
 */
export async function quoteStableToEth(client: PublicClient, coordinator: Address, stableIn: bigint): Promise<bigint> {
  try {
    await client.call({ to: coordinator, data: encodeFunctionData({ abi: DEV_BUY_COORDINATOR_ABI, functionName: 'quoteStableToEth', args: [stableIn] }) })
  } catch (error) {
    const data = revertDataOf(error)
    // Only its own quote is an answer; any other revert (none, or another contract's error, which the coordinator's ABI
    // cannot decode) is the caller's to judge: the original error, never a decoding error in its place.
    const decoded = data ? decodedOrNull(data) : null
    if (decoded?.errorName === 'StableToEthQuote') return decoded.args![0] as bigint
    throw error
  }
  throw new Error('quoteStableToEth returned instead of reverting with its quote')
}

function decodedOrNull(data: Hex): ReturnType<typeof decodeErrorResult<typeof DEV_BUY_COORDINATOR_ABI>> | null {
  try {
    return decodeErrorResult({ abi: DEV_BUY_COORDINATOR_ABI, data })
  } catch {
    return null
  }
}
