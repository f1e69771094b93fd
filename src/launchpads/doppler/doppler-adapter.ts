import { getAddress, isAddressEqual, zeroAddress, type Address, type Hex, type Log, type PublicClient } from 'viem'
import { decodeEventLogCached } from '../../chain/decode-event-log.ts'
import type { FeeSchedule, LinearFeeSchedule } from '../../pricing/fee-schedule.ts'
import { DYNAMIC_FEE_FLAG } from '../../pricing/route-price.ts'
import { notAnswered } from '../../chain/not-answered.ts'
import { eventTopicsOf, mayBeEventOf } from '../../chain/event-topics.ts'
import { dopplerPluginProblem } from './doppler-plugin.ts'
import { readBalanceLimitEnd } from './read-balance-limit.ts'
import { MULTICALL3_ADDRESS } from '../../chain/canonical-addresses.ts'
import { REHYPE_FEE_DENOMINATOR, rehypeFeeDenominator } from './rehype-deployments.ts'
import { BASE_DOPPLER_AIRLOCK, BASE_POOL_MANAGER, BASE_WETH } from '../base-addresses.ts'
import { decodeLaunchLog, type LaunchEventArgs, launchOrigin } from '../decode-launch-log.ts'
import { deployerFields } from '../launch-deployer.ts'
import {
  type DecodedLaunch,
  feeSource,
  type LaunchCandidate,
  type LaunchContext,
  type LaunchIdentity,
  type LaunchpadAdapter,
  type PairedAsset,
} from '../launchpad-adapter.ts'
import { creatorList, findInitializedPools } from '../v4-events.ts'
import { DOPPLER_AIRLOCK_ABI, DOPPLER_CREATE, DOPPLER_HOOK_ABI, DOPPLER_REHYPE_ABI, DOPPLER_SCHEDULED_HOOK_ABI } from './doppler-abi.ts'
import { readPoolLpFee } from '../read-pool-lp-fee.ts'

const HOOK_EVENT_TOPICS = eventTopicsOf(DOPPLER_HOOK_ABI)

export interface DopplerAdapterOptions {
  airlock: Address
  poolManager: Address
  weth: Address
  /** Multicall3, through which the asset's balance-limit getters are probed (read-balance-limit.ts). */
  multicall3: Address
}

export const DOPPLER_BASE: DopplerAdapterOptions = {
  airlock: BASE_DOPPLER_AIRLOCK,
  poolManager: BASE_POOL_MANAGER,
  weth: BASE_WETH,
  multicall3: MULTICALL3_ADDRESS,
}

/** Doppler caps the starting fee at 90%. */
export const DOPPLER_MAX_START_FEE = 900_000

/**
 * Doppler (Bankr launches): Create on the Airlock (whetstoneresearch/doppler src/Airlock.sol). `poolOrHook` is what
 * the pool initializer returned: the ASSET for every v4 multicurve initializer (decay multicurve, scheduled multicurve,
 * DopplerHookInitializer/rehype: "Uniswap V4 pools don't have addresses"), a hook only for the Dutch-auction
 * UniswapV4Initializer, which is not supported (no FeeScheduleSet; its price moves by epochs). The pool is the v4 pool
 * initialised in the same transaction between the asset and the numeraire (WETH, or native ETH as address 0).
 * Creators: the Airlock's asset data (timelock, governance; 0xdead under NoOp governance) are claims; the deployer is
 * the transaction's sender (or its smart account). The fee schedule: FeeScheduleSet in the launch transaction, from
 * the pool's hook (decay multicurve) or from another contract of the same launch (rehype's Doppler hook emits it, not
 * `poolKey.hooks`: its fee is taken from the output on top of the pool's LP fee), else the hook's five-field
 * getFeeScheduleOf (rehype: getFeeSchedule). The decay runs from max(startingTime, the pool's initialisation time).
 */
