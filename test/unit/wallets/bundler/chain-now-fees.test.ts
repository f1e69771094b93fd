import { describe, expect, it } from 'vitest'
import { createChainNowReader } from '../../../../src/wallets/bundler/chain-now.ts'
import type { PriorityFeePolicy } from '../../../../src/wallets/bundler/priority-fee-policy.ts'
import { fakeContext } from './bundle-fixtures.ts'

const policy = (tip: PriorityFeePolicy['tip']): PriorityFeePolicy => ({ tip, maxTipWeiPerTx: 10n ** 18n, launch: { multiplier: 2, blocks: 5 } })

function client(history: { reward: readonly (readonly bigint[])[]; gasUsedRatio: readonly number[] } | 'unsupported') {
  const asked: unknown[] = []
  return {
    asked,
    client: {
      estimateFeesPerGas: async () => ({ maxFeePerGas: 1_000n + 7n, maxPriorityFeePerGas: 7n }),
      getBlockNumber: async () => 100n,
      getTransactionCount: async () => 0,
      getFeeHistory: async (args: unknown) => {
        asked.push(args)
        if (history === 'unsupported') throw new Error('the method eth_feeHistory does not exist')
        return { ...history, baseFeePerGas: [], oldestBlock: 80n }
      },
    },
  }
}

describe('chain now: the priority-fee policy', () => {
  it('asks eth_feeHistory for the policy window and percentile, and offers that tip', async () => {
    const fake = client({ reward: [[50n], [0n], [30n], [10n]], gasUsedRatio: [0.5, 0, 0.5, 0.5] })
    const reader = createChainNowReader(fakeContext(fake.client as never), policy({ kind: 'percentile', percentile: 50, blocks: 4 }))
    expect((await reader.read()).fees).toEqual({ maxPriorityFeePerGas: 30n, maxFeePerGas: 1_030n })
    expect(fake.asked).toEqual([{ blockCount: 4, rewardPercentiles: [50], blockTag: 'latest' }])
  })

  it("falls back on the node's suggestion when the history is empty or unsupported", async () => {
    for (const history of [{ reward: [[0n]], gasUsedRatio: [0] }, 'unsupported'] as const) {
      const reader = createChainNowReader(fakeContext(client(history).client as never), policy({ kind: 'percentile', percentile: 50, blocks: 1 }))
      expect((await reader.read()).fees.maxPriorityFeePerGas).toBe(7n)
    }
  })

  it('uses a fixed tip without reading the history', async () => {
    const fake = client('unsupported')
    const reader = createChainNowReader(fakeContext(fake.client as never), policy({ kind: 'fixed', tipWei: 40n }))
    expect((await reader.read()).fees).toEqual({ maxPriorityFeePerGas: 40n, maxFeePerGas: 1_040n })
    expect(fake.asked).toEqual([])
  })

  it("offers the launch tip only to sends landing in the launch's first blocks", async () => {
    const reader = createChainNowReader(fakeContext(client('unsupported').client as never), policy({ kind: 'fixed', tipWei: 40n }))
    await reader.refresh()
    expect((await reader.recent({ launchBlock: 98n, landsIn: 101n })).fees.maxPriorityFeePerGas).toBe(80n)
    expect((await reader.recent({ launchBlock: 90n, landsIn: 101n })).fees.maxPriorityFeePerGas).toBe(40n)
    expect((await reader.recent()).fees.maxPriorityFeePerGas).toBe(40n)
  })
})
