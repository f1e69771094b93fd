import type { Hash } from 'viem'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { type BatchDeadlineBlocks, pastLastBlock } from '../../src/domain/batch/batch-deadline.ts'
import type { BatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'

/**
 * A price-reverted batch, superseded (docs/execution.md §8). A batch whose transaction was mined and reverted
 * (ClearingAboveLimit) is released at once so its orders buy at the next block's price, under a new batch id; but a
 * reorg that takes the revert's block before the batch's last block could let the same signed transaction land again
 * and succeed. So every later batch of the launch names the released batches whose last block is not final yet
 * (`BatchRecord.supersedes`, sent with its executeBatch or collects): the contract runs it only if none of them pulled,
 * and marks them dead, so at most one of them ever pulls. This module keeps those released batches per launch, in
 * memory, rebuilt at start from the journal (a released record with its last block is the durable fact: the batch
 * journal's one write path writes it), and takes back the orders of one that turned out to have pulled after all.
 */
export interface SupersededBatches {
  /** At start: the released batches of every chain from the journal (those whose last block is final are dropped later). */
  load(): Promise<void>
  /** A batch about to be released (before its write, so no tick can plan its orders without naming it). */
  add(record: BatchRecord): void
  /** No longer released (taken back: it came back and is settled from the chain). */
  remove(batchId: Hash): void
  /**
   * The ids a batch of this launch planned at `tickBlock` must supersede: the released batches whose last block is not
   * final at that block (one that is can never land: the contract refuses it after its last block). Those final are
   * forgotten.
   */
  of(chain: ChainKey, slug: string, launchBlock: string, tickBlock: bigint): Hash[]
  /** The released batches of a chain whose last block may not be final at `head` (asked whether they came back). */
  watched(chain: ChainKey, head: bigint): BatchRecord[]
  /**
   * The keyIds of the orders included in this launch's released batches whose last block is not final at `tickBlock`:
   * while one of those could still land and pull, such an order is bought only by a batch (which names it and so kills
   * it), never by a single UserOperation, which names nothing (plan-batch.ts `split`).
   */
  heldOrders(chain: ChainKey, slug: string, launchBlock: string, tickBlock: bigint): ReadonlySet<string>
}

export function createSupersededBatches(deps: { batchJournal: BatchJournal; batchDeadline: (chain: ChainKey) => BatchDeadlineBlocks }): SupersededBatches {
  const byLaunch = new Map<string, Map<Hash, BatchRecord>>()
  const launchKey = (chain: ChainKey, slug: string, launchBlock: string) => `${chain}!${slug}!${launchBlock}`
  const live = (record: BatchRecord, head: bigint) =>
    record.validUntilBlock !== undefined && !pastLastBlock(head, BigInt(record.validUntilBlock), deps.batchDeadline(record.chain))
  const add = (record: BatchRecord) => {
    if (record.validUntilBlock === undefined) return
    const key = launchKey(record.chain, record.slug, record.launchBlock)
    const batches = byLaunch.get(key) ?? new Map<Hash, BatchRecord>()
    byLaunch.set(key, batches)
    batches.set(record.batchId, record)
  }
  return {
    async load() {
      for (const record of await deps.batchJournal.released()) add(record)
    },
    add,
    remove(batchId) {
      for (const batches of byLaunch.values()) batches.delete(batchId)
    },
    of(chain, slug, launchBlock, tickBlock) {
      const batches = byLaunch.get(launchKey(chain, slug, launchBlock))
      if (!batches) return []
      const ids: Hash[] = []
      for (const [id, record] of batches) {
        if (live(record, tickBlock)) ids.push(id)
        else batches.delete(id)
      }
      return ids
    },
    heldOrders(chain, slug, launchBlock, tickBlock) {
      const batches = byLaunch.get(launchKey(chain, slug, launchBlock))
      const keyIds = new Set<string>()
      if (!batches) return keyIds
      for (const record of batches.values()) if (live(record, tickBlock)) for (const entry of record.included) keyIds.add(entry.keyId)
      return keyIds
    },
    watched(chain, head) {
      const out: BatchRecord[] = []
      for (const batches of byLaunch.values())
        for (const [id, record] of batches) {
          if (record.chain !== chain) continue
          if (live(record, head)) out.push(record)
          else batches.delete(id)
        }
      return out
    },
  }
}

/**
 * Planned gas per batch named in `supersedes`, above the measured ~26-27k (a cold read of its `batches` and
 * `collections` slots, a zero-to-non-zero write of its flag, its calldata word: docs/execution.md §8, "A price-reverted
 * batch, superseded").
 */
export const SUPERSEDE_GAS = 40_000n

/** A batch transaction's gas limit with its named batches' share added, never above the per-transaction cap. */
export function withSupersedeGas(gas: bigint, supersedes: readonly Hash[] | undefined, txGasCap: bigint): bigint {
  const total = gas + BigInt(supersedes?.length ?? 0) * SUPERSEDE_GAS
  return total < txGasCap ? total : txGasCap
}
