import {
  type Address,
  BaseError,
  decodeErrorResult,
  concatHex,
  decodeFunctionResult,
  encodeAbiParameters,
  ExecutionRevertedError,
  type Hex,
  isAddressEqual,
  type PublicClient,
  toFunctionSelector,
} from 'viem'
import type { LaunchRecord } from '../journal/journal-records.ts'
import type { NextBlock } from '../pricing/fee-schedule.ts'
import { floorOf, fraction, multiply, oneMinus } from '../pricing/fraction.ts'
import { bridgeRouteFee } from '../pricing/bridge-fee.ts'
import { callsAllowedToFail } from '../chain/read-words-multicall.ts'
import { revertDataOf } from '../chain/revert-data.ts'
import { refusesOverrides } from '../wallets/bundler/simulate-bundle.ts'

/**
 * Uniswap's V4Quoter, the fragments we call (@uniswap/v4-periphery src/lens/V4Quoter.sol, deployed on Base at
 * 0x0d5e0F971ED27FBfF6c2837bf31316121532048D: docs.uniswap.org/contracts/v4/deployments; pinned against the npm
 * artifact in test/unit/launchpads/uniswap-abi-drift.test.ts). quoteExactInputSingle runs the real swap inside an
 * unlock and reverts it to read the result (catching its own revert), so it answers normally with what the swap would
 * return, through the pool's hook, every fee and tax included; a swap that itself reverts makes it revert.
 */
export const V4_QUOTER_ABI = [
  {
    type: 'function',
    name: 'quoteExactInputSingle',
    stateMutability: 'nonpayable',
    inputs: [
      {
        name: 'params',
        type: 'tuple',
        components: [
          {
            name: 'poolKey',
            type: 'tuple',
            components: [
              { name: 'currency0', type: 'address' },
              { name: 'currency1', type: 'address' },
              { name: 'fee', type: 'uint24' },
              { name: 'tickSpacing', type: 'int24' },
              { name: 'hooks', type: 'address' },
            ],
          },
          { name: 'zeroForOne', type: 'bool' },
          { name: 'exactAmount', type: 'uint128' },
          { name: 'hookData', type: 'bytes' },
        ],
      },
    ],
    outputs: [
      { name: 'amountOut', type: 'uint256' },
      { name: 'gasEstimate', type: 'uint256' },
    ],
  },
  // QuoterRevert.UnexpectedRevertBytes: how the quoter reports a swap that reverted (v4-periphery src/libraries/QuoterRevert.sol).
  { type: 'error', name: 'UnexpectedRevertBytes', inputs: [{ name: 'revertData', type: 'bytes' }] },
  // The PoolManager's wrapping of a hook's revert (v4-core src/libraries/CustomRevert.sol).
  {
    type: 'error',
    name: 'WrappedError',
    inputs: [
      { name: 'target', type: 'address' },
      { name: 'selector', type: 'bytes4' },
      { name: 'reason', type: 'bytes' },
      { name: 'details', type: 'bytes' },
    ],
  },
] as const

/**
 * quoteExactInputSingle's selector and parameters, taken once: viem's encodeFunctionData formats the ABI item and
 * hashes it for the selector on every call (a launch's first tick asks a quote per bucket; seen in the split bench's CPU
 * profile, 2026-11-28). The calldata is the same (test/unit/launchpads/quote-buy-calldata.test.ts).
 */
const QUOTE_FUNCTION = V4_QUOTER_ABI[0]
const QUOTE_SELECTOR = toFunctionSelector(QUOTE_FUNCTION)

/** The quoter's calldata for `params` (what encodeFunctionData builds for quoteExactInputSingle). */
export function quoteExactInputSingleData(params: Parameters<typeof encodeAbiParameters<typeof QUOTE_FUNCTION.inputs>>[1][0]): Hex {
  return concatHex([QUOTE_SELECTOR, encodeAbiParameters(QUOTE_FUNCTION.inputs, [params])])
}

/** Where a quote is taken: the state after `blockNumber`, in the context of the block a buy sent now lands in. */
export interface QuoteAt {
  blockNumber: bigint
  next: NextBlock
  /** Stablecoin atoms per 10^18 smallest units of the paired asset at that block (the tick's pairedUsdAtoms). */
  pairedUsdAtoms: bigint
}

/** What a buy of `spendAtoms` stablecoin would get in the launch pool in the next block. */
export type BuyQuote =
  | { kind: 'quoted'; spendAtoms: bigint; pairedIn: bigint; tokensOut: bigint }
  /** The swap itself reverts (gating, a swap restrictor, a hook's refusal): a buy now would revert too. */
  | { kind: 'reverted'; spendAtoms: bigint; pairedIn: bigint; reason: string }

/** What a quote reads of a launch: its pool, its token's side, its paired asset's route (a launch record, or a hint of one). */
export type QuotedLaunch = Pick<LaunchRecord, 'token' | 'poolKey' | 'paired'>

