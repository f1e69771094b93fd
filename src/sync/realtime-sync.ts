import type { Address, Hash, Hex, Log, PublicClient } from 'viem'
import type { Logger } from 'pino'
import { PrebuyError } from '../common/errors.ts'
import { rememberFinalized } from './finalized-history.ts'
import { bloomMayHoldLogsOf } from './logs-bloom.ts'
import { type PushedLog, parsePushedLog } from './pushed-log.ts'
import { toBlockRef } from './sync-types.ts'
import type { BlockRef, SyncCheckpoint, SyncEvent } from './sync-types.ts'

export interface RealtimeSyncOptions {
  /** HTTP client: every block and log is fetched through it, so a broken socket never loses data. */
  client: PublicClient
  /** WebSocket client: only tells us a new head exists (newHeads subscription). Optional; polling covers for it. */
  wsClient?: PublicClient | undefined
  /** Contracts whose logs are delivered with each block; undefined = every log. */
  addresses?: Address[] | undefined
  /** Blocks at least this deep under the processed tip are final and are dropped from the reorg window. */
  confirmations: number
  /** Polling interval: only while the socket is down (or not configured); while it delivers heads no timer polls. */
  pollingIntervalMs: number
  /**
   * While the socket is up, this long without a head over it counts it as down (a socket that died silently) and
   * polling resumes until it delivers again (default 30 s: 150 Base blocks).
   */
  socketSilenceMs?: number | undefined
  /**
   * While the socket is up, one head read after this long without a head over it; the socket still counts as up until
   * socketSilenceMs. On a chain that never pauses (Base mines every 200 ms) a socket that lags or died quietly would
   * otherwise hold every block, launches included, for socketSilenceMs (30 s: 150 blocks). The daemon sets two block
   * times (start-indexer.ts). Undefined: no read before socketSilenceMs (a chain that mines on demand is silent for good
   * reason).
   */
  socketGapMs?: number | undefined
  /**
   * A warning (and `onSocket('never_connected')`) when the socket has delivered no head this long after start
   * although the chain moved: a wrong wsUrl or a provider without subscriptions, polling in its place (default 30 s).
   */
  socketConnectWarnMs?: number | undefined
  /**
   * At most this many blocks per round when behind: their headers at once and their logs in one eth_getLogs
   * (default SYNC_RANGE_BLOCKS). A node that refuses the range is read by block hash instead.
   */
  maxRangeBlocks?: number | undefined
  /** Told the head of each round (read anyway): the daemon shares it, so nothing else fetches the head per tick. */
  onHead?: ((head: bigint) => void) | undefined
  /**
   * `logs` subscriptions over the same socket (one per filter), each pushed log handed to `onLog` once its shape checks
   * (pushed-log.ts; a malformed or removed one is dropped): a **hint only** (docs/execution.md §1 "Pushed logs"). The
   * sync itself never uses them: a block's logs are still read by hash or with the head and checked against its header,
   * so a pushed log decides nothing, and one of a block that never comes costs the reads its listener started.
   */
  logHints?: { filters: readonly LogHintFilter[]; onLog: (log: PushedLog) => void } | undefined
  /** Told when the socket comes up, goes down, or never connected (see socketConnectWarnMs). */
  onSocket?: ((state: SocketState) => void) | undefined
  /**
   * Whether the next round (the head, and the logs of the blocks above the one being delivered) is read while the
   * consumer processes the last block of a round (default true): the consumer's processing and the next block's reads
   * overlap. false: the next round is read only when the consumer asks for the next event (then it sees everything
   * mined meanwhile in one round: tests that count rounds of a parked consumer).
   */
  readAhead?: boolean | undefined
  /**
   * Whether every head read asks, in the same round trip, the watched logs of the number after our tip (eth_getLogs with
   * fromBlock = toBlock = that number; default true): when the head is our tip's child (the steady state) its logs are
   * then already there, checked against its header (every log must carry its hash and number; an empty answer is
   * taken only when the header's logs bloom excludes the watched addresses), and a block costs one round trip instead
   * of two. The cost: one eth_getLogs per head read, also on the polls that find no new block; none while the polls
   * are slower than the chain (a head read that found more than one new block: the next head read is asked alone,
   * until one finds at most one again). false: the head alone, then its logs by hash.
   */
  logsWithHead?: boolean | undefined
  /**
   * Default true. While polling (no socket delivering): a head read every `pollingIntervalMs` without waiting for the
   * previous answer (at most MAX_POLLS_IN_FLIGHT in flight), instead of a read after each answer plus the interval.
   */
  overlapPolls?: boolean | undefined
  /** Resume point persisted by the consumer; without it, the sync starts at `startBlock`. */
  resume?: SyncCheckpoint | undefined
  /** First block to process when there is no checkpoint (default: the current head). */
  startBlock?: bigint | undefined
  logger: Logger
}

