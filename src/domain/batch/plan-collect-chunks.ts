import { maxBuyersPerBatch } from './clear-batch.ts'

/**
 * What planning a split batch needs (PrebuyBatchBuyer's collect / settle, docs/execution.md §8 "More buyers than one
 * transaction: collect, then settle"): the included buyers in priority order (a count: chunk j takes a contiguous range
 * of them), the measured gas of one collect (fixed per transaction + per buyer) and of the settle, the per-transaction
 * cap (EIP-7825's 2^24 on Base, src/chain/tx-gas-cap.ts), how many operator accounts may send, and optionally the block
 * gas limit (how much of one block the batch may take).
 */
export interface CollectPlanInput {
  buyers: number
  perBuyerGas: bigint
  collectFixedGas: bigint
  settleGas: bigint
  txGasCap: bigint
  operators: number
  blockGasLimit?: bigint
  /** The share of the cap planned for (default 0.9, as maxBuyersPerBatch): headroom for the real USDC and hooks. */
  margin?: number
  /** At most this many buyers per collect even when the gas allows more (the executor's maxBuyersPerTransaction). */
  maxBuyersPerChunk?: number
}

/** One transaction of the plan: which operator sends it, at which of its nonces (0 = its next), with what gas limit. */
export interface PlannedTx {
  operator: number
  nonceOffset: number
  gasLimit: bigint
}

/** One collect transaction: chunk id `chunk` pulls buyers [from, to) of the priority order. */
export interface PlannedCollect extends PlannedTx {
  chunk: number
  from: number
  to: number
}

export interface CollectPlan {
  collects: PlannedCollect[]
  /** Sent last: from the operator with the fewest collects, after them in its nonces and below every collect's priority fee. */
  settle: PlannedTx
  maxBuyersPerChunk: number
  /** Sum of the gas limits: what the block must hold for everything to land in one block. */
  totalGasLimit: bigint
  /** Blocks the plan takes if each block holds at most `blockGasLimit` (collects in order, settle in the last): 1 without a block limit. */
  blocks: number
}

/**
 * Plans the chunks of one split batch, pure. As few collects as the cap allows (ceil(buyers / max per chunk)), their
 * sizes as even as possible (no transaction sits at the cap when it need not), chunk ids 0..k-1 over contiguous ranges
 * of the priority order (so if the block cannot take them all, what waits is the lowest-ranked), spread round-robin over
 * the operators (each operator's collects are consecutive nonces from its next one, and no operator sends more than one
 * collect more than another: they go out in parallel, none waits on a single nonce lock), and one settle from the
 * operator with the fewest collects, after its collects. Every collect goes out with a higher priority fee than the
 * settle: Base orders a block by priority fee (docs.base.org/base-chain/network-information/transaction-ordering), so
 * the settle lands after the collects of its block; one landing after the settle takes nothing (the contract refuses a
 * collect once settled) and its buyers wait for the next batch.
 */
export function planCollectChunks(input: CollectPlanInput): CollectPlan {
  const { buyers, perBuyerGas, collectFixedGas, settleGas, txGasCap, operators } = input
  const margin = input.margin ?? 0.9
  if (!Number.isSafeInteger(buyers) || buyers < 1) throw new RangeError('a split batch needs at least one buyer')
  if (!Number.isSafeInteger(operators) || operators < 1) throw new RangeError('a split batch needs at least one operator account')
  if (collectFixedGas < 0n || settleGas <= 0n) throw new RangeError('gas figures must be positive')
  const usable = BigInt(Math.floor(Number(txGasCap) * margin))
  if (settleGas > usable) throw new RangeError(`the settle (${settleGas} gas) does not fit the cap's usable ${usable}`)
  const byGas = maxBuyersPerBatch({ txGasCap, fixedGas: collectFixedGas, perBuyerGas, margin })
  const maxBuyersPerChunk = input.maxBuyersPerChunk === undefined ? byGas : Math.min(byGas, input.maxBuyersPerChunk)
  if (maxBuyersPerChunk < 1) throw new RangeError('not one buyer fits a collect under the cap')
  const chunkCount = Math.ceil(buyers / maxBuyersPerChunk)
  const base = Math.floor(buyers / chunkCount)
  const larger = buyers % chunkCount
  const sent = new Array<number>(operators).fill(0)
  const limitOf = (gas: bigint): bigint => {
    // The gas limit sent: the estimate with the margin's headroom, never above the cap.
    const withHeadroom = BigInt(Math.ceil(Number(gas) / margin))
    return withHeadroom > txGasCap ? txGasCap : withHeadroom
  }
  const collects: PlannedCollect[] = []
  let from = 0
  for (let chunk = 0; chunk < chunkCount; chunk++) {
    const size = base + (chunk < larger ? 1 : 0)
    const operator = chunk % operators
    collects.push({ chunk, from, to: from + size, operator, nonceOffset: sent[operator]!, gasLimit: limitOf(collectFixedGas + perBuyerGas * BigInt(size)) })
    sent[operator]! += 1
    from += size
  }
  // Round-robin leaves the last operators with the fewest collects; the last of them settles.
  let settler = operators - 1
  for (let o = operators - 1; o >= 0; o--) if (sent[o]! < sent[settler]!) settler = o
  const settle: PlannedTx = { operator: settler, nonceOffset: sent[settler]!, gasLimit: limitOf(settleGas) }
  const totalGasLimit = collects.reduce((sum, c) => sum + c.gasLimit, settle.gasLimit)
  return { collects, settle, maxBuyersPerChunk, totalGasLimit, blocks: blocksFor(collects, settle, input.blockGasLimit) }
}

/** Collects packed in order into blocks of `blockGasLimit`, the settle in the last one (a block of its own if it does not fit). */
function blocksFor(collects: readonly PlannedCollect[], settle: PlannedTx, blockGasLimit: bigint | undefined): number {
  if (blockGasLimit === undefined) return 1
  if (blockGasLimit < settle.gasLimit || collects.some((c) => c.gasLimit > blockGasLimit))
    throw new RangeError('a transaction of the plan exceeds the block gas limit')
  let blocks = 1
  let used = 0n
  for (const c of collects) {
    if (used + c.gasLimit > blockGasLimit) {
      blocks++
      used = 0n
    }
    used += c.gasLimit
  }
  return used + settle.gasLimit > blockGasLimit ? blocks + 1 : blocks
}
