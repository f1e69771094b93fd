import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeFunctionResult,
  ExecutionRevertedError,
  RawContractError,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  type PublicClient,
} from 'viem'
import { CLANKER_V5_SNIPER, type ClankerV5FeeSchedule } from '../../pricing/schedules/clanker-v5.ts'
import type { LaunchCandidate } from '../launchpad-adapter.ts'
import { V4_QUOTER_ABI } from '../quote-buy.ts'
import { EXTSLOAD_ABI } from './clanker-v5-abi.ts'
import { feePipsFromQuote, type PoolPoint, probeAmount } from './fee-from-quote.ts'
import { getSqrtPriceAtTick } from '../../pricing/v4/tick-math.ts'
import type { PoolPointHint } from './pool-point-from-logs.ts'

/** v4-core StateLibrary: the PoolManager's `pools` mapping slot; a pool's liquidity and ticks mapping after its slot0. */
const POOLS_SLOT = 6n
const LIQUIDITY_OFFSET = 3n
const TICKS_OFFSET = 4n

const word = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`
const signed = (value: bigint, bits: bigint): bigint => (value >= 1n << (bits - 1n) ? value - (1n << bits) : value)

/**
 * What a small buy of the pool meets at a block, read from the PoolManager (extsload, as StateLibrary does): slot0's
 * price and the liquidity the swap trades against. A single-sided launch range ending at the price (the token as
 * currency1: the range below it) is not "in range" in slot0, yet a buy (price falling) crosses its upper tick first:
 * the liquidity is then slot0's minus that tick's liquidityNet, as the swap computes it.
 */
export async function readPoolPoint(
  client: PublicClient,
  poolManager: Address,
  poolId: Hex,
  blockNumber: bigint,
  zeroForOne: boolean,
  hintTick?: number,
): Promise<PoolPoint> {
  const stateSlot = BigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId, POOLS_SLOT])))
  const read = (slot: bigint, n: bigint) =>
    client.readContract({ address: poolManager, abi: EXTSLOAD_ABI, functionName: 'extsload', args: [word(slot), n], blockNumber })
  const tickInfo = (tick: number) =>
    read(BigInt(keccak256(encodeAbiParameters([{ type: 'int24' }, { type: 'uint256' }], [tick, stateSlot + TICKS_OFFSET]))), 1n)
  // The tick the logs say the pool is at (poolPointFromLogs), read in the same round as slot0: used only if it is
  // slot0's tick, so a wrong hint costs the round it would have saved.
  const hinted = zeroForOne && hintTick !== undefined ? tickInfo(hintTick) : undefined
  hinted?.catch(() => undefined)
  const words = await read(stateSlot, LIQUIDITY_OFFSET + 1n)
  const slot0 = BigInt(words[0]!)
  const sqrtPriceX96 = slot0 & ((1n << 160n) - 1n)
  const tick = Number(signed((slot0 >> 160n) & 0xffffffn, 24n))
  let liquidity = BigInt(words[Number(LIQUIDITY_OFFSET)]!) & ((1n << 128n) - 1n)
  if (zeroForOne && sqrtPriceX96 === getSqrtPriceAtTick(tick)) {
    const [info] = await (hinted && tick === hintTick ? hinted : tickInfo(tick))
    liquidity -= signed(BigInt(info!) >> 128n, 128n)
  }
  return { sqrtPriceX96, liquidity }
}

/**
 * The total fee, pips, a small buy of `launch` pays when it lands at `timestamp`: the real swap through the real hook,
 * quoted by the V4Quoter on the state after the launch block with the block's time overridden, compared with the same
 * swap through a feeless pool (feePipsFromQuote).
 */
export async function quoteBuyFeePips(
  client: PublicClient,
  v4Quoter: Address,
  launch: Pick<LaunchCandidate, 'poolKey' | 'tokenIsCurrency0' | 'blockNumber'>,
  pool: PoolPoint,
  timestamp: number,
): Promise<number> {
  // A buy spends the pair token: currency0 in when the token is currency1.
  const zeroForOne = !launch.tokenIsCurrency0
  const amountIn = probeAmount(pool, zeroForOne)
  if (amountIn === 0n) throw new Error('the Clanker v5 pool has no liquidity in range: its fee cannot be measured')
  return feePipsFromQuote(pool, zeroForOne, amountIn, await quoteProbe(client, v4Quoter, launch, amountIn, timestamp))
}

/** What the V4Quoter says a buy of `amountIn` pays out on the state after the launch block, landing at `timestamp`. */
async function quoteProbe(
  client: PublicClient,
  v4Quoter: Address,
  launch: Pick<LaunchCandidate, 'poolKey' | 'tokenIsCurrency0' | 'blockNumber'>,
  amountIn: bigint,
  timestamp: number,
): Promise<bigint> {
  const zeroForOne = !launch.tokenIsCurrency0
  const data = encodeFunctionData({
    abi: V4_QUOTER_ABI,
    functionName: 'quoteExactInputSingle',
    args: [{ poolKey: launch.poolKey, zeroForOne, exactAmount: amountIn, hookData: '0x' }],
  })
  const result = await client.call({ to: v4Quoter, data, blockNumber: launch.blockNumber, blockOverrides: { time: BigInt(timestamp) } })
  if (!result.data) throw new Error('the V4Quoter answered nothing for the Clanker v5 pool')
  const [amountOut] = decodeFunctionResult({ abi: V4_QUOTER_ABI, functionName: 'quoteExactInputSingle', data: result.data })
  return amountOut
}

/** A call the node answered with a revert (the contract refused), as opposed to a failed RPC. */
const reverted = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.walk((e) => e instanceof RawContractError || e instanceof ExecutionRevertedError || e instanceof ContractFunctionRevertedError) !== null

/** Seconds after the launch second tried when the hook refuses a swap then (Clanker v4's descending-fee module does). */
const GATED_SECONDS = 2

/**
 * The schedule from quotes of a buy at given times (`quoteAt`: the total fee, pips, or a throw). The launch second is
 * quoted first; a revert there (and the next GATED_SECONDS seconds) means the hook refuses swaps then: swaps are
 * allowed from the first second that quotes, and the sniper fee, when one is measured there, is taken to have started at
 * the documented 99%. The end of the documented 20 s gives the tax. A start no higher than the tax: no sniper fee.
 */
export async function measureClankerV5Schedule(launchedAt: number, quoteAt: (timestamp: number) => Promise<number>): Promise<ClankerV5FeeSchedule> {
  const { seconds, startFee } = CLANKER_V5_SNIPER
  const afterSniper = quoteAt(launchedAt + seconds)
  let first: { at: number; fee: number } | undefined
  for (let e = 0; e <= GATED_SECONDS && !first; e++) {
    try {
      first = { at: launchedAt + e, fee: await quoteAt(launchedAt + e) }
    } catch (error) {
      if (!reverted(error) || e === GATED_SECONDS) {
        afterSniper.catch(() => undefined)
        throw error
      }
    }
  }
  const tax = await afterSniper
  const gated = first!.at > launchedAt
  const sniperStartFee = first!.fee > tax ? (gated ? Math.max(startFee, first!.fee) : first!.fee) : null
  return {
    kind: 'clanker_v5',
    startTime: launchedAt,
    buyTax: tax,
    sniperStartFee,
    sniperSeconds: seconds,
    ...(gated ? { swapsFrom: first!.at } : {}),
  }
}

/**
 * A Clanker v5 launch's fee schedule, measured: no v5 ABI is published, so the tax and whether the sniper fee is on are
 * read from quotes of the real swap (quoteBuyFeePips) on the state after the launch block: at the launch second (the
 * sniper fee's 99% when it is on) and at the end of the documented 20 s (the buy tax, plus any LP fee: the total a buy
 * pays from then on); measureClankerV5Schedule turns them into the schedule. The shape in between is the documented
 * start and end joined linearly (schedules/clanker-v5.ts).
 */
export async function readClankerV5Fees(
  client: PublicClient,
  addresses: { poolManager: Address; v4Quoter: Address },
  launch: Pick<LaunchCandidate, 'poolKey' | 'poolId' | 'tokenIsCurrency0' | 'blockNumber' | 'launchedAt'>,
  hint?: PoolPointHint,
): Promise<ClankerV5FeeSchedule> {
  const zeroForOne = !launch.tokenIsCurrency0
  const pool = readPoolPoint(client, addresses.poolManager, launch.poolId, launch.blockNumber, zeroForOne, hint?.tick)
  pool.catch(() => undefined)
  // Issue 23 item 3: with the launch transaction's logs telling the pool's point (poolPointFromLogs), the probe's
  // amount is known before the state is read, so its quotes are asked in the same round as the state. They are used
  // only when the state read gives exactly that amount: then they are the very quotes asked after it before (same
  // call, same block, same time), and the schedule is the same; otherwise the quotes are asked again with its amount.
  const guessed = hint ? probeAmount(hint, zeroForOne) : 0n
  return measureClankerV5Schedule(launch.launchedAt, async (timestamp) => {
    const early = guessed > 0n ? quoteProbe(client, addresses.v4Quoter, launch, guessed, timestamp) : undefined
    early?.catch(() => undefined)
    const point = await pool
    const amountIn = probeAmount(point, zeroForOne)
    if (amountIn === 0n) throw new Error('the Clanker v5 pool has no liquidity in range: its fee cannot be measured')
    const amountOut = early && amountIn === guessed ? await early : await quoteProbe(client, addresses.v4Quoter, launch, amountIn, timestamp)
    return feePipsFromQuote(point, zeroForOne, amountIn, amountOut)
  })
}