export interface BuyQuoter {
  /**
   * Quotes a buy of `spendAtoms` stablecoin of `launch`'s token at `at`. What is quoted, and what is converted: the
   * launch pool's swap (the v4 leg through the launch's hook, where every launchpad's fees, taxes and quirks live) is
   * quoted for real by the V4Quoter with the next block's number and timestamp as eth_call block overrides; the spend
   * reaches it converted into the paired asset at the price the formulas use (`pairedUsdAtoms`: the ETH/USD of the
   * block, times the bridge pools' mid price for a bridged pair, less the bridge pools' static fees). The v3 USDC/WETH
   * leg and bridge pools are plain fee pools (routeProblem refuses dynamic-fee bridge pools); their impact is left to
   * the on-chain minimum out, as before. Throws only when the node did not answer (a transport error).
   */
  quoteBuy(launch: QuotedLaunch, spendAtoms: bigint, at: QuoteAt): Promise<BuyQuote>
}

/** The paired-asset amount a stablecoin spend reaches the launch pool with, as the formulas price it (see quoteBuy). */
export function pairedInOf(launch: Pick<LaunchRecord, 'paired'>, spendAtoms: bigint, pairedUsdAtoms: bigint): bigint {
  if (pairedUsdAtoms <= 0n) throw new RangeError('pairedUsdAtoms must be positive')
  const kept = oneMinus(bridgeRouteFee(launch.paired))
  return floorOf(multiply(fraction(spendAtoms * 10n ** 18n, pairedUsdAtoms), kept))
}

/** uint128's largest value: the quoter's exactAmount type. */
const MAX_UINT128 = (1n << 128n) - 1n

/** Why a quote reverted, readable: the quoter's wrapping and the PoolManager's hook wrapping unwrapped by name. */
export function quoteRevertReason(data: Hex | undefined): string {
  if (!data || data === '0x') return 'reverted without data'
  try {
    const decoded = decodeErrorResult({ abi: V4_QUOTER_ABI, data })
    if (decoded.errorName === 'UnexpectedRevertBytes') return `swap reverted: ${quoteRevertReason(decoded.args[0])}`
    return `hook ${decoded.args[0]} reverted (${decoded.args[1]}): ${quoteRevertReason(decoded.args[2])}`
  } catch {
    return `reverted with ${data.slice(0, 10)}`
  }
}

const reverted = (error: unknown): boolean =>
  error instanceof BaseError && (revertDataOf(error) !== undefined || error.walk((e) => e instanceof ExecutionRevertedError) !== null)

/**
 * The quoter, asked through Multicall3's aggregate3 with the call allowed to fail (`multicall3`): a swap that reverts
 * (every bucket of a gated pool, every block of its gate) is then an answer, its revert data in it, not an eth_call that
 * reverts, which viem turns into an error chain and a dynamic import of its CCIP module: ~0.45 ms of CPU a quote
 * against ~0.04 ms answered (measured 2026-11-28; docs/execution.md §8, "The launch log's first 30 ms"). The quote is
 * the same call (the V4Quoter does not look at its caller), at the same block with the same overrides.
 */
export function createBuyQuoter(deps: {
  client: PublicClient
  v4Quoter: Address
  multicall3: Address
  onOverridesRefused?: (error: unknown) => void
}): BuyQuoter {
  const { client, v4Quoter, multicall3 } = deps
  // A node that refuses eth_call block overrides is asked without them from then on (as the bundle simulation does).
  let overridesRefused = false

  /** The quoter's answer to `data`: its return data when it answered, its revert data when it reverted. */
  async function call(data: Hex, at: QuoteAt): Promise<{ success: boolean; returnData: Hex }> {
    const ask = async (blockOverrides?: { number: bigint; time: bigint }) => {
      const [result] = await callsAllowedToFail(client, multicall3, v4Quoter, [data], {
        blockNumber: at.blockNumber,
        ...(blockOverrides ? { blockOverrides } : {}),
      })
      return { success: result!.success, returnData: `0x${result!.returnData}` as Hex }
    }
    if (!overridesRefused) {
      try {
        return await ask({ number: at.next.number, time: BigInt(at.next.timestamp) })
      } catch (error) {
        if (!refusesOverrides(error) || reverted(error)) throw error
        overridesRefused = true
        deps.onOverridesRefused?.(error)
      }
    }
    return ask()
  }

  return {
    async quoteBuy(launch, spendAtoms, at) {
      const pairedIn = pairedInOf(launch, spendAtoms, at.pairedUsdAtoms)
      if (pairedIn <= 0n || pairedIn > MAX_UINT128)
        return { kind: 'reverted', spendAtoms, pairedIn, reason: `no quotable amount (${pairedIn} of the paired asset)` }
      const { poolKey } = launch
      const data = quoteExactInputSingleData({
        poolKey: { ...poolKey, fee: poolKey.fee, tickSpacing: poolKey.tickSpacing },
        // Buying the token: the paired asset goes in on its side of the pool.
        zeroForOne: !isAddressEqual(poolKey.currency0, launch.token),
        exactAmount: pairedIn,
        // The router's swap passes no hook data either (PrebuyBuyRouter.unlockCallback).
        hookData: '0x',
      })
      const { success, returnData: output } = await call(data, at)
      if (!success) return { kind: 'reverted', spendAtoms, pairedIn, reason: quoteRevertReason(output) }
      if (output === '0x') return { kind: 'reverted', spendAtoms, pairedIn, reason: 'the quoter returned nothing' }
      const [tokensOut] = decodeFunctionResult({ abi: V4_QUOTER_ABI, functionName: 'quoteExactInputSingle', data: output })
      return { kind: 'quoted', spendAtoms, pairedIn, tokensOut }
    },
  }
}
