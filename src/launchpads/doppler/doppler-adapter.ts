import { decodeEventLog, getAddress, isAddressEqual, type Address, type Hex, type Log, type PublicClient } from 'viem'
import type { LinearFeeSchedule } from '../../pricing/fee-schedule.ts'
import { BASE_DOPPLER_AIRLOCK, BASE_POOL_MANAGER, BASE_WETH } from '../base-addresses.ts'
import { decodeLaunchLog, launchOrigin } from '../decode-launch-log.ts'
import { type DecodedLaunch, feeSource, type LaunchCandidate, type LaunchContext, type LaunchIdentity, type LaunchpadAdapter } from '../launchpad-adapter.ts'
import { creatorList, findInitializedPools } from '../v4-events.ts'
import { DOPPLER_AIRLOCK_ABI, DOPPLER_CREATE, DOPPLER_HOOK_ABI } from './doppler-abi.ts'

export interface DopplerAdapterOptions {
  airlock: Address
  poolManager: Address
  weth: Address
}

export const DOPPLER_BASE: DopplerAdapterOptions = { airlock: BASE_DOPPLER_AIRLOCK, poolManager: BASE_POOL_MANAGER, weth: BASE_WETH }

/** Doppler caps the starting fee at 90%. */
export const DOPPLER_MAX_START_FEE = 900_000

/**
 * Doppler (Bankr launches): Create on the Airlock. The pool is the v4 pool initialised in the same transaction whose
 * hook is `poolOrHook` and which trades the asset. Creators: the Airlock's asset data (timelock, governance) and the
 * transaction's sender. The fee schedule comes from the hook's FeeScheduleSet in the same transaction.
 */
export function createDopplerAdapter(options: DopplerAdapterOptions): LaunchpadAdapter {
  return {
    id: 'doppler',
    launchEvent: { address: options.airlock, event: DOPPLER_CREATE },
    poolManager: options.poolManager,

    async decodeLaunch(log: Log, ctx: LaunchContext): Promise<DecodedLaunch | null> {
      const args = decodeLaunchLog(log, options.airlock, DOPPLER_CREATE)
      if (!args) return null
      const asset = getAddress(args.asset)
      const assetData = await ctx.client
        .readContract({ address: options.airlock, abi: DOPPLER_AIRLOCK_ABI, functionName: 'getAssetData', args: [asset] })
        .catch(() => null)
      // Create carries no sender: the deployer is the transaction's (or its smart account's). The asset data's
      // timelock and governance are whatever the launch passed (0xdead under NoOp governance).
      const identity: LaunchIdentity = {
        launchpad: 'doppler',
        token: asset,
        deployer: ctx.deployer,
        claimedCreators: creatorList(assetData?.[1], assetData?.[2]),
        name: null,
        symbol: null,
        ...launchOrigin(log, ctx),
      }
      // Numeraire ETH (address 0) or anything but WETH needs another route; not supported.
      if (!isAddressEqual(args.numeraire, options.weth)) return { kind: 'unsupported', launch: identity, reason: `numeraire ${args.numeraire}, not WETH` }
      const pool = findInitializedPools(ctx.txLogs, options.poolManager).find(
        (p) => isAddressEqual(p.poolKey.hooks, args.poolOrHook) && (isAddressEqual(p.poolKey.currency0, asset) || isAddressEqual(p.poolKey.currency1, asset)),
      )
      // Doppler's other initializers (v3 static curve, v4 Dutch auction without a pool in this tx) are not v4 launches.
      if (!pool) return { kind: 'unsupported', launch: identity, reason: 'no v4 pool of the asset is initialised in the launch transaction' }
      const candidate: LaunchCandidate = {
        ...identity,
        poolKey: pool.poolKey,
        poolId: pool.poolId,
        paired: { kind: 'weth', address: getAddress(args.numeraire) },
        tokenIsCurrency0: isAddressEqual(pool.poolKey.currency0, asset),
        feeSources: { hook: getAddress(args.poolOrHook) },
        scheduleFromLogs: feeScheduleFromLogs(ctx.txLogs, args.poolOrHook, pool.poolId),
      }
      return { kind: 'launch', candidate }
    },

    async loadFeeSchedule(client: PublicClient, launch: LaunchCandidate): Promise<LinearFeeSchedule> {
      if (launch.scheduleFromLogs?.kind === 'linear') return launch.scheduleFromLogs
      const [startingTime, startFee, endFee, durationSeconds] = await client.readContract({
        address: feeSource(launch, 'hook'),
        abi: DOPPLER_HOOK_ABI,
        functionName: 'getFeeScheduleOf',
        args: [launch.poolId],
      })
      return linear(startingTime, startFee, endFee, durationSeconds)
    },
  }
}

const linear = (startTime: number, startFee: number, endFee: number, durationSeconds: number): LinearFeeSchedule => ({
  kind: 'linear',
  startTime,
  startFee: Math.min(startFee, DOPPLER_MAX_START_FEE),
  endFee,
  durationSeconds,
})

function feeScheduleFromLogs(logs: readonly Log[], hook: Address, poolId: Hex): LinearFeeSchedule | undefined {
  for (const log of logs) {
    if (!isAddressEqual(log.address, hook)) continue
    try {
      const { eventName, args } = decodeEventLog({ abi: DOPPLER_HOOK_ABI, data: log.data, topics: log.topics, strict: true })
      if (eventName === 'FeeScheduleSet' && args.poolId === poolId) {
        return linear(args.startingTime, args.startFee, args.endFee, args.durationSeconds)
      }
    } catch {
      // another hook event
    }
  }
  return undefined
}
