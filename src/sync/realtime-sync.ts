import type { Address, Log, PublicClient } from 'viem'
import type { Logger } from 'pino'
import { PrebuyError } from '../common/errors.ts'
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
  /** Polling interval: the fallback when the socket is down, and a safety net when it is up. */
  pollingIntervalMs: number
  /** Resume point persisted by the consumer; without it, the sync starts at `startBlock`. */
  resume?: SyncCheckpoint | undefined
  /** First block to process when there is no checkpoint (default: the current head). */
  startBlock?: bigint | undefined
  logger: Logger
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

  // A head announced while a round was running must not wait for the next poll: remember it.
  let headPending = false
  const sleepUntilWoken = (ms: number) =>
    new Promise<void>((resolve) => {
      if (headPending) {
        headPending = false
        return resolve()
      }
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        wake = undefined
        headPending = false
        resolve()
      }
      wake = done
    })

  const notify = () => {
    if (wake) wake()
    else headPending = true
  }

  function subscribe() {
    if (!wsClient) return
    try {
      unwatch = wsClient.watchBlockNumber({
        emitOnBegin: false,
        onBlockNumber: () => {
          socketHealthy = true
          notify()
        },
        onError: (error) => {
          // The polling timer keeps the stream going; the socket is only an accelerator.
          if (socketHealthy) logger.warn({ err: error }, 'realtime sync: websocket failed, falling back to polling')
          socketHealthy = false
        },
      })
    } catch (error) {
      logger.warn({ err: error }, 'realtime sync: websocket subscription failed, polling only')
    }
  }

  async function fetchBlock(number: bigint): Promise<BlockRef | undefined> {
    try {
      return toBlockRef(await client.getBlock({ blockNumber: number }))
    } catch (error) {
      // A block above the (shorter) canonical head after a reorg does not exist.
      if (error instanceof Error && /not found|could not be found/i.test(error.message)) return undefined
      throw error
    }
  }

  async function fetchLogs(block: BlockRef): Promise<Log[]> {
    const logs = await client.getLogs({ blockHash: block.hash, ...(addresses ? { address: addresses } : {}) })
    return [...logs].sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0))
  }

  async function initialCheckpoint(): Promise<SyncCheckpoint> {
    if (options.resume) return { finalized: options.resume.finalized, unfinalized: [...options.resume.unfinalized] }
    const start = options.startBlock ?? (await client.getBlockNumber({ cacheTime: 0 }))
    // The block before the start counts as processed, so the start block itself is delivered.
    const before = await fetchBlock(start > 0n ? start - 1n : 0n)
    if (!before) throw new PrebuyError('sync_start_missing', `start block ${start} not found`)
    return { finalized: before, unfinalized: [] }
  }

  async function* stream(): AsyncGenerator<SyncEvent, void, undefined> {
    let state = await initialCheckpoint()
    const tip = () => state.unfinalized.at(-1) ?? state.finalized
    const snapshot = (): SyncCheckpoint => ({ finalized: state.finalized, unfinalized: [...state.unfinalized] })

    async function findAncestor(): Promise<BlockRef> {
      for (let i = state.unfinalized.length - 1; i >= 0; i--) {
        const local = state.unfinalized[i]!
        const remote = await fetchBlock(local.number)
        if (remote && remote.hash === local.hash) return local
      }
      const remote = await fetchBlock(state.finalized.number)
      if (remote && remote.hash === state.finalized.hash) return state.finalized
      throw new PrebuyError('reorg_too_deep', `reorg below the finalized block ${state.finalized.number}`, {
        details: { finalized: state.finalized.number.toString(), confirmations },
      })
    }

    async function* reconcile(): AsyncGenerator<SyncEvent, boolean, undefined> {
      const head = toBlockRef(await client.getBlock({ blockTag: 'latest' }))
      if (head.hash === tip().hash) return false
      const current = tip()
      const remoteAtTip = head.number === current.number ? head : head.number > current.number ? await fetchBlock(current.number) : undefined
      if (!remoteAtTip || remoteAtTip.hash !== current.hash) {
        const ancestor = await findAncestor()
        const reverted = state.unfinalized.filter((b) => b.number > ancestor.number)
        state = { finalized: state.finalized, unfinalized: state.unfinalized.filter((b) => b.number <= ancestor.number) }
        logger.info({ ancestor: ancestor.number.toString(), depth: reverted.length }, 'realtime sync: reorg')
        yield { type: 'reorg', ancestor, reverted, checkpoint: snapshot() }
      }
      for (let n = tip().number + 1n; n <= head.number && !stopped; n++) {
        const block = await fetchBlock(n)
        // The chain moved under us (a reorg mid-walk): the next round finds the new ancestor.
        if (!block || block.parentHash !== tip().hash) return true
        const logs = await fetchLogs(block)
        state.unfinalized.push(block)
        // Finality moves before the block is delivered, so the block's checkpoint is already the one to persist.
        let finalized: BlockRef | undefined
        while (state.unfinalized.length > 1 && block.number - state.unfinalized[0]!.number >= BigInt(confirmations)) {
          finalized = state.unfinalized.shift()!
        }
        if (finalized) state.finalized = finalized
        yield { type: 'block', block, logs, checkpoint: snapshot() }
        if (finalized) yield { type: 'finalize', block: finalized, checkpoint: snapshot() }
      }
      return false
    }

    subscribe()
    while (!stopped) {
      try {
        if (yield* reconcile()) continue
      } catch (error) {
        if (error instanceof PrebuyError) throw error
        logger.warn({ err: error }, 'realtime sync: RPC failed, retrying')
      }
      if (stopped) break
      await sleepUntilWoken(pollingIntervalMs)
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
