import type { BundlerContext } from './bundler-context.ts'
import { DEFAULT_PRIORITY_FEE_POLICY, type Fees, isLaunchTick, type PriorityFeePolicy, policyFees, tipFromFeeHistory } from './priority-fee-policy.ts'

/** What a send needs from the chain: fees, and the block from which its operations' events are searched. */
export interface ChainNow {
  /** The priority-fee policy's fees (priority-fee-policy.ts); the per-transaction tip cap is applied by the sender. */
  fees: Fees
  fromBlock: bigint
}

/** Which send a `recent` read is for: a launch's buys landing in its first blocks offer the launch tip. */
export interface SendMoment {
  launchBlock?: bigint | undefined
  landsIn?: bigint | undefined
  /**
   * The sends started together for one purpose (a split batch's collects and settle: its batch id): the pending-nonce
   * check made (or found fresh) for the first of them stands for the others within NONCE_OBSERVATION_FRESH_MS, though
   * the first ones were sent since (`recent`).
   */
  group?: string | undefined
}

export interface ChainNowReader {
  /** Reads fees, block and every sender account's pending nonce now (each corrects its nonce manager). */
  read(): Promise<ChainNow>
  /** Like `read`, and keeps the answer for `recent`. */
  refresh(): Promise<ChainNow>
  /**
   * Fees and block from the cache when recent; the pending-nonce check is made unless one was made within
   * NONCE_OBSERVATION_FRESH_MS with no send of ours since (then it would read the same counts), or unless it was made
   * (or found fresh) for an earlier send of the same `moment.group` within that time: after a reorg dropped our
   * transactions it is what moves the local counter back.
   */
  recent(moment?: SendMoment): Promise<ChainNow>
}

// What the last refresh read, for a submission soon after (a warm-up on the block before a launch). An older
// starting block only widens the reconcile log search. The fees may be a few blocks old: a base fee rises at most
// 12.5% a block, so the fee cap is doubled (a cap, not a price: a transaction pays the base fee of its block plus
// the tip), which covers the ~4 blocks the cache lives on a 2 s chain.
const CHAIN_NOW_TTL_MS = 8_000

/**
 * How long a pending-nonce check stands in for the next one when no send of ours started since it was read (issue 23
 * item 3: a plain send, the batch's executeBatch, used to wait one round trip for it right before
 * eth_sendRawTransaction; the wallet layer reads it with every readying pass, each processed block, so a launch's send
 * finds one this fresh). What it may miss is a reorg or an eviction of our transactions within this window, which a
 * check one round trip before the send misses just the same when it happens a moment later: the send then waits
 * behind a nonce gap until its landing is followed up (followLanding resyncs the counter; the fee bumper replaces it).
 * No buy depends on it for exactly-once: a batch id executes once, an order once (docs/execution.md §5, §8).
 */
export const NONCE_OBSERVATION_FRESH_MS = 2_000

