import { describe, expect, it } from 'vitest'
import { clearBatch } from '../../../src/domain/batch/clear-batch.ts'
import type { ExecutableOrder } from '../../../src/domain/execution/executable-order.ts'

const SUPPLY = 1_000_000n * 10n ** 18n
const order = (i: number, spend: bigint, limitFdv: bigint | null): ExecutableOrder => ({
  id: `o${i}`,
  wallet: `0x${(i + 1).toString(16).padStart(40, '0')}`,
  status: 'active',
  maxSpend: spend,
  limitFdv,
  expiresInMs: 3_600_000,
})
/** A constant-product pool holding `tokens` against `usdc` (the clearing's only pool function here), counting its calls. */
const pool = (usdc: bigint, tokens: bigint) => {
  const asked: bigint[] = []
  const tokensOut = (x: bigint): bigint => {
    asked.push(x)
    return (tokens * x) / (usdc + x)
  }
  return { asked, tokensOut }
}

describe('clearBatch prices a run of unlimited orders once (a quote by the real swap is a round trip to the node)', () => {
  it('unlimited orders only: one pool evaluation, of their total', () => {
    const p = pool(10_000_000_000n, SUPPLY / 10n)
    const candidates = [1, 2, 3, 4, 5].map((i) => ({ order: order(i, BigInt(i) * 1_000_000n, null), spend: BigInt(i) * 1_000_000n }))
    const c = clearBatch({ candidates, tokensOut: p.tokensOut, totalSupply: SUPPLY, maxBuyers: 10 })
    expect(c.included).toHaveLength(5)
    expect(p.asked).toEqual([15_000_000n])
    expect(c.tokensOut).toBe(((SUPPLY / 10n) * 15_000_000n) / (10_000_000_000n + 15_000_000n))
  })

  it('a limited order after unlimited ones is priced with their total; later orders one each', () => {
    const p = pool(10_000_000_000n, SUPPLY / 10n)
    const candidates = [
      { order: order(1, 5_000_000n, null), spend: 5_000_000n },
      { order: order(2, 4_000_000n, null), spend: 4_000_000n },
      { order: order(3, 3_000_000n, 10n ** 15n), spend: 3_000_000n },
      { order: order(4, 2_000_000n, null), spend: 2_000_000n },
    ]
    const c = clearBatch({ candidates, tokensOut: p.tokensOut, totalSupply: SUPPLY, maxBuyers: 10 })
    expect(c.included.map((i) => i.candidate.order.id)).toEqual(['o1', 'o2', 'o3', 'o4'])
    expect(p.asked).toEqual([12_000_000n, 14_000_000n])
  })

  it('a pool that returns nothing for the batch leaves every unlimited order out and buys nothing', () => {
    const candidates = [1, 2].map((i) => ({ order: order(i, 1_000_000n, null), spend: 1_000_000n }))
    const c = clearBatch({ candidates, tokensOut: () => 0n, totalSupply: SUPPLY, maxBuyers: 10 })
    expect(c.included).toEqual([])
    expect(c.excluded.map((e) => [e.candidate.order.id, e.reason, e.rank])).toEqual([
      ['o1', 'limit_below_clearing', 0],
      ['o2', 'limit_below_clearing', 1],
    ])
    expect([c.totalIn, c.tokensOut]).toEqual([0n, 0n])
  })
})