/** A block's identity with its logs bloom. */
interface Header {
  ref: BlockRef
  logsBloom: Hex | null
}

/** Blocks above our tip with their logs; 'moved': a block does not link; 'missing': the node could not serve one. */
type Fetched = Array<{ block: BlockRef; logs: Log[] }> | 'moved' | 'missing'

/**
 * The watched logs at `number`, read by number in the same round trip as a head read (before its header was known):
 * evidence only, used for the block at that number when they match its header (see nextLogsOf). undefined: the node
 * refused (the block did not exist yet: anvil's BlockOutOfRangeError) or failed.
 */
interface NextLogs {
  number: bigint
  logs: Log[] | undefined
}

/** A round read ahead of the consumer: the head after `after`, and the range above `after` when the head is above it. */
interface RoundRead {
  after: BlockRef
  head: Header
  range?: { from: bigint; to: bigint; fetched: Fetched }
}

const sortLogs = (logs: readonly Log[]): Log[] => [...logs].sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0))

/** Blocks read per round while catching up (one eth_getLogs over the range; providers cap ranges at 500 to 10,000). */
export const SYNC_RANGE_BLOCKS = 100

export type SocketState = 'up' | 'down' | 'never_connected'

/** Defaults of socketSilenceMs and socketConnectWarnMs. */
export const SOCKET_SILENCE_MS = 30_000
/** Overlapped polls (overlapPolls): head reads in flight at most, so a slow node is not asked ever more. */
export const MAX_POLLS_IN_FLIGHT = 3
export const SOCKET_CONNECT_WARN_MS = 30_000

/** An eth_subscribe `logs` filter: emitters, and topics per position (an array: any of them; null: any). */
export interface LogHintFilter {
  address: Address[]
  topics?: Array<Hex | Hex[] | null>
}

/** The part of viem's webSocket transport the sync uses (its `subscribe`, as watchBlockNumber calls it). */
interface WebSocketSubscribe {
  subscribe(args: {
    params: ['newHeads'] | ['logs', LogHintFilter]
    onData: (data: { result?: unknown }) => void
    onError: (error: Error) => void
  }): Promise<{ unsubscribe: () => Promise<unknown> }>
}

export interface RealtimeSync {
  /** One stream per sync; ends after stop(). */
  events(): AsyncGenerator<SyncEvent, void, undefined>
  stop(): Promise<void>
}

/**
 * Ponder-style realtime sync: a per-chain stream of `block | reorg | finalize` events.
 *
 * Why fetch by block instead of trusting a log subscription: logs fetched by block hash belong to exactly that block,
 * so a reorg never leaves us holding logs of a block we did not see, and a gap (socket down, daemon restarted) is filled
 * by walking the numbers from our last processed block. The socket only shortens the wait for the next head.
 */
