import { BATCH_PER_BUYER_GAS, batchMaxBuyers } from './batch-gas.ts'

/**
 * Gas figures of the split batch planned with (docs/execution.md §8, "More buyers than one transaction", measured in
 * test/executor/batch-collect.test.ts): a collect costs 14,838 per buyer and 91,304 fixed (+54,094 for the batch's
 * first, which opens the Collection). Planned above that like executeBatch (batch-gas.ts): 20k per buyer for the real
 * USDC's heavier transferFrom, 300k fixed.
 */
export const COLLECT_FIXED_GAS = 300_000n
export const COLLECT_PER_BUYER_GAS = BATCH_PER_BUYER_GAS
/**
 * The settle's gas budget: 325k-428k measured (its swap crosses more of the pool as the batch grows, not more buyers);
 * the bench's first run ran a 5,000-buyer settle out of gas at 0.9 of a small batch's figure, so it gets room.
 */
export const SETTLE_GAS = 2_000_000n
/** cancel(batchId): two storage writes and an event (~35k), with room. */
export const CANCEL_GAS = 100_000n
/**
 * Most collects one split batch is planned with: 8 collects under 2^24 each are ~130M gas, within a 150M Base block
 * (docs.base.org/base-chain/network-information/throughput-and-limits); beyond that the clearing leaves the lowest
 * ranked out for `gas_budget` and they buy in the next block's batch.
 */
export const MAX_COLLECTS_PER_BATCH = 8

/**
 * The most buyers one batch transaction (an executeBatch, or one collect) holds: computed from the cap, or lower when
 * the executor is given `maxBuyersPerTransaction` (tests split a small batch with it).
 */
export function buyersPerTransaction(txGasCap: bigint, override?: number): number {
  const byGas = batchMaxBuyers(txGasCap)
  if (override === undefined) return byGas
  if (!Number.isSafeInteger(override) || override < 1) throw new RangeError('maxBuyersPerTransaction must be a positive integer')
  return Math.min(byGas, override)
}
