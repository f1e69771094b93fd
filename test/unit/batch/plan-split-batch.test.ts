import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { planSplitBatch, replanSplitBatch } from '../../../daemon/executor/plan-split-batch.ts'
import { EIP_7825_TX_GAS_CAP } from '../../../src/chain/tx-gas-cap.ts'
import { planCollectChunks } from '../../../src/domain/batch/plan-collect-chunks.ts'
import { buyersPerTransaction, MAX_COLLECTS_PER_BATCH } from '../../../src/domain/batch/split-batch-gas.ts'

const operators = [1, 2, 3].map((n) => privateKeyToAccount(`0x${n.toString(16).padStart(64, '0')}`).address)

describe('the split batch plan the executor journals', () => {
  it('5,000 buyers under 2^24 by default: 8 collects of 625 over three accounts, the settle from the one with the fewest, every limit under the cap', () => {
    const perTx = buyersPerTransaction(EIP_7825_TX_GAS_CAP)
    expect(perTx).toBe(679)
    expect(perTx * MAX_COLLECTS_PER_BATCH).toBeGreaterThanOrEqual(5_000)
    const split = planSplitBatch({ buyers: 5_000, operators, txGasCap: EIP_7825_TX_GAS_CAP, maxBuyersPerChunk: perTx })
    expect(split.chunks.map((c) => c.to - c.from)).toEqual(new Array(8).fill(625))
    expect(split.chunks.map((c) => c.operator)).toEqual([0, 1, 2, 0, 1, 2, 0, 1].map((i) => operators[i]))
    expect(split.settle.operator).toBe(operators[2])
    for (const g of [...split.chunks.map((c) => c.gasLimit), split.settle.gasLimit]) expect(BigInt(g) <= EIP_7825_TX_GAS_CAP).toBe(true)
    expect(split.chunks[0]!.from).toBe(0)
    expect(split.chunks.at(-1)!.to).toBe(5_000)
  })

  it('a per-transaction limit below the gas one (maxBuyersPerTransaction) makes small batches split; replanned over fewer buyers after a drop', () => {
    const split = planSplitBatch({ buyers: 10, operators, txGasCap: EIP_7825_TX_GAS_CAP, maxBuyersPerChunk: buyersPerTransaction(EIP_7825_TX_GAS_CAP, 4) })
    expect(split.chunks.map((c) => [c.from, c.to])).toEqual([
      [0, 4],
      [4, 7],
      [7, 10],
    ])
    expect(replanSplitBatch(split, 7).chunks.map((c) => [c.from, c.to])).toEqual([
      [0, 4],
      [4, 7],
    ])
  })

  it('planCollectChunks honours maxBuyersPerChunk only downwards (the gas bound still holds), and the option refuses a non-positive limit', () => {
    const input = { buyers: 2_000, perBuyerGas: 20_000n, collectFixedGas: 300_000n, settleGas: 2_000_000n, txGasCap: EIP_7825_TX_GAS_CAP, operators: 2 }
    expect(planCollectChunks({ ...input, maxBuyersPerChunk: 100 }).maxBuyersPerChunk).toBe(100)
    expect(planCollectChunks({ ...input, maxBuyersPerChunk: 100_000 }).maxBuyersPerChunk).toBe(planCollectChunks(input).maxBuyersPerChunk)
    expect(() => buyersPerTransaction(EIP_7825_TX_GAS_CAP, 0)).toThrow(RangeError)
    expect(() => buyersPerTransaction(EIP_7825_TX_GAS_CAP, 2.5)).toThrow(RangeError)
  })
})
