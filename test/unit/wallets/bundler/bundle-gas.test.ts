import { describe, expect, it } from 'vitest'
import {
  BUNDLE_OVERHEAD,
  bundleGas,
  headroom,
  planBundles,
  simulationGroups,
  transactionGasBudget,
  withMargin,
} from '../../../../src/wallets/bundler/bundle-gas.ts'
import { EIP_7825_TX_GAS_CAP } from '../../../../src/chain/tx-gas-cap.ts'
import { halvePlan } from '../../../../src/wallets/bundler/submit-bundles.ts'
import { packBundles } from '../../../../src/wallets/bundler/pack-bundles.ts'
import { DEPLOYMENT_TX_BASE_GAS } from '../../../../src/wallets/bundler/deploy-accounts.ts'
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

describe('bundles under the per-transaction gas cap (EIP-7825)', () => {
  const CAP = EIP_7825_TX_GAS_CAP
  const encode = idEncoder(700)

  it('is 2^24 gas, as Base enforces since Azul', () => {
    expect(CAP).toBe(2n ** 24n)
  })

  it('budgets the cap, never the block gas limit; a block smaller than the cap keeps its share', () => {
    expect(transactionGasBudget(150_000_000n, 0.9, CAP)).toEqual({ limit: CAP, maxGas: CAP })
    expect(transactionGasBudget(10_000_000n, 0.9, CAP)).toEqual({ limit: 10_000_000n, maxGas: 9_000_000n })
    // A chain without EIP-7825 may configure a higher cap: the block share decides again.
    expect(transactionGasBudget(150_000_000n, 0.9, 200_000_000n)).toEqual({ limit: 150_000_000n, maxGas: 135_000_000n })
  })

  it('puts a 500-operation launch bundle (what one 100-buyer handleOps asked 23.9M for) in transactions of at most 2^24 each, in order', () => {
    // Swap-sized operations: 2M callGasLimit (the wallet default), ~180k measured each, 700 calldata bytes.
    for (const count of [100, 150, 500]) {
      const items = Array.from({ length: count }, (_, n) => item(n, 2_000_000n))
      const { limit, maxGas } = transactionGasBudget(150_000_000n, 0.9, CAP)
      const plans = planBundles(encode, { items, gasUsed: BigInt(count) * 180_000n }, limit, maxGas)
      expect(plans.every((plan) => plan.gas <= CAP)).toBe(true)
      expect(plans.flatMap((plan) => plan.items)).toEqual(items)
      // Each transaction still carries what its operations measured, with the margin and headroom.
      for (const plan of plans) expect(plan.gas).toBeGreaterThanOrEqual(bundleGas(encode, plan.items, BigInt(plan.items.length) * 180_000n))
      // Not needlessly many: within one transaction of the ideal count.
      const ideal = Math.ceil((count * Number(withMargin(180_000n) + 11_200n)) / Number(CAP - headroom(items)))
      expect(plans.length).toBeLessThanOrEqual(ideal + 1)
    }
  })

  it('halves a chunk the node refused for the cap, each half within the chunk and the limit, order kept', () => {
    const items = Array.from({ length: 9 }, (_, n) => item(n, 2_000_000n))
    const plan = { items, gas: bundleGas(encode, items, 9n * 180_000n) }
    const halves = halvePlan(encode, plan, CAP)
    expect(halves.map((h) => h.items.length)).toEqual([5, 4])
    expect(halves.flatMap((h) => h.items)).toEqual(items)
    // Each half asks for its own share of what was measured: what bundleGas gives for its operations.
    for (const half of halves) {
      expect(half.gas).toBeLessThan(plan.gas)
      const expected = bundleGas(encode, half.items, BigInt(half.items.length) * 180_000n)
      expect(Number(half.gas)).toBeCloseTo(Number(expected), -2)
    }
    expect(halvePlan(encode, { items, gas: 40_000_000n }, CAP).every((h) => h.gas <= CAP)).toBe(true)
  })

  it('slices deployments ahead to fit the cap: 41 SimpleAccounts (400k each) or 27 Kernels (600k) per transaction', () => {
    const slices = (count: number, gas: bigint) =>
      packBundles(
        Array.from({ length: count }, () => gas),
        (g) => g,
        CAP,
        DEPLOYMENT_TX_BASE_GAS,
      )
    expect(slices(200, 400_000n).map((s) => s.length)).toEqual([41, 41, 41, 41, 36])
    expect(slices(50, 600_000n).map((s) => s.length)).toEqual([27, 23])
    for (const slice of [...slices(200, 400_000n), ...slices(50, 600_000n)]) {
      expect(slice.reduce((sum, g) => sum + g, DEPLOYMENT_TX_BASE_GAS)).toBeLessThanOrEqual(CAP)
    }
  })

  it('simulates a bundle expected to need several transactions in about equal groups that each fit one; one account’s operations stay together', () => {
    const withSender = (n: number, sender: number) => {
      const base = item(n, 2_000_000n)
      return { ...base, userOperation: { ...base.userOperation, sender: `0x${sender.toString(16).padStart(40, '0')}` as const } }
    }
    const sixtyFour = Array.from({ length: 64 }, (_, n) => withSender(n, n + 1))
    // 64 x 250k with the margin is ~18M: two groups of 32, each within what one transaction may carry.
    const groups = simulationGroups(sixtyFour, 250_000n, CAP)
    expect(groups.map((g) => g.length)).toEqual([32, 32])
    expect(groups.flat()).toEqual(sixtyFour)
    expect(simulationGroups(sixtyFour.slice(0, 20), 250_000n, CAP)).toEqual([sixtyFour.slice(0, 20)])
    expect(
      simulationGroups(
        Array.from({ length: 500 }, (_, n) => withSender(n, n + 1)),
        250_000n,
        CAP,
      ),
    ).toHaveLength(10)
    // Two operations of one account: one group (the second is valid only after the first).
    const repeated = [...sixtyFour.slice(0, 63), withSender(99, 1)]
    expect(simulationGroups(repeated, 250_000n, CAP)).toEqual([repeated])
  })
})
