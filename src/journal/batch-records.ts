import type { Address, Hash } from 'viem'
import type { ChainKey } from '../chain/chain-keys.ts'
import type { BatchShare } from '../domain/batch/batch-allocation.ts'
import type { BatchExclusionReason } from '../domain/batch/clear-batch.ts'

/**
 * Where a batch is:
 * - `journaled`: recorded with its orders `executing`, before the transaction is sent (a crash here: the chain decides);
 * - `sent`: the transaction is out (its hash recorded); also an executed batch a reorg undid (`undone`), its orders held
 *   executing under it until the chain decides its fate again;
 * - `executed`: BatchExecuted is on chain and every order settled (filled, or active again when skipped); the tokens are
 *   held by the batch contract until swept;
 * - `swept`: every buyer credited (BatchSwept reached the end), or nothing to sweep;
 * - `released`: it took nothing (reverted, never sent, dropped): its orders are active again.
 */
export type BatchState = 'journaled' | 'sent' | 'executed' | 'swept' | 'released'

/** One order in a batch, in the entries' order (the clearing's priority order): what it pays and its predicted share. */
export interface BatchEntryRecord {
  keyId: string
  slug: string
  userIndex: number
  wallet: Address
  /** The order's router id (recorded with its fill, as for a single buy). */
  orderId: Hash
  spendAtoms: string
  /** Its place in the priority order of the tick's eligible orders (0 first). */
  rank: number
  /** What the clearing predicted (gross before the fee, fee, net): the chain's output decides the real share. */
  predicted: { gross: string; fee: string; net: string }
}

/** A predicted share as an entry's record holds it (decimal strings): the one writer of that form. */
export const predictedShareRecord = (share: BatchShare): BatchEntryRecord['predicted'] => ({
  gross: share.gross.toString(),
  fee: share.fee.toString(),
  net: share.net.toString(),
})

/** An eligible order the clearing left out of this batch, and why (it stays active for the next block's batch). */
export interface BatchExclusionRecord {
  keyId: string
  slug: string
  wallet: Address
  spendAtoms: string
  rank: number
  reason: BatchExclusionReason
}

/**
 * What the clearing was decided from, recorded when it was cleared so `executions replay --check` decides it again
 * exactly, offline (src/console/replay/replay-batch.ts): the candidates as the priority rule saw them and every answer of the
 * pool function (a quote is chain state at the tick, not recomputable later). Absent on batches journaled before it was.
 */
export interface BatchClearingRecord {
  /** The pool function: the real swap quoted at the next block, or the tick's effective cap as a straight line. */
  pool: 'quote' | 'formula'
  /** The prioritisation policy's name. */
  policy: string
  /** The gas budget as a buyer count. */
  maxBuyers: number
  /** The token's, atoms. */
  totalSupply: string
  /** The candidates in the clearing's input order: keyId, the order's max spend (atoms), its FDV limit (atoms; null: none), what it may spend now. */
  candidates: Array<[keyId: string, maxSpendAtoms: string, limitFdvAtoms: string | null, spendAtoms: string]>
  /** Each stablecoin amount the clearing priced, in the order asked, with the token atoms the pool function returned. */
  evaluations: Array<[stablecoinIn: string, tokensOut: string]>
}

/** What the chain recorded: BatchExecuted and the buyers it skipped (their pull failed: they withdrew). */
export interface BatchExecutionRecord {
  txHash: Hash
  blockNumber: string
  totalIn: string
  tokensOut: string
  /** Indexes into `included` of the BuyerSkipped events. */
  skipped: number[]
  /**
   * keccak256 of the paid words (0x0…0 when nothing is to be swept). A split batch's (BatchSettled) has none of its
   * own: the first collected chunk's paid hash, never 0x0…0 since its tokens wait for the chunks' sweeps.
   */
  allocationHash: Hash
  /**
   * A split batch's entries whose chunk was never collected (its collect came after the settle, or failed): indexes
   * into `included`, also in `skipped` (they paid nothing); their orders are active again for the next batch.
   */
  notCollected?: number[]
}

/** One collect of a split batch, journaled (id, range, operator) before anything is sent. */
export interface SplitChunkRecord {
  /** The chunk id sent to collect (0..k-1). */
  chunk: number
  /** The entries [from, to) of `included` it pulls. */
  from: number
  to: number
  /** The sender account that sends it (an operator of the batch buyer). */
  operator: Address
  gasLimit: string
  txHash?: Hash
  /** Once the batch settled: whether ChunkCollected is on chain, and the CollectSkipped indexes within the chunk. */
  collected?: boolean
  skipped?: number[]
}