export function createDopplerAdapter(options: DopplerAdapterOptions): LaunchpadAdapter {
  return {
    id: 'doppler',
    launchEvent: { address: options.airlock, events: [DOPPLER_CREATE] },
    poolManager: options.poolManager,

    async decodeLaunch(log: Log, ctx: LaunchContext): Promise<DecodedLaunch | null> {
      const args = decodeLaunchLog(log, options.airlock, DOPPLER_CREATE)
      if (!args) return null
      const assetData = await ctx.client
        .readContract({ address: options.airlock, abi: DOPPLER_AIRLOCK_ABI, functionName: 'getAssetData', args: [getAddress(args.asset)] })
        .catch(() => null)
      const decoded = fromLogs(args, log, ctx, creatorList(assetData?.[1], assetData?.[2]))
      if (decoded.kind !== 'launch') return decoded
      const { candidate, announced, identity } = decoded
      // A dynamic-fee pool whose hook is the launch's initializer (DopplerHookInitializer: hook and initializer in one)
      // and that announced no schedule runs a plugin other than rehype (the swap restrictor, or one we do not know).
      if (!announced && isDynamicFee(candidate.poolKey.fee) && isAddressEqual(args.initializer, candidate.poolKey.hooks)) {
        const problem = await dopplerPluginProblem(ctx.client, candidate.poolKey.hooks, candidate.token, candidate.poolId, ctx.blockNumber)
        if (problem) return { kind: 'unsupported', launch: identity, reason: problem }
      }
      return { kind: 'launch', candidate }
    },

    /**
     * Issue 23 item 3: the decoding waits on a read (the Airlock's asset data: the claimed creators), so the reads
     * ahead of the receipt would start the completion's reads a round late; the pool, the pair and the schedule come
     * from the logs alone. Provisional (no claimed creators; a hook's FeeScheduleSet is not among the block's watched
     * logs, so the reads of a schedule without it): used only to start reads the memo may share.
     */
    candidateAhead(log: Log, ctx: LaunchContext): LaunchCandidate | undefined {
      const args = decodeLaunchLog(log, options.airlock, DOPPLER_CREATE)
      if (!args) return undefined
      const decoded = fromLogs(args, log, ctx, [])
      return decoded.kind === 'launch' ? decoded.candidate : undefined
    },

    async loadFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<FeeSchedule> {
      const [schedule, balanceLimitEnd] = await Promise.all([
        poolFeeSchedule(client, launch),
        readBalanceLimitEnd(client, options.multicall3, launch.token, launch.blockNumber),
      ])
      return balanceLimitEnd !== undefined && balanceLimitEnd > launch.launchedAt ? { ...schedule, swapsFrom: balanceLimitEnd } : schedule
    },
  }

  /** The launch as its logs tell it, with the claimed creators given (the asset data's); no read. */
  function fromLogs(
    args: LaunchEventArgs<typeof DOPPLER_CREATE>,
    log: Log,
    ctx: LaunchContext,
    claimedCreators: Address[],
  ):
    | Exclude<DecodedLaunch, { kind: 'launch' }>
    | { kind: 'launch'; candidate: LaunchCandidate; announced: ReturnType<typeof feeScheduleFromLogs>; identity: LaunchIdentity } {
    const asset = getAddress(args.asset)
    // Create carries no sender: the deployer is the smart account of the ERC-4337 operation whose execution emitted
    // it, else the transaction's sender, shared when that is a bundler or an EIP-7702 sponsor (attributeLaunch). The
    // asset data's timelock and governance are whatever the launch passed (0xdead under NoOp governance).
    const identity: LaunchIdentity = {
      launchpad: 'doppler',
      token: asset,
      ...deployerFields(ctx.attribution),
      claimedCreators,
      name: null,
      symbol: null,
      ...launchOrigin(log, ctx),
    }
    // WETH (Bankr's) or native ETH (address 0: the router unwraps, as for Zora's ETH coins); anything else has no route.
    const paired: PairedAsset | undefined = isAddressEqual(args.numeraire, options.weth)
      ? { kind: 'weth', address: getAddress(args.numeraire) }
      : isAddressEqual(args.numeraire, zeroAddress)
        ? { kind: 'eth', address: zeroAddress }
        : undefined
    if (!paired) return { kind: 'unsupported', launch: identity, reason: `numeraire ${args.numeraire}, neither WETH nor native ETH: no route` }
    if (!isAddressEqual(args.poolOrHook, asset)) {
      return { kind: 'unsupported', launch: identity, reason: 'a Dutch-auction Doppler pool (poolOrHook is a hook, not the asset): not supported' }
    }
    const trades = (p: { poolKey: { currency0: Address; currency1: Address } }, a: Address, b: Address) =>
      (isAddressEqual(p.poolKey.currency0, a) && isAddressEqual(p.poolKey.currency1, b)) ||
      (isAddressEqual(p.poolKey.currency0, b) && isAddressEqual(p.poolKey.currency1, a))
    const pool = findInitializedPools(ctx.txLogs, options.poolManager).find((p) => trades(p, asset, args.numeraire))
    // Doppler's v3 static-curve initializer has no v4 pool in the launch transaction: not a v4 launch.
    if (!pool) return { kind: 'unsupported', launch: identity, reason: 'no v4 pool of the asset and its numeraire is initialised in the launch transaction' }
    const announced = feeScheduleFromLogs(ctx.txLogs, pool.poolKey.hooks, pool.poolId, ctx.blockTimestamp)
    // A schedule announced by a contract other than the pool's hook is a rehype Doppler hook's: its fee is taken from
    // the output, on top of the pool's own LP fee.
    const rehype: Record<string, Address> =
      announced && !isAddressEqual(announced.emitter, pool.poolKey.hooks) ? { dopplerHook: getAddress(announced.emitter) } : {}
    const candidate: LaunchCandidate = {
      ...identity,
      poolKey: pool.poolKey,
      poolId: pool.poolId,
      paired,
      tokenIsCurrency0: isAddressEqual(pool.poolKey.currency0, asset),
      feeSources: { hook: getAddress(pool.poolKey.hooks), ...rehype },
      ...(announced ? { scheduleFromLogs: announced.schedule } : {}),
    }
    return { kind: 'launch', candidate, announced, identity }
  }

  async function poolFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<LinearFeeSchedule> {
    const dopplerHook = launch.feeSources.dopplerHook
    if (dopplerHook) {
      // Rehype: the pool's stored LP fee as of the launch block (set by the initializer, never overridden per swap),
      // and the Doppler hook's decaying fee on the output.
      const [poolLpFee, schedule] = await Promise.all([
        readPoolLpFee(client, options.poolManager, launch.poolId, launch.blockNumber),
        launch.scheduleFromLogs?.kind === 'linear'
          ? launch.scheduleFromLogs
          : client
              .readContract({ address: dopplerHook, abi: DOPPLER_REHYPE_ABI, functionName: 'getFeeSchedule', args: [launch.poolId] })
              .then(([startingTime, startFee, endFee, , durationSeconds]) =>
                linear(Math.max(startingTime, launch.launchedAt), startFee, endFee, durationSeconds),
              ),
      ])
      // The hooks deployed on Base from March to July 2026 divide by 800,000: 1.25x the announced fee.
      const hookFeeDenominator = rehypeFeeDenominator(dopplerHook)
      return { ...schedule, poolLpFee, ...(hookFeeDenominator === REHYPE_FEE_DENOMINATOR ? {} : { hookFeeDenominator }) }
    }
    if (launch.scheduleFromLogs?.kind === 'linear') return launch.scheduleFromLogs
    // A static LP fee (the key's fee is the fee itself): DopplerHookInitializer without a plugin, the static-fee
    // UniswapV4MulticurveInitializer, the scheduled multicurve (legacy/src/initializers/*): nothing else is charged;
    // the scheduled one's hook refuses swaps before its startingTimeOf (CannotSwapBeforeStartingTime).
    if (!isDynamicFee(launch.poolKey.fee)) {
      const startingTime = await client
        .readContract({
          address: feeSource(launch, 'hook'),
          abi: DOPPLER_SCHEDULED_HOOK_ABI,
          functionName: 'startingTimeOf',
          args: [launch.poolId],
          blockNumber: launch.blockNumber,
        })
        .then(Number, (error: unknown) => (notAnswered(error) ? launch.launchedAt : Promise.reject(error)))
      return {
        kind: 'linear',
        startTime: Math.max(startingTime, launch.launchedAt),
        startFee: launch.poolKey.fee,
        endFee: launch.poolKey.fee,
        durationSeconds: 0,
      }
    }
    // The public mapping getter: startingTime, startFee, endFee, lastFee, durationSeconds (lastFee is not needed).
    const [startingTime, startFee, endFee, , durationSeconds] = await client.readContract({
      address: feeSource(launch, 'hook'),
      abi: DOPPLER_HOOK_ABI,
      functionName: 'getFeeScheduleOf',
      args: [launch.poolId],
    })
    return linear(Math.max(startingTime, launch.launchedAt), startFee, endFee, durationSeconds)
  }
}

