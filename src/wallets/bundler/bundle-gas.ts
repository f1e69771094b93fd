import type { BundleItem } from './bundler.ts'
import type { HandleOpsEncoder } from './encode-handle-ops.ts'
import { calldataGas } from './gas-meter.ts'
import { packBundles } from './pack-bundles.ts'
import type { SimulatedBundle } from './simulate-bundle.ts'

/** Per-bundle cost outside the operations: intrinsic gas, calldata, handleOps' own loop. */
export const BUNDLE_OVERHEAD = 60_000n

export const minGas = (a: bigint, b: bigint): bigint => (a < b ? a : b)

/**
 * Measured execution gas plus an eighth. The simulation runs in the context of the block the bundle is meant for, but
 * a bundle can land a block later (a fee decayed further, other swaps first: a different price path, other ticks
 * crossed), and the EntryPoint refuses (AA95) to start an operation with less gas left than its limits: a bundle
 * sized on the last block's context ran out of gas at its last operation, by 10%.
 */
export const withMargin = (gas: bigint): bigint => gas + gas / 8n

/**
 * The transaction gas a bundle needs: calldata, measured execution with a margin, and headroom for the largest callGasLimit (the
 * EntryPoint refuses, AA95, to start an account call with less gas left than its limit, seen through two 63/64
 * forwards: handleOps -> innerHandleOp -> account).
 */
export const headroom = (items: readonly BundleItem[]): bigint =>
  (items.reduce((max, item) => (item.userOperation.callGasLimit > max ? item.userOperation.callGasLimit : max), 0n) * 17n) / 16n + 100_000n

export function bundleGas(handleOpsData: HandleOpsEncoder, items: readonly BundleItem[], gasUsed: bigint): bigint {
  const { intrinsic, floor } = calldataGas(handleOpsData(items))
  const needed = intrinsic + withMargin(gasUsed) + headroom(items)
  return needed > floor ? needed : floor
}

/** The gas one handleOps may ask for (`limit`) and the gas a bundle is packed to (`maxGas`). */
export interface TransactionGasBudget {
  /** Never above the chain's per-transaction cap (EIP-7825), nor the block gas limit: every transaction's gas limit. */
  limit: bigint
  /** What one handleOps is packed to: the cap, or the share of the block left for one transaction when that is less. */
  maxGas: bigint
}

/**
 * The per-transaction budget on a chain: EIP-7825 caps every transaction (2^24 on Base), whatever the block gas limit;
 * on a chain whose block is smaller than the cap, the share of the block one handleOps may use decides.
 */
export function transactionGasBudget(blockGasLimit: bigint, blockGasShare: number, txGasCap: bigint): TransactionGasBudget {
  const limit = minGas(txGasCap, blockGasLimit)
  return { limit, maxGas: minGas(limit, BigInt(Math.floor(Number(blockGasLimit) * blockGasShare))) }
}

/** One handleOps transaction to send: its operations and its gas limit. */
export interface BundlePlan {
  items: BundleItem[]
  gas: bigint
}

/**
 * The transactions a simulated bundle goes out in: one when it fits what one handleOps may use (`maxGas`: the
 * per-transaction cap, or the share of a smaller block), otherwise consecutive chunks in the given order, none asking
 * for more than `gasLimit` (transactionGasBudget's `limit`: never above the cap).
 */
export function planBundles(handleOpsData: HandleOpsEncoder, simulated: SimulatedBundle, gasLimit: bigint, maxGas: bigint): BundlePlan[] {
  const plans: BundlePlan[] = []
  if (simulated.items.length === 0) {
    // Everything was refused: nothing to send.
  } else if (bundleGas(handleOpsData, simulated.items, simulated.gasUsed) <= maxGas) {
    plans.push({ items: simulated.items, gas: bundleGas(handleOpsData, simulated.items, simulated.gasUsed) })
  } else {
    // Too big for one block: split in order by the measured average cost per operation (execution + calldata).
    const all = calldataGas(handleOpsData(simulated.items))
    const perOp = (simulated.gasUsed + all.intrinsic - 21_000n) / BigInt(simulated.items.length)
    for (const chunk of packBundles(simulated.items, () => withMargin(perOp), maxGas - headroom(simulated.items) - 21_000n, withMargin(BUNDLE_OVERHEAD))) {
      const gas = bundleGas(handleOpsData, chunk, (simulated.gasUsed / BigInt(simulated.items.length)) * BigInt(chunk.length) + BUNDLE_OVERHEAD)
      plans.push({ items: chunk, gas: minGas(gas, gasLimit) })
    }
  }
  return plans
}

/**
 * What one operation is expected to cost before a bundle is measured: about what a launch buy measured on the devnet
 * (~228k per buy with its share of calldata, docs/execution.md §5). Only a first guess: the submitter learns the
 * chain's figure from each simulation, and a wrong guess costs a split more, never a transaction over the cap.
 */
export const OPERATION_GAS_GUESS = 250_000n

/**
 * Consecutive groups of about equal size, each expected to fit one transaction of `maxGas` at `perOperation` gas
 * each: a bundle bigger than one transaction is simulated in those groups at once (in parallel), instead of whole,
 * which runs out of the gas one eth_call may ask for and is measured again in halves. A bundle where an account has
 * more than one operation stays whole (the halving still applies to it).
 */
export function simulationGroups<T extends BundleItem>(items: readonly T[], perOperation: bigint, maxGas: bigint): T[][] {
  const room = maxGas - headroom(items) - 21_000n - withMargin(BUNDLE_OVERHEAD)
  const needed = BigInt(items.length) * withMargin(perOperation)
  const groups = room <= 0n ? items.length : Math.min(items.length, Number((needed + room - 1n) / room))
  // An account with two operations keeps them in one simulation: the second's nonce is valid only after the first.
  const senders = new Set(items.map((item) => item.userOperation.sender?.toLowerCase()))
  if (groups <= 1 || senders.size < items.length) return [[...items]]
  const size = Math.ceil(items.length / groups)
  const out: T[][] = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}