/**
 * A batch of more buyers than one transaction holds (PrebuyBatchBuyer collect / settle, docs/execution.md §8): the
 * collects planned by planCollectChunks over the sender accounts, and the one settle after them.
 */
export interface SplitBatchRecord {
  /** The most entries one collect holds (the gas plan, or the executor's maxBuyersPerTransaction). */
  maxBuyersPerChunk: number
  /** The per-transaction gas cap planned under. */
  txGasCap: string
  /** The operator accounts the plan spread the collects over, in plan order. */
  operators: Address[]
  chunks: SplitChunkRecord[]
  settle: { operator: Address; gasLimit: string; txHash?: Hash }
  /** Given up before it settled: the cancel's transaction (refunds follow, then the batch is released). */
  cancelTxHash?: Hash
}

/**
 * One batch of one launch's block: journaled (with the executing orders, in one write) before its transaction is sent,
 * so a restart finds it and asks the chain (`batches(batchId)`, BatchExecuted) instead of buying again.
 */
export interface BatchRecord {
  batchId: Hash
  chain: ChainKey
  slug: string
  launchBlock: string
  sequence: number
  /** The tick the batch was cleared at (it lands in the next block); BatchExecuted is searched from here. */
  tickBlock: string
  /**
   * The last block its executeBatch (or collects) may pull in, sent with it: the contract refuses it later
   * (BatchExpired). Chosen when planned (tickBlock + the chain's landing window, src/domain/batch/batch-deadline.ts);
   * the batch is released, when nothing of it landed, only once this block is final. Absent in records journaled before
   * the contract took one (their transactions have no deadline: released by the sender's idle nonce alone).
   */
  validUntilBlock?: string
  batchBuyer: Address
  token: Address
  /**
   * The launch's batches released after their transaction was mined and reverted whose last block was not final when
   * this one was planned (their signed transaction could still land after a reorg): sent with this batch's executeBatch
   * (or every collect), which the contract refuses if any of them pulled and which marks them dead
   * (docs/execution.md §8, "A price-reverted batch, superseded"). Absent: none.
   */
  supersedes?: Hash[]
  /** Committed with the batch and checked on chain (stablecoin atoms of FDV); null: no included order has a limit. */
  lowestLimitFdv: string | null
  predictedTokensOut: string
  included: BatchEntryRecord[]
  excluded: BatchExclusionRecord[]
  /**
   * Cleared into the batch but not sent with it: the order changed under the executor between clearing and the write
   * (PATCHed, deleted, executing elsewhere; its verdict `in_flight`). `lowestLimitFdv` is the lowest of those left.
   */
  dropped?: BatchEntryRecord[]
  /** What the clearing was decided from (see BatchClearingRecord). */
  clearing?: BatchClearingRecord
  state: BatchState
  at: number
  txHash?: Hash
  /**
   * The sender account that signed the batch transaction (recorded with its hash): after a crash, whether the batch can
   * still land is asked of that account's pending transactions (a fee-bumped replacement has another hash, the same
   * account and nonce). Absent while journaled or in records written before the sender pool: every sender is asked.
   */
  from?: Address
  execution?: BatchExecutionRecord
  /** Buyers credited so far (the contract's sweep cursor, as last read). */
  swept: number
  /** Why a released batch took nothing. */
  releaseReason?: string
  /**
   * Set when a reorg undid the batch's execution (revalidate-fills.ts): the transaction and block that had executed it.
   * The record is `sent` again and its orders `executing` under it until the runner knows its fate (re-mined: settled
   * again with the new block; else released once its last block is final), docs/execution.md §8 "A reorg that undoes a
   * batch". Kept once settled or released, as history.
   */
  undone?: { txHash: Hash; blockNumber: string; at: number }
  /**
   * Set when a batch released after its transaction was mined and reverted turned out to have pulled after all (a reorg
   * took the revert's block and its signed transaction landed again, before any batch superseding it): its orders were
   * taken back under it (`active -> executing`) and the record is `sent` again until the runner settles it from the
   * chain (superseded-batches.ts, docs/execution.md §8 "A price-reverted batch, superseded"). Kept as history.
   */
  cameBack?: { at: number }
  /** A split batch (collects then one settle) instead of one executeBatch; `txHash` and `from` are the settle's. */
  split?: SplitBatchRecord
}