export function createRealtimeSync(options: RealtimeSyncOptions): RealtimeSync {
  const { client, wsClient, addresses, confirmations, pollingIntervalMs, logger } = options
  let stopped = false
  let wake: (() => void) | undefined
  let unwatch: (() => void) | undefined
  let socketHealthy = false
  let socketEverDelivered = false
  // When the socket last delivered a head (performance clock): its silence is counted from there.
  let lastSocketHeadAt = 0
  const maxRangeBlocks = Math.max(1, options.maxRangeBlocks ?? SYNC_RANGE_BLOCKS)
  const readAhead = options.readAhead ?? true
  const logsWithHead = options.logsWithHead ?? true
  const overlapPolls = options.overlapPolls ?? true
  // New blocks the last head read found above the block it was read after: above one, the polls are slower than the
  // chain (a long polling interval, a slow node), the next number's logs would go unused, and are not asked.
  let lastHeadGap = 0n
  const socketSilenceMs = options.socketSilenceMs ?? SOCKET_SILENCE_MS
  const socketConnectWarnMs = options.socketConnectWarnMs ?? SOCKET_CONNECT_WARN_MS
  const startedAt = Date.now()
  let blocksSinceStart = 0
  let neverConnectedWarned = false

  // A head announced while a round was running must not wait for the next poll: remember it (and its hash, when the
  // socket named it: a round whose head read already returned that block has nothing left to read for it).
  let headPending = false
  let pendingHash: Hash | undefined
  // The hash of the newest head read (readHead): a socket notification of that very block (late, polling found it first)
  // wakes nothing, since a head read would only find it again.
  let lastHeadHash: Hash | undefined
  // When the last head read answered (performance clock): nextHeadAfter's first read goes at once when it is an
  // interval old or more.
  let lastHeadAnsweredAt: number | undefined
  /** Resolves true when woken (a head over the socket, stop), false when the time ran out. */
  const sleepUntilWoken = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const pending = headPending && (pendingHash === undefined || pendingHash !== lastHeadHash)
      headPending = false
      pendingHash = undefined
      if (pending) return resolve(true)
      const timer = setTimeout(() => finish(false), ms)
      const self = () => finish(true)
      function finish(woken: boolean) {
        clearTimeout(timer)
        // A wait abandoned by an overlapped poll (nextHeadAfter) ends later by its timer: it must not take the
        // wake of the wait that replaced it, nor drop a notification meant for that one.
        if (wake !== self) return resolve(woken)
        wake = undefined
        headPending = false
        pendingHash = undefined
        resolve(woken)
      }
      wake = self
    })

  /** Wakes the loop; `hash`: the head the socket announced (no hash: stop, the stream closing: always wakes). */
  const notify = (hash?: Hash) => {
    if (hash !== undefined && hash === lastHeadHash) return
    if (wake) wake()
    else {
      // An unconditional wake pending stays unconditional.
      pendingHash = headPending && pendingHash === undefined ? undefined : hash
      headPending = true
    }
  }

  function subscribe() {
    if (!wsClient) return
    const onError = (error: Error) => {
      // Polling takes over; the socket comes back up with its next head (viem's transport reconnects).
      const wasHealthy = socketHealthy
      socketHealthy = false
      if (wasHealthy) {
        logger.warn({ err: error }, 'realtime sync: websocket failed, falling back to polling')
        options.onSocket?.('down')
        // A wait on the socket (up to socketSilenceMs) ends now: the next one polls (a socket broken by a malformed
        // message, or closed, used to leave the sync waiting the whole silence bound: 30 s without a block).
        notify()
      }
    }
    // newHeads directly (as viem's watchBlockNumber does, but keeping the head's hash, which it drops): the hash tells a
    // late notification of a block a head read already returned from a new head, even one at the same height (a reorg).
    let active = true
    const unsubscribes: Array<() => Promise<unknown>> = []
    unwatch = () => {
      active = false
      for (const unsubscribe of unsubscribes) void unsubscribe().catch(() => undefined)
    }
    const transport = wsClient.transport as unknown as WebSocketSubscribe
    if (typeof transport.subscribe !== 'function') {
      logger.warn('realtime sync: the websocket client cannot subscribe, polling only')
      return
    }
    const keep = (subscription: { unsubscribe: () => Promise<unknown> }) => {
      unsubscribes.push(subscription.unsubscribe)
      if (!active) void subscription.unsubscribe().catch(() => undefined)
    }
    transport
      .subscribe({
        params: ['newHeads'],
        onData: (data) => {
          if (!active) return
          lastSocketHeadAt = performance.now()
          if (!socketHealthy) {
            socketHealthy = true
            socketEverDelivered = true
            logger.info('realtime sync: websocket delivering new heads; timer polling stopped')
            options.onSocket?.('up')
          }
          const hash = (data.result as { hash?: unknown } | undefined)?.hash
          notify(typeof hash === 'string' ? (hash as Hash) : undefined)
        },
        onError,
      })
      .then(keep)
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'realtime sync: websocket subscription failed, polling only')
      })
    // The pushed logs (hints): their failure changes nothing of the stream (the blocks' logs are read anyway).
    const hints = options.logHints
    for (const filter of hints?.filters ?? []) {
      transport
        .subscribe({
          params: ['logs', filter],
          onData: (data) => {
            if (!active) return
            const pushed = parsePushedLog(data.result)
            if (!pushed) return
            try {
              hints!.onLog(pushed)
            } catch (error) {
              logger.debug({ err: error }, 'realtime sync: a pushed log hint failed')
            }
          },
          onError: () => undefined,
        })
        .then(keep)
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'realtime sync: logs subscription failed; blocks are read as before, without the pushed hint')
        })
    }
  }

  /** Once: the chain moved for socketConnectWarnMs after start and the socket never told us (polling did). */
  function warnIfSocketNeverConnected() {
    if (!wsClient || socketEverDelivered || neverConnectedWarned || blocksSinceStart === 0) return
    if (Date.now() - startedAt < socketConnectWarnMs) return
    neverConnectedWarned = true
    logger.warn(
      { afterMs: socketConnectWarnMs, blocks: blocksSinceStart },
      'realtime sync: the websocket has delivered no new head since start although the chain moved: check wsUrl (and that the provider supports eth_subscribe); polling over HTTP meanwhile',
    )
    options.onSocket?.('never_connected')
  }

  async function fetchBlock(number: bigint): Promise<BlockRef | undefined> {
    return (await fetchHeader(number))?.ref
  }

  /** A block's identity and its logs bloom (which says whether a block can hold logs of the watched addresses). */
  async function fetchHeader(number: bigint): Promise<Header | undefined> {
    try {
      const block = await client.getBlock({ blockNumber: number })
      return { ref: toBlockRef(block), logsBloom: block.logsBloom }
    } catch (error) {
      // A block above the (shorter) canonical head after a reorg does not exist.
      if (error instanceof Error && /not found|could not be found/i.test(error.message)) return undefined
      throw error
    }
  }

  async function fetchLogs(block: BlockRef): Promise<Log[]> {
    const logs = await client.getLogs({ blockHash: block.hash, ...(addresses ? { address: addresses } : {}) })
    return sortLogs(logs)
  }

  /** The watched logs of blocks `from`..`to` in one eth_getLogs; undefined when the node refuses the range. */
  async function fetchRangeLogs(from: bigint, to: bigint): Promise<Log[] | undefined> {
    try {
      return await client.getLogs({ fromBlock: from, toBlock: to, ...(addresses ? { address: addresses } : {}) })
    } catch (error) {
      // A provider's range cap or a transient error: the blocks' logs are then read by hash, one request each, at once.
      logger.debug({ err: error, from: from.toString(), to: to.toString() }, 'realtime sync: eth_getLogs over a range failed; reading by block hash')
      return undefined
    }
  }

  async function initialCheckpoint(): Promise<SyncCheckpoint> {
    if (options.resume) return { finalized: options.resume.finalized, unfinalized: [...options.resume.unfinalized], history: [...options.resume.history] }
    const start = options.startBlock ?? (await client.getBlockNumber({ cacheTime: 0 }))
    // The block before the start counts as processed, so the start block itself is delivered.
    const before = await fetchBlock(start > 0n ? start - 1n : 0n)
    if (!before) throw new PrebuyError('sync_start_missing', `start block ${start} not found`)
    return { finalized: before, unfinalized: [], history: [] }
  }

  /**
   * Waits for the next head: over the socket while it is up (no timer polling; the silence bound only detects a socket
   * that died quietly, and socketGapMs, when set, returns after a gap for one head read), else the polling interval.
   */
  async function pause(): Promise<void> {
    warnIfSocketNeverConnected()
    const waitedOnSocket = socketHealthy
    // On the socket: until its silence bound, or a gap of it (socketGapMs) after which the caller reads the head once.
    const silenceLeft = () => socketSilenceMs - (performance.now() - lastSocketHeadAt)
    const socketWait = Math.max(0, options.socketGapMs === undefined ? silenceLeft() : Math.min(options.socketGapMs, silenceLeft()))
    const woken = await sleepUntilWoken(waitedOnSocket ? socketWait : pollingIntervalMs)
    if (waitedOnSocket && !woken && socketHealthy && !stopped && silenceLeft() <= 0) {
      socketHealthy = false
      logger.warn({ silentMs: socketSilenceMs }, 'realtime sync: no new head over the websocket for a while; polling until it delivers again')
      options.onSocket?.('down')
    }
  }

  async function readHead(): Promise<Header> {
    const latest = await client.getBlock({ blockTag: 'latest' })
    const head: Header = { ref: toBlockRef(latest), logsBloom: latest.logsBloom }
    lastHeadHash = head.ref.hash
    lastHeadAnsweredAt = performance.now()
    options.onHead?.(head.ref.number)
    return head
  }

  /**
   * The head, and (logsWithHead) in the same round trip the watched logs of the number after `after`: the block the
   * head is in the steady state. Detection in one round (issue 23 item 3: at 50 ms a request the head then its logs by
   * hash cost 100 ms before the indexer sees a launch). Nothing is trusted yet: nextLogsOf checks them against the header.
   */
  async function readHeadWithNext(after: BlockRef): Promise<{ head: Header; next?: NextLogs }> {
    if (!logsWithHead || lastHeadGap > 1n) {
      const head = await readHead()
      lastHeadGap = head.ref.number - after.number
      return { head }
    }
    const number = after.number + 1n
    const logs = client
      .getLogs({ fromBlock: number, toBlock: number, ...(addresses ? { address: addresses } : {}) })
      // Mostly the block not mined yet (a poll that finds no new head); the logs are then read by hash when needed.
      .catch(() => undefined)
    const [head, found] = await Promise.all([readHead(), logs])
    lastHeadGap = head.ref.number - after.number
    return { head, next: { number, logs: found } }
  }

  /**
   * The logs read by number (`next`) as the logs of `header`, or undefined when they cannot be taken as its: another
   * number, a log of another block (the answer came from another fork's view of that height, a node behind a load
   * balancer), or an empty answer while the header's bloom admits a watched log (the answer may predate the block). A
   * log answer is only ever taken as the logs of the block whose hash every log carries, exactly as a read by hash.
   */
  function nextLogsOf(header: Header, next: NextLogs | undefined): Log[] | undefined {
    if (!next?.logs || next.number !== header.ref.number) return undefined
    if (!next.logs.every((log) => log.blockHash === header.ref.hash && log.blockNumber === header.ref.number)) return undefined
    if (next.logs.length === 0 && bloomMayHoldLogsOf(header.logsBloom, addresses)) return undefined
    return sortLogs(next.logs)
  }

  async function* stream(): AsyncGenerator<SyncEvent, void, undefined> {
    let state = await initialCheckpoint()
    const tip = () => state.unfinalized.at(-1) ?? state.finalized
    const snapshot = (): SyncCheckpoint => ({ finalized: state.finalized, unfinalized: [...state.unfinalized], history: [...state.history] })
    /** Every block we processed and still remember, newest first. */
    const remembered = (): BlockRef[] => [...state.unfinalized].reverse().concat(state.finalized, state.history)
    // Set while the node's head is below our tip, so that is logged once per episode, not every poll.
    let behind: bigint | undefined
    // The next round, read while the consumer processes the last block of this one (readRoundAfter).
    let ahead: Promise<RoundRead | undefined> | undefined
    let closed = false

    /** The newest remembered block the node still has; below the finalized block when the node lost more than that. */
    async function findAncestor(): Promise<BlockRef> {
      for (const local of remembered()) {
        const remote = await fetchBlock(local.number)
        if (remote && remote.hash === local.hash) return local
      }
      const oldest = remembered().at(-1)!
      throw new PrebuyError('reorg_too_deep', `the chain has none of the blocks we processed and remember (down to block ${oldest.number}): another chain?`, {
        details: { finalized: state.finalized.number.toString(), oldest: oldest.number.toString(), confirmations },
      })
    }

    /**
     * With the node's head below our tip: whether the node proves a reorg, i.e. holds a different block at a number we
     * processed. A node that is merely behind (a lagging node behind a load balancer) or lost its newest blocks (a
     * chain restarted from an older state) shows the same blocks up to its head: we wait, and if it then builds other
     * blocks on top, the first of them at a number we processed is the proof.
     */
    async function contradicted(head: BlockRef): Promise<boolean> {
      const local = remembered().find((b) => b.number <= head.number)
      if (!local) return false
      const remote = local.number === head.number ? head : await fetchBlock(local.number)
      return remote !== undefined && remote.hash !== local.hash
    }

    async function* revertTo(ancestor: BlockRef): AsyncGenerator<SyncEvent, void, undefined> {
      const reverted = remembered()
        .filter((b) => b.number > ancestor.number)
        .reverse()
      const belowFinalized = ancestor.number < state.finalized.number
      state = belowFinalized
        ? { finalized: ancestor, unfinalized: [], history: state.history.filter((b) => b.number < ancestor.number) }
        : { ...state, unfinalized: state.unfinalized.filter((b) => b.number <= ancestor.number) }
      const context = { ancestor: ancestor.number.toString(), depth: reverted.length }
      if (belowFinalized) logger.warn(context, 'realtime sync: the chain lost blocks below our finalized block; resuming from the deepest block it still has')
      else logger.info(context, 'realtime sync: reorg')
      yield { type: 'reorg', ancestor, reverted, checkpoint: snapshot() }
    }

    /**
     * Blocks `from`..`to` above our tip with their watched logs, in one round trip: the headers (all at once; the head
     * is already known) and one eth_getLogs over the range (by hash for a lone head, which is exact). A range answer is
     * checked against the headers: every log must carry the hash of the header at its number, and a block with no log
     * in the answer whose bloom admits one of ours is read again by hash (the answer may come from another fork's view
     * of that height; a log fetched by hash belongs to exactly that block). 'moved': a block does not link to the one
     * before it (or to our tip); 'missing': the node could not serve a block below its head.
     */
    async function fetchRange(from: bigint, to: bigint, head: Header, after: Hash, next?: NextLogs): Promise<Fetched> {
      const numbers: bigint[] = []
      for (let n = from; n <= to; n++) numbers.push(n)
      const lone = from === to && to === head.ref.number
      // A lone head whose logs came with it (readHeadWithNext): no request at all here once it links to our tip.
      const known = lone ? nextLogsOf(head, next) : undefined
      const [headers, rangeLogs] = await Promise.all([
        Promise.all(numbers.map((n) => (n === head.ref.number ? head : fetchHeader(n)))),
        known ?? (lone ? fetchLogs(head.ref) : fetchRangeLogs(from, to)),
      ])
      if (headers.some((h) => h === undefined)) return 'missing'
      const chain = headers as Header[]
      let parent = after
      for (const { ref } of chain) {
        if (ref.parentHash !== parent) return 'moved'
        parent = ref.hash
      }
      if (lone) return [{ block: head.ref, logs: rangeLogs ?? [] }]
      const byHash = new Map<string, Log[]>(chain.map(({ ref }) => [ref.hash, []]))
      for (const entry of rangeLogs ?? []) {
        const into = entry.blockHash === null ? undefined : byHash.get(entry.blockHash)
        if (!into) return 'moved'
        into.push(entry)
      }
      const reread = chain.filter(
        ({ ref, logsBloom }) => rangeLogs === undefined || (byHash.get(ref.hash)!.length === 0 && bloomMayHoldLogsOf(logsBloom, addresses)),
      )
      const again = await Promise.all(reread.map(({ ref }) => fetchLogs(ref)))
      for (const [i, { ref }] of reread.entries()) byHash.set(ref.hash, again[i]!)
      return chain.map(({ ref }) => ({ block: ref, logs: sortLogs(byHash.get(ref.hash)!) }))
    }

    async function* reconcile(): AsyncGenerator<SyncEvent, boolean, undefined> {
      const { head, next } = await readHeadWithNext(tip())
      return yield* follow(head, undefined, next)
    }

    /**
     * The next round, read while the consumer processes `after` (the last block delivered): waits for a new head as the
     * idle loop does, reads it, and when it is above `after` reads the range above `after` too (linked to it). Nothing is
     * decided here: the round is applied (delivered, or a reorg followed) only once the consumer asks for more, and only
     * if `after` is still our tip. Undefined once stopped.
     */
    async function readRoundAfter(after: BlockRef): Promise<RoundRead | undefined> {
      while (!stopped && !closed) {
        const found = await nextHeadAfter(after)
        if (!found) return undefined
        const { head, next } = found
        if (head.ref.number <= after.number) return { after, head }
        const from = after.number + 1n
        const to = head.ref.number - from + 1n > BigInt(maxRangeBlocks) ? from + BigInt(maxRangeBlocks) - 1n : head.ref.number
        return { after, head, range: { from, to, fetched: await fetchRange(from, to, head, after.hash, next) } }
      }
      return undefined
    }

    /**
     * The first head read after `after` that is not `after` itself. Polling (no socket delivering), with overlapPolls: a
     * head read (with the next number's logs) starts every `pollingIntervalMs` without waiting for the previous answer,
     * at most MAX_POLLS_IN_FLIGHT at once, so a new block waits at most the interval for a read to start instead of the
     * interval plus a round trip (issue 23 item 3: at 50 ms a request and a 30 ms interval, 0-80 ms → 0-30 ms). Budget:
     * a read every interval instead of every interval + round trip (at 50 ms / 30 ms: ~33 head reads and as many
     * eth_getLogs a second instead of ~12 + 12); on the socket, or without overlapPolls, one read after each wait.
     * The answers are checked as before (follow / fetchRange); a read that fails fails the round, as before.
     */
    async function nextHeadAfter(after: BlockRef): Promise<{ head: Header; next?: NextLogs } | undefined> {
      if (!overlapPolls) {
        while (!stopped && !closed) {
          await pause()
          if (stopped || closed) return undefined
          const read = await readHeadWithNext(after)
          if (read.head.ref.hash !== after.hash) return read
        }
        return undefined
      }
      const inFlight = new Set<Promise<void>>()
      let settle: (outcome: { read: { head: Header; next?: NextLogs } } | { error: unknown }) => void = () => undefined
      const found = new Promise<{ read: { head: Header; next?: NextLogs } } | { error: unknown }>((resolve) => (settle = resolve))
      let done = false
      // Polling, and the last head read answered an interval ago or more (the block `after` reached the consumer late:
      // it was slow on the block before, and this round starts only now): the first read at once, not an interval
      // later, when the next block may be mined and the one after it too (the first read would then find the head two
      // blocks up, and the launch block would come with a range read, a round later: docs/execution.md §5). In the
      // steady state the head read that found `after` answered just now, and the first read waits the interval as before.
      let pollNow = !socketHealthy && lastHeadAnsweredAt !== undefined && performance.now() - lastHeadAnsweredAt >= pollingIntervalMs
      while (!stopped && !closed) {
        // On the socket the wait is for its notification: one read after each, as without overlapPolls (the polls
        // still in flight from before the socket came up are answered first).
        if (socketHealthy && inFlight.size > 0) {
          const outcome = await Promise.race([found, Promise.allSettled([...inFlight]).then(() => undefined)])
          if (!outcome) continue
          if ('error' in outcome) throw outcome.error
          return outcome.read
        }
        const outcome = pollNow ? undefined : await Promise.race([found, pause().then(() => undefined)])
        pollNow = false
        if (outcome) {
          if ('error' in outcome) throw outcome.error
          return outcome.read
        }
        if (stopped || closed) return undefined
        if (inFlight.size >= MAX_POLLS_IN_FLIGHT) continue
        const poll: Promise<void> = readHeadWithNext(after).then(
          (read) => {
            inFlight.delete(poll)
            if (done || read.head.ref.hash === after.hash) return
            done = true
            settle({ read })
          },
          (error: unknown) => {
            inFlight.delete(poll)
            if (done) return
            done = true
            settle({ error })
          },
        )
        inFlight.add(poll)
      }
      return undefined
    }

    /**
     * Brings our tip to `headHeader`: a revert first where the chain disagrees, then its blocks in ranges. `prefetched`:
     * the first range above our tip, already read (and linked to our tip) by readRoundAfter. `next`: the logs read by
     * number with the head (readHeadWithNext), used only for a lone block they match (nextLogsOf).
     */
    async function* follow(headHeader: Header, prefetched?: RoundRead['range'], next?: NextLogs): AsyncGenerator<SyncEvent, boolean, undefined> {
      const head = headHeader.ref
      if (head.hash === tip().hash) return false
      const current = tip()
      if (head.number < current.number) {
        if (!(await contradicted(head))) {
          if (behind === undefined)
            logger.warn({ head: head.number.toString(), tip: current.number.toString() }, 'realtime sync: the node is behind our last processed block; waiting')
          behind = head.number
          return false
        }
        yield* revertTo(await findAncestor())
      } else if (head.number === current.number) {
        // Same height, another hash: a reorg.
        yield* revertTo(await findAncestor())
      }
      // Above our tip, our tip is not read again: whether it is still canonical shows in the first block read above it
      // (its parent hash), and a block that does not link is followed down to the common ancestor there.
      behind = undefined
      // Catching up in ranges: the headers of up to `maxRangeBlocks` blocks at once, their logs in one eth_getLogs,
      // both in one round trip; the head itself is not read again. A head that is our tip's child (the steady state)
      // costs no request more than the head when its logs came with it (logsWithHead), else its logs by hash.
      while (tip().number < head.number && !stopped) {
        const from = tip().number + 1n
        const to = head.number - from + 1n > BigInt(maxRangeBlocks) ? from + BigInt(maxRangeBlocks) - 1n : head.number
        const fetched = prefetched?.from === from && prefetched.to === to ? prefetched.fetched : await fetchRange(from, to, headHeader, tip().hash, next)
        prefetched = undefined
        // A node that announces a head it cannot serve below it (an inconsistent load balancer): ask again next round.
        if (fetched === 'missing') return false
        if (fetched === 'moved') {
          // A block that does not link to our tip: a reorg at or below it, or the chain moved under us mid-read.
          const ancestor = await findAncestor()
          if (ancestor.hash === tip().hash) return true
          yield* revertTo(ancestor)
          return true
        }
        for (const { block, logs } of fetched) {
          state.unfinalized.push(block)
          // Finality moves before the block is delivered, so the block's checkpoint is already the one to persist.
          let finalized: BlockRef | undefined
          while (state.unfinalized.length > 1 && block.number - state.unfinalized[0]!.number >= BigInt(confirmations)) {
            const superseded = state.finalized
            finalized = state.unfinalized.shift()!
            state.finalized = finalized
            state.history = rememberFinalized(state.history, superseded, finalized.number)
          }
          blocksSinceStart++
          // The last block of the round: the next round is read while the consumer processes it (readRoundAfter).
          if (readAhead && block.number === head.number && !stopped) {
            ahead = readRoundAfter(block)
            ahead.catch(() => undefined)
          }
          yield { type: 'block', block, logs, head: head.number, ...(block.number < head.number ? { headBlock: head } : {}), checkpoint: snapshot() }
          if (finalized) yield { type: 'finalize', block: finalized, checkpoint: snapshot() }
          if (stopped) return false
        }
      }
      return false
    }

    subscribe()
    try {
      while (!stopped) {
        try {
          const pending = ahead
          ahead = undefined
          const read = pending && (await pending)
          if (stopped) break
          // A round read ahead is applied only on the tip it was read after (the same checks as a round read now).
          if (read && read.after.hash === tip().hash) {
            if (yield* follow(read.head, read.range)) continue
          } else if (yield* reconcile()) continue
        } catch (error) {
          if (error instanceof PrebuyError) throw error
          logger.warn({ err: error }, 'realtime sync: RPC failed, retrying')
        }
        if (stopped) break
        // A round under way ahead waits for the next head itself.
        if (ahead) continue
        await pause()
      }
    } finally {
      // An abandoned stream (the consumer stopped pulling for good) ends its read ahead.
      closed = true
      notify()
    }
  }

  let started = false
  return {
    events() {
      if (started) throw new PrebuyError('sync_already_started', 'a realtime sync has one event stream')
      started = true
      return stream()
    },
    async stop() {
      stopped = true
      unwatch?.()
      notify()
    },
  }
}
