import { describe, expect, it } from 'vitest'
import { BUNDLE_OVERHEAD, bundleGas, headroom, planBundles, withMargin } from '../../../../src/wallets/bundler/bundle-gas.ts'
import { idEncoder, item } from './bundle-fixtures.ts'

describe('bundle gas', () => {
  it('gives headroom for the largest callGasLimit through two 63/64 forwards, plus a margin', () => {
    expect(headroom([item(0, 80_000n), item(1, 160_000n)])).toBe(160_000n + 10_000n + 100_000n)
    expect(headroom([])).toBe(100_000n)
  })

  it('is calldata + measured execution and an eighth + headroom, or the EIP-7623 calldata floor when that is higher', () => {
    // 2 items of 10 non-zero bytes: intrinsic 21,000 + 16 * 20; floor 21,000 + 40 * 20.
    expect(bundleGas(idEncoder(10), [item(0, 80_000n), item(1, 160_000n)], 50_000n)).toBe(21_320n + 50_000n + 6_250n + 270_000n)
    expect(withMargin(800_000n)).toBe(900_000n)
    // 100,000 non-zero bytes: the floor (21,000 + 4,000,000) beats 21,000 + 1,600,000 + 100,000.
    expect(bundleGas(idEncoder(100_000), [item(0, 0n)], 0n)).toBe(4_021_000n)
  })
})

describe('bundle plans', () => {
  const encode = idEncoder(10)
  const items = Array.from({ length: 6 }, (_, n) => item(n))

  it('sends nothing when every operation was refused', () => {
    expect(planBundles(encode, { items: [], gasUsed: 0n }, 30_000_000n, 27_000_000n)).toEqual([])
  })

  it('keeps a bundle that fits the block share whole, with its measured gas', () => {
    const plans = planBundles(encode, { items, gasUsed: 600_000n }, 30_000_000n, 27_000_000n)
    expect(plans).toHaveLength(1)
    // The same array: its encoding is cached for the send.
    expect(plans[0]?.items).toBe(items)
    expect(plans[0]?.gas).toBe(bundleGas(encode, items, 600_000n))
  })

  it('splits a bundle too big for the share in order, by the average cost per operation, each within the block limit', () => {
    // Whole: 21,960 + 675,000 + 206,250 = 903,210 gas, over the share. Per operation (600,000 + 960) / 6 = 100,160,
    // 112,680 with the margin; room for chunks: 527,250 - 206,250 - 21,000 = 300,000, so 67,500 overhead + 2 per chunk.
    const plans = planBundles(encode, { items, gasUsed: 600_000n }, 30_000_000n, 527_250n)
    expect(plans.map((plan) => plan.items.map((i) => i.id))).toEqual([
      ['op-0', 'op-1'],
      ['op-2', 'op-3'],
      ['op-4', 'op-5'],
    ])
    // Each chunk: its calldata (21,320), its share of the execution plus overhead with the margin (292,500), headroom.
    expect(plans.map((plan) => plan.gas)).toEqual([520_070n, 520_070n, 520_070n])
    expect(BUNDLE_OVERHEAD).toBe(60_000n)
    // Never more than the block gas limit.
    expect(planBundles(encode, { items, gasUsed: 600_000n }, 400_000n, 527_250n).map((plan) => plan.gas)).toEqual([400_000n, 400_000n, 400_000n])
  })
})
