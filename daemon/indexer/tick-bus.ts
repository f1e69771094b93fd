import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'

/** What the indexer tells the executor, in process: a price tick, a new block, a launch reverted, a reorg. */
export type IndexerSignal =
  | { type: 'tick'; tick: PriceTick; launch: LaunchRecord }
  | { type: 'launch_reverted'; launch: LaunchRecord }
  /** Blocks above `ancestor` on `chain` left the canonical chain (published after the indexer reverted its records). */
  | { type: 'reorg'; chain: ChainKey; ancestor: bigint }
  /**
   * A block arrived (published before it is processed): the executor reads its warm projects' balances at it while the
   * indexer decodes the block, so a launch tick of this block finds them ready.
   */
  | {
      type: 'block'
      chain: ChainKey
      blockNumber: bigint
      /**
       * The next block's timestamp as the block's ticks will state it (nextBlockAfter): what the executor's quotes
       * ahead of the ticks are asked with (tick-quotes.ts `quoteAhead`). Absent from publishers that do not know it.
       */
      nextBlockTimestamp?: number
    }
  /**
   * A launch log arrived and its record is being read (published with the record's round, before the receipt is
   * answered: issue 23 item 3). Only a read hint, never a fact: nothing is bought, reserved or written on it; the launch
   * is judged on its record as always, and a forged or unbound one is never ticked. The executor asks, in the record's
   * round, what the launch tick of `slugs` (the waiting projects the log's known facts do not exclude) will read: the
   * quotes at this block with this next timestamp and paired price (the block before's: used only when the tick states
   * the same), the batch's allowances and the sends' fee and nonce check.
   */
  | {
      type: 'launch_ahead'
      chain: ChainKey
      blockNumber: bigint
      /** As the launch tick will state it (nextBlockAfter the launch block). */
      nextBlockTimestamp: number
      /** The paired asset's price of the newest block priced before this one, as a tick states it (pairedUsdAtoms). */
      pairedUsdAtoms: string
      /** What the quote reads of the launch, from its logs (the adapter's provisional decoding). */
      launch: Pick<LaunchRecord, 'chain' | 'launchpad' | 'token' | 'poolKey' | 'poolId' | 'paired'>
      slugs: readonly string[]
    }
  /**
   * The block is processed: its launches are recorded and its ticks published (`launched`: the projects that launched
   * in it). Work ahead of launches that must not race one in this block (deploying wallets) starts here.
   */
  | { type: 'processed'; chain: ChainKey; blockNumber: bigint; launched: readonly string[] }

/**
 * What the executor asks of the indexer: a tick of these launches on the chain's next processed block. Sent once a
 * reorg's revalidation put their orders back to active (a quiet pool would otherwise tick only at its heartbeat, and a
 * tick the indexer owed on its own could reach the executor before the undo). docs/execution.md §6.
 */
export interface TickRequest {
  chain: ChainKey
  slugs: readonly string[]
}

export interface TickBus {
  publish(signal: IndexerSignal): void
  /** Returns the unsubscribe function. */
  subscribe(listener: (signal: IndexerSignal) => void): () => void
  /** The executor -> indexer direction (see TickRequest). */
  request(request: TickRequest): void
  /** Returns the unsubscribe function. */
  onRequest(listener: (request: TickRequest) => void): () => void
}

/** Synchronous fan-out: the indexer never waits for the executor, the executor queues what it receives. */
export function createTickBus(): TickBus {
  const listeners = new Set<(signal: IndexerSignal) => void>()
  const requesters = new Set<(request: TickRequest) => void>()
  return {
    publish(signal) {
      for (const listener of listeners) listener(signal)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    request(request) {
      for (const listener of requesters) listener(request)
    },
    onRequest(listener) {
      requesters.add(listener)
      return () => requesters.delete(listener)
    },
  }
}