export function createChainNowReader(
  ctx: Pick<BundlerContext, 'client' | 'senders'>,
  feePolicy: PriorityFeePolicy = DEFAULT_PRIORITY_FEE_POLICY,
): ChainNowReader {
  const { client, senders } = ctx
  // Every sender account's pending nonce, read together (one batched HTTP request): each corrects its own counter.
  let lastObserved: { at: number; marks: number[] } | undefined
  const observeNonces = async (): Promise<void> => {
    const at = Date.now()
    const marks = senders.lanes.map((lane) => lane.nonces.mark())
    const counts = await Promise.all(senders.lanes.map((lane) => client.getTransactionCount({ address: lane.signer.address, blockTag: 'pending' })))
    for (const [index, lane] of senders.lanes.entries()) lane.nonces.observe(counts[index]!, marks[index]!)
    lastObserved = { at, marks }
  }
  // A check read recently, with no send of ours started since (nor in progress then), on every account not sending
  // now. An account with a send in progress now is left out: a check now would be ignored on it (the nonce manager's
  // `observe` drops a read that overlaps a send), so waiting a round trip for one would buy nothing for it.
  const observedFresh = (): boolean => {
    const last = lastObserved
    if (!last || Date.now() - last.at > NONCE_OBSERVATION_FRESH_MS) return false
    return senders.lanes.every((lane, index) => {
      const now = lane.nonces.mark()
      return now < 0 || (last.marks[index]! >= 0 && now === last.marks[index])
    })
  }
  const tipSource = feePolicy.tip

  // The tips recent blocks paid (eth_feeHistory), when the policy takes a percentile of them; a node without the
  // method (or without rewards) leaves the node's own suggestion (eth_maxPriorityFeePerGas, in the estimate).
  const historyTip = async (): Promise<bigint | undefined> => {
    if (tipSource.kind !== 'percentile') return undefined
    const history = await Promise.resolve()
      .then(() => client.getFeeHistory({ blockCount: tipSource.blocks, rewardPercentiles: [tipSource.percentile], blockTag: 'latest' }))
      .catch(() => undefined)
    return history ? tipFromFeeHistory(history, tipSource.percentile) : undefined
  }

  // The policy's fees on a launch tick (its launch multiplier applied), beside each read: `recent` hands them out for
  // a launch's sends.
  const launchFeesOf = new WeakMap<ChainNow, Fees>()

  const read = async (): Promise<ChainNow> => {
    // Our transactions the node no longer knows (a reorg dropped their block, the pool evicted them) would leave the
    // local counter ahead of the chain and the next transaction stuck behind a nonce gap.
    const [estimate, tip, fromBlock] = await Promise.all([client.estimateFeesPerGas(), historyTip(), client.getBlockNumber({ cacheTime: 0 }), observeNonces()])
    const chain = { estimate, historyTip: tip }
    const now = { fees: policyFees(feePolicy, chain, false), fromBlock }
    launchFeesOf.set(now, policyFees(feePolicy, chain, true))
    return now
  }

  let chainNowCache: { value: ChainNow; at: number } | undefined
  const refresh = async (): Promise<ChainNow> => {
    const at = Date.now()
    const value = await read()
    chainNowCache = { value, at }
    return value
  }

  // A launch's buys in its first blocks offer the launch tip (the policy's multiplier): the block is ordered by tip.
  const forMoment = (now: ChainNow, moment: SendMoment | undefined): ChainNow => {
    const launchFees = launchFeesOf.get(now)
    return launchFees && isLaunchTick(feePolicy, moment?.launchBlock, moment?.landsIn) ? { ...now, fees: launchFees } : now
  }

  // The group whose first send had a check (made or found fresh), and when that check was read. Why its later sends
  // need none (issue 23 item 3: one round trip before each later collect of a split batch, 8-14 ms apart at load ~2.5):
  // what a check finds is a reorg or an eviction of our transactions in the time since the group's check, i.e.
  // milliseconds (the sends of a group start together), which the 2 s window above accepts for any send; and while an
  // account has a send in flight, which the group's earlier sends make likely, the nonce manager ignores a check on it
  // anyway (nonce-manager.ts `observe`). A reorg found later is healed as for any send (followLanding resyncs, the fee
  // bumper replaces); exactly-once never rests on it (a batch id executes once: docs/execution.md §5, §8).
  let checkedGroup: { group: string; at: number; checked: Promise<boolean> } | undefined

  const recent = async (moment?: SendMoment): Promise<ChainNow> => {
    const cached = chainNowCache
    if (!cached || Date.now() - cached.at > CHAIN_NOW_TTL_MS) return forMoment(await refresh(), moment)
    const group = moment?.group
    const standing =
      group !== undefined && checkedGroup?.group === group && Date.now() - checkedGroup.at <= NONCE_OBSERVATION_FRESH_MS ? checkedGroup : undefined
    // A later send of the group: the group's check (awaited if still reading); it failed: this send checks itself.
    if (standing) {
      if (!(await standing.checked)) await observeNonces()
    } else {
      const fresh = observedFresh()
      const checking = fresh ? Promise.resolve() : observeNonces()
      if (group !== undefined) {
        const at = fresh && lastObserved ? lastObserved.at : Date.now()
        checkedGroup = {
          group,
          at,
          checked: checking.then(
            () => true,
            () => false,
          ),
        }
      }
      await checking
    }
    const { fees, fromBlock } = forMoment(cached.value, moment)
    return { fees: { maxFeePerGas: fees.maxFeePerGas * 2n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }, fromBlock }
  }

  return { read, refresh, recent }
}
