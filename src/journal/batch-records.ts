import type { Address, Hash } from 'viem'
import type { ChainKey } from '../chain/chain-keys.ts'
import type { BatchExclusionReason } from '../domain/batch/clear-batch.ts'

/**
 * Where a batch is:
 * - `journaled`: recorded with its orders `executing`, before the transaction is sent (a crash here: the chain decides);
 * - `sent`: the transaction is out (its hash recorded);
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

/** An eligible order the clearing left out of this batch, and why (it stays active for the next block's batch). */
export interface BatchExclusionRecord {
  keyId: string
  slug: string
  wallet: Address
  spendAtoms: string
  rank: number
  reason: BatchExclusionReason
}

/** What the chain recorded: BatchExecuted and the buyers it skipped (their pull failed: they withdrew). */
export interface BatchExecutionRecord {
  txHash: Hash
  blockNumber: string
  totalIn: string
  tokensOut: string
  /** Indexes into `included` of the BuyerSkipped events. */
  skipped: number[]
  /** keccak256 of the paid words (0x0…0 when nothing is to be swept). */
  allocationHash: Hash
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
  batchBuyer: Address
  token: Address
  /** Committed with the batch and checked on chain (stablecoin atoms of FDV); null: no included order has a limit. */
  lowestLimitFdv: string | null
  predictedTokensOut: string
  included: BatchEntryRecord[]
  excluded: BatchExclusionRecord[]
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
}