const isDynamicFee = (fee: number): boolean => (fee & DYNAMIC_FEE_FLAG) !== 0

const linear = (startTime: number, startFee: number, endFee: number, durationSeconds: number): LinearFeeSchedule => ({
  kind: 'linear',
  startTime,
  startFee: Math.min(startFee, DOPPLER_MAX_START_FEE),
  endFee,
  durationSeconds,
})

/**
 * The pool's FeeScheduleSet in the launch transaction: the pool's hook's first (decay multicurve), else another
 * contract's of the same transaction (rehype's Doppler hook). The launch transaction is the deployer's own, so a
 * schedule it announces can only misprice its own launch; an underestimated fee makes a buy revert on its minimum
 * output, never overpay.
 */
function feeScheduleFromLogs(
  logs: readonly Log[],
  hook: Address,
  poolId: Hex,
  initTime: number,
): { schedule: LinearFeeSchedule; emitter: Address } | undefined {
  const decoded = logs.flatMap((log) => {
    // A launch receipt's other logs (transfers, the pool manager's, the airlock's) are skipped, not refused by viem.
    if (!mayBeEventOf(HOOK_EVENT_TOPICS, log)) return []
    try {
      const { eventName, args } = decodeEventLogCached({ abi: DOPPLER_HOOK_ABI, data: log.data, topics: log.topics, strict: true })
      return eventName === 'FeeScheduleSet' && args.poolId === poolId ? [{ emitter: log.address, args }] : []
    } catch {
      return []
    }
  })
  const found = decoded.find((d) => isAddressEqual(d.emitter, hook)) ?? decoded[0]
  if (!found) return undefined
  const { startingTime, startFee, endFee, durationSeconds } = found.args
  return { schedule: linear(Math.max(startingTime, initTime), startFee, endFee, durationSeconds), emitter: found.emitter }
}
