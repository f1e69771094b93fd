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
  /**
   * A send is expected soon (the executor warms the send path on each processed block while funded orders wait, and on
   * a pushed launch log): for NONCE_OBSERVATION_FRESH_MS from now, each send of ours is followed by a pending-nonce
   * check once no account is sending (`sent`), so the next send finds one made after it. Until then, and when nothing
   * keeps it checked (the wallet layer alone), a send is followed by no check: the next send checks itself.
   */
  keepChecked(): void
  /** A send of ours is done (sent or failed): the check after it, when kept checked. */
  sent(): void
  /**
   * A reorg was seen (the daemon's indexer): the last check, and any check still reading, no longer stand (a check made
   * after our sends and before the reorg would let the next send go out behind the nonces it dropped). The next send
   * checks.
   */
  forget(): void
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
 * A reorg the daemon's indexer sees drops the check (`forget`, from the executor's reorg signal through forgetAhead),
 * so the checks made after our own sends (`keepChecked`) never stand across one. No buy depends on it for
 * exactly-once: a batch id executes once, an order once (docs/execution.md §5, §8).
 */
export const NONCE_OBSERVATION_FRESH_MS = 2_000

export function createChainNowReader(
  ctx: Pick<BundlerContext, 'client' | 'senders'>,
  feePolicy: PriorityFeePolicy = DEFAULT_PRIORITY_FEE_POLICY,
  /** How long a check stands, and a warm-up keeps the accounts checked (BundlerOptions.nonceCheckFreshMs). */
  freshMs: number = NONCE_OBSERVATION_FRESH_MS,
): ChainNowReader {
  const { client, senders } = ctx
  // Every sender account's pending nonce, read together (one batched HTTP request): each corrects its own counter.
  let lastObserved: { at: number; marks: number[] } | undefined
  // The check being read, if any; `generation` counts the reorgs seen (`forget`): a read asked before one is read again.
  let observing: { at: number; marks: number[]; generation: number; done: Promise<void> } | undefined
  let generation = 0
  const observeNonces = (): Promise<void> => {
    const at = Date.now()
    const marks = senders.lanes.map((lane) => lane.nonces.mark())
    const asked = generation
    const done = (async () => {
      const counts = await Promise.all(senders.lanes.map((lane) => client.getTransactionCount({ address: lane.signer.address, blockTag: 'pending' })))
      // A reorg seen while it read: its counts may predate the reorg (a counter set from them could skip the nonces
      // the reorg dropped). Read again.
      if (asked !== generation) return observeNonces()
      for (const [index, lane] of senders.lanes.entries()) lane.nonces.observe(counts[index]!, marks[index]!)
      lastObserved = { at, marks }
    })()
    const entry = { at, marks, generation: asked, done }
    observing = entry
    const over = () => {
      if (observing === entry) observing = undefined
    }
    done.then(over, over)
    return done
  }
  // Whether a check asked with `marks` stands for a send now: no send of ours started since it was asked (nor in
  // progress then), on every account not sending now. An account with a send in progress now is left out: a check now
  // would be ignored on it (the nonce manager's `observe` drops a read that overlaps a send), so waiting a round trip
  // for one would buy nothing for it.
  const standsNow = (marks: readonly number[]): boolean =>
    senders.lanes.every((lane, index) => {
      const now = lane.nonces.mark()
      return now < 0 || (marks[index]! >= 0 && now === marks[index])
    })
  // A check read recently that stands now.
  const observedFresh = (): boolean => {
    const last = lastObserved
    return last !== undefined && Date.now() - last.at <= freshMs && standsNow(last.marks)
  }
  // A check still reading that will stand once read (asked after our last send, before any reorg seen): waiting for
  // its answer is waiting for what a new check would read, less the part of the round trip already gone.
  const underWay = (): { at: number; done: Promise<void> } | undefined => {
    const reading = observing
    return reading && reading.generation === generation && standsNow(reading.marks) ? reading : undefined
  }
  // Until when a send of ours is followed by a check (keepChecked).
  let keptCheckedUntil = 0
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
    const standing = group !== undefined && checkedGroup?.group === group && Date.now() - checkedGroup.at <= freshMs ? checkedGroup : undefined
    // A later send of the group: the group's check (awaited if still reading); it failed: this send checks itself.
    if (standing) {
      if (!(await standing.checked)) await observeNonces()
    } else {
      const fresh = observedFresh()
      const reading = fresh ? undefined : underWay()
      // A check under way that fails: this send checks itself.
      const checking = fresh ? Promise.resolve() : reading ? reading.done.catch(() => observeNonces()) : observeNonces()
      if (group !== undefined) {
        const at = fresh && lastObserved ? lastObserved.at : (reading?.at ?? Date.now())
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

  return {
    read,
    refresh,
    recent,
    keepChecked() {
      keptCheckedUntil = Date.now() + freshMs
    },
    // Why a check after our own sends (issue 23 item 3, docs/execution.md §5 "The check after our own sends"): the
    // approvals ahead are sent from the sender accounts on the blocks before a launch, often while that block's check
    // is out (which `observe` then drops on their account); the next check was the launch send's own, one round trip
    // between the launch log and the first send in half the latency bench's launches. Made once no account is sending
    // (a check overlapping a send is dropped on its account; that send's end asks again), at most one at a time for
    // the same sends.
    sent() {
      if (Date.now() > keptCheckedUntil) return
      if (senders.lanes.some((lane) => lane.nonces.mark() < 0)) return
      if (observedFresh() || underWay()) return
      observeNonces().catch(() => undefined)
    },
    forget() {
      generation++
      lastObserved = undefined
      checkedGroup = undefined
    },
  }
}
