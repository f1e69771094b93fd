import { maxBuyersPerBatch } from './clear-batch.ts'

/**
 * Gas figures of PrebuyBatchBuyer planned with (docs/execution.md §8, "Gas per buyer, measured", devnet run of
 * test/executor/batch-buyer.test.ts): ~425k fixed and 13,915 per buyer with the committed allocation. Planned above
 * that: a launch pool whose hook does more work raises the fixed part, and the real USDC's transferFrom (FiatToken
 * behind a proxy, with its blocklist check) costs a few thousand more per buyer than the devnet's plain ERC-20.
 */
export const BATCH_FIXED_GAS = 1_500_000n
export const BATCH_PER_BUYER_GAS = 20_000n

/** Sweep: 28,269 per buyer measured (a token transfer to a first-time holder), plus the whole paid list as calldata. */
export const SWEEP_FIXED_GAS = 200_000n
export const SWEEP_PER_BUYER_GAS = 35_000n
export const SWEEP_PER_WORD_GAS = 1_000n
/** Most buyers one sweep credits (docs/execution.md §8: chunks of ≤ ~500). */
export const MAX_SWEEP_CHUNK = 500

/** Most buyers in one batch under the chain's per-transaction gas cap (EIP-7825: 2^24 on Base), with a 0.9 margin. */
export const batchMaxBuyers = (txGasCap: bigint): number => maxBuyersPerBatch({ txGasCap, fixedGas: BATCH_FIXED_GAS, perBuyerGas: BATCH_PER_BUYER_GAS })

/** The gas limit of an executeBatch of `buyers` entries: the planning figures, never above the cap. */
export function batchGasLimit(buyers: number, txGasCap: bigint): bigint {
  const gas = BATCH_FIXED_GAS + BigInt(buyers) * BATCH_PER_BUYER_GAS
  return gas < txGasCap ? gas : txGasCap
}

/** How many buyers the next sweep of a batch of `total` entries credits, and its gas limit, under the cap. */
export function sweepChunk(total: number, txGasCap: bigint): { buyers: number; gas: (buyers: number) => bigint } {
  const gas = (buyers: number) => SWEEP_FIXED_GAS + BigInt(total) * SWEEP_PER_WORD_GAS + BigInt(buyers) * SWEEP_PER_BUYER_GAS
  const usable = (txGasCap * 9n) / 10n - SWEEP_FIXED_GAS - BigInt(total) * SWEEP_PER_WORD_GAS
  const fit = usable <= 0n ? 1 : Number(usable / SWEEP_PER_BUYER_GAS)
  return { buyers: Math.max(1, Math.min(MAX_SWEEP_CHUNK, fit)), gas: (buyers) => (gas(buyers) < txGasCap ? gas(buyers) : txGasCap) }
}
