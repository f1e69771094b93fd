import type { ChainKey } from '../chain/chain-keys.ts'
import { padNumber } from '../store/cursor.ts'
import type { Store, StoreOperation, Sublevel } from '../store/open-store.ts'
import { put } from '../store/open-store.ts'
import { readAll } from '../store/paginate.ts'
import type { BatchRecord, BatchState } from './batch-records.ts'

const BLOCK_WIDTH = 20
const SEQUENCE_WIDTH = 10

/** States in which a batch still needs the executor: its fate unknown, or its tokens not all swept. */
const OPEN: ReadonlySet<BatchState> = new Set(['journaled', 'sent', 'executed'])

export interface BatchJournal {
  /** The one write of a batch record (inside the caller's batch, with the orders it moves). */
  put(record: BatchRecord): StoreOperation
  get(chain: ChainKey, slug: string, launchBlock: string, sequence: number): Promise<BatchRecord | undefined>
  /**
   * The next batch's sequence in this launch: one past the highest journaled (a sequence planned but never journaled
   * may be skipped; a journaled one, maybe sent, is never reused: its id may have executed).
   */
  nextSequence(chain: ChainKey, slug: string, launchBlock: string): Promise<number>
  /** Batches whose fate is unknown or whose tokens are not all swept, on a chain (or all chains). */
  open(chain?: ChainKey): Promise<BatchRecord[]>
  /** Batches journaled `swept` on a chain (whether the chain still holds their sweep: unswept-batches.ts). */
  swept(chain: ChainKey): Promise<BatchRecord[]>
  /**
   * Batches journaled `released` on a chain (or all chains) that carry a last block: at start, the released batches
   * whose transaction could still land (their last block not final) are found here (superseded-batches.ts).
   */
  released(chain?: ChainKey): Promise<BatchRecord[]>
  /** Every batch of one launch, in sequence order (`executions replay`). */
  ofLaunch(chain: ChainKey, slug: string, launchBlock: string): Promise<BatchRecord[]>
  /** The sublevel the records are written to (the console feed recognises their writes by it). */
  readonly sub: Sublevel<BatchRecord>
}

export function createBatchJournal(store: Store): BatchJournal {
  const sub = store.sublevel<BatchRecord>('journal.batches')
  const launchPrefix = (chain: ChainKey, slug: string, launchBlock: string) => `${chain}!${slug}!${padNumber(BigInt(launchBlock), BLOCK_WIDTH)}!`
  const keyOf = (chain: ChainKey, slug: string, launchBlock: string, sequence: number) =>
    `${launchPrefix(chain, slug, launchBlock)}${padNumber(BigInt(sequence), SEQUENCE_WIDTH)}`
  return {
    put: (record) => put(sub, keyOf(record.chain, record.slug, record.launchBlock, record.sequence), record),
    async get(chain, slug, launchBlock, sequence) {
      return ((await sub.get(keyOf(chain, slug, launchBlock, sequence))) as BatchRecord | undefined) ?? undefined
    },
    async nextSequence(chain, slug, launchBlock) {
      const prefix = launchPrefix(chain, slug, launchBlock)
      for await (const value of sub.values({ gte: prefix, lt: `${prefix}\xff`, reverse: true, limit: 1 })) return (value as BatchRecord).sequence + 1
      return 0
    },
    sub,
    async ofLaunch(chain, slug, launchBlock) {
      return (await readAll(sub, launchPrefix(chain, slug, launchBlock))).map((e) => e.value)
    },
    async swept(chain) {
      return (await readAll(sub, `${chain}!`)).map((e) => e.value).filter((r) => r.state === 'swept')
    },
    async released(chain) {
      return (await readAll(sub, chain ? `${chain}!` : '')).map((e) => e.value).filter((r) => r.state === 'released' && r.validUntilBlock !== undefined)
    },
    async open(chain) {
      return (await readAll(sub, chain ? `${chain}!` : '')).map((e) => e.value).filter((r) => OPEN.has(r.state))
    },
  }
}
