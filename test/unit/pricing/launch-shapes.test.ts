import { describe, expect, it } from 'vitest'
import { BASE_REHYPE_HOOKS, BASE_REHYPE_SDK_HOOK, rehypeFeeDenominator } from '../../../src/launchpads/doppler/rehype-deployments.ts'
import { clankerTotalFeeFraction } from '../../../src/pricing/fee-fraction.ts'
import { type FeeSchedule, feeAt, scheduleSettled } from '../../../src/pricing/fee-schedule.ts'
import { compare, fraction, toNumber } from '../../../src/pricing/fraction.ts'
import { buyProtocolFee, directionalProtocolFee, v4SwapFeePips, withProtocolFee } from '../../../src/pricing/protocol-fee.ts'

const at = (timestamp: number) => ({ timestamp, number: 0n })

describe('Doppler rehype hooks as deployed on Base (deployments/8453.md, RehypeDopplerHookInitializer at each commit)', () => {
  it('three of the four deployments divide by 800,000, the SDK one among them; the July 2026 one by 1e6', () => {
    expect(BASE_REHYPE_HOOKS.map((h) => [h.commit, h.feeDenominator])).toEqual([
      ['9e1d24c', 800_000],
      ['2cd788c', 800_000],
      ['562feb3', 800_000],
      ['c5e9f99c', 1_000_000],
    ])
    expect(rehypeFeeDenominator(BASE_REHYPE_SDK_HOOK)).toBe(800_000)
    expect(rehypeFeeDenominator('0xbf4195ab0b03e1eb3345dd1e83bed7650b1ed123')).toBe(800_000)
    // A deployment newer than the file is built from the fixed source.
    expect(rehypeFeeDenominator('0x0000000000000000000000000000000000001234')).toBe(1_000_000)
  })

  it('a 0.8e6 hook takes 1.25x its announced fee: (1 - lp)(1 - fee/0.8e6) kept', () => {
    const rehype: FeeSchedule = { kind: 'linear', startTime: 1_000, startFee: 400_000, endFee: 10_000, durationSeconds: 10, poolLpFee: 7_000 }
    const buggy: FeeSchedule = { ...rehype, hookFeeDenominator: 800_000 }
    // At the start: 40% announced, 50% taken.
    expect(feeAt(buggy, at(1_000)).totalFraction).toBeCloseTo(1 - 0.993 * 0.5, 12)
    expect(feeAt(rehype, at(1_000)).totalFraction).toBeCloseTo(1 - 0.993 * 0.6, 12)
    // After the decay: 1% announced, 1.25% taken.
    expect(feeAt(buggy, at(1_010)).totalFraction).toBeCloseTo(1 - 0.993 * 0.9875, 12)
    // The LP fee and the announced launch fee are reported as they are.
    expect(feeAt(buggy, at(1_005))).toMatchObject({ lpFee: 7_000, sniperFee: 205_000 })
  })

  it('at the 800,000 cap a 0.8e6 hook takes the whole output: no finite cap', () => {
    const capped: FeeSchedule = {
      kind: 'linear',
      startTime: 1_000,
      startFee: 800_000,
      endFee: 10_000,
      durationSeconds: 10,
      poolLpFee: 7_000,
      hookFeeDenominator: 800_000,
    }
    expect(feeAt(capped, at(1_000)).totalFraction).toBe(1)
  })
})

describe('a Doppler pool that announces no schedule: its static LP fee', () => {
  const staticFee: FeeSchedule = { kind: 'linear', startTime: 1_000, startFee: 10_000, endFee: 10_000, durationSeconds: 0 }

  it('charges the LP fee at every time, no launch fee, settled at once', () => {
    for (const t of [1_000, 1_001, 5_000])
      expect(feeAt(staticFee, at(t))).toMatchObject({ lpFee: 10_000, sniperFee: 0, totalFraction: 0.01, swapsAllowed: true })
    expect(scheduleSettled(staticFee, at(1_001))).toBe(true)
  })

  it('a scheduled multicurve refuses swaps before its starting time', () => {
    const scheduled: FeeSchedule = { ...staticFee, startTime: 2_000 }
    expect(feeAt(scheduled, at(1_999)).swapsAllowed).toBe(false)
    expect(feeAt(scheduled, at(2_000)).swapsAllowed).toBe(true)
    expect(scheduleSettled(scheduled, at(1_999))).toBe(false)
  })
})

describe('a launch gated until a time (DopplerERC20V1 balance limit)', () => {
  it('swaps are not allowed before swapsFrom, the fee is unchanged, and ticks continue until then', () => {
    const gated: FeeSchedule = { kind: 'linear', startTime: 1_000, startFee: 10_000, endFee: 10_000, durationSeconds: 0, swapsFrom: 1_060 }
    expect(feeAt(gated, at(1_059))).toMatchObject({ swapsAllowed: false, lpFee: 10_000 })
    expect(feeAt(gated, at(1_060)).swapsAllowed).toBe(true)
    expect(scheduleSettled(gated, at(1_059))).toBe(false)
    expect(scheduleSettled(gated, at(1_060))).toBe(true)
  })
})

describe('the v4 protocol fee (@uniswap/v4-core ProtocolFeeLibrary, Pool.swap)', () => {
  it('slot0 packs the zeroForOne fee in the lower 12 bits, the oneForZero fee in the upper 12', () => {
    const packed = (700 << 12) | 300
    expect(directionalProtocolFee(packed, true)).toBe(300)
    expect(directionalProtocolFee(packed, false)).toBe(700)
    // A buy is paired -> token: zeroForOne when the token is currency1.
    expect(buyProtocolFee(packed, false)).toBe(300)
    expect(buyProtocolFee(packed, true)).toBe(700)
  })

  it('swapFee = protocolFee + lpFee - protocolFee * lpFee / 1e6, floored product; lpFee alone without a protocol fee', () => {
    expect(v4SwapFeePips(0, 10_000)).toBe(10_000)
    expect(v4SwapFeePips(1_000, 10_000)).toBe(10_990)
    expect(v4SwapFeePips(999, 3_333)).toBe(999 + 3_333 - 3)
  })

  it('replaces the LP fee part of every kind, exactly', () => {
    const zora: FeeSchedule = { kind: 'linear', startTime: 1_000, startFee: 990_000, endFee: 10_000, durationSeconds: 10, protocolFee: 1_000 }
    const q = feeAt(zora, at(1_020))
    expect(q.lpFee).toBe(10_000)
    expect(compare(q.totalFee, fraction(10_990n, 1_000_000n))).toBe(0)
    const clanker: FeeSchedule = { kind: 'clanker', startTime: 1_000, startingFee: 0, endingFee: 0, secondsToDecay: 0, lpFee: 10_000, protocolFee: 500 }
    // The hook's 20% before the pool, then the pool's swap fee: (1 - swapFee) / (1 + 0.2 f) kept.
    const kept = (1 - v4SwapFeePips(500, 10_000) / 1e6) / (1 + 0.2 * 0.01)
    expect(feeAt(clanker, at(2_000)).totalFraction).toBeCloseTo(1 - kept, 12)
    expect(
      toNumber(withProtocolFee({ lpFee: 10_000, sniperFee: 0, totalFee: clankerTotalFeeFraction(10_000), totalFraction: 0, swapsAllowed: true }, 0).totalFee),
    ).toBeCloseTo(toNumber(clankerTotalFeeFraction(10_000)), 15)
  })
})
