import { describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { capsByWallet, createApprovalAmounts } from '../../../daemon/executor/approval-amounts.ts'
import type { LoadedOrder } from '../../../daemon/executor/warm-books.ts'

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const order = (userIndex: number, slug: string, maxSpendUsdc: string): LoadedOrder => ({
  order: { keyId: `k${userIndex}`, slug, status: 'active', maxSpendUsdc, maxFdvUsdc: null, expiresInMs: 60_000, createdAt: 1, updatedAt: 1 },
  userIndex,
  followers: 0,
  wallet: wallet(userIndex),
})

describe('approval amounts (the caps a wallet approves the batch buyer for)', () => {
  it("sums each wallet's caps in atoms, to the last micro-USDC", () => {
    const caps = capsByWallet([order(1, 'a', '10'), order(2, 'a', '0.000001'), order(1, 'a', '2.5')])
    expect(caps).toEqual(
      new Map([
        [1, { wallet: wallet(1), amount: 12_500_000n }],
        [2, { wallet: wallet(2), amount: 1n }],
      ]),
    )
  })

  it('sums over projects, re-parsing a project only when its orders array changed, and forgets projects gone', () => {
    const amounts = createApprovalAmounts()
    const one = [order(1, 'one', '10'), order(2, 'one', '5')]
    const two = [order(1, 'two', '3')]
    expect(
      amounts
        .over([
          ['one', one],
          ['two', two],
        ])
        .get(1),
    ).toEqual({ wallet: wallet(1), amount: 13_000_000n })
    // The cached sums are not mutated by the merge: the same arrays again give the same totals.
    expect(
      amounts
        .over([
          ['one', one],
          ['two', two],
        ])
        .get(1)?.amount,
    ).toBe(13_000_000n)
    // An order write hands back a new array (a raised cap).
    const raised = [order(1, 'one', '20'), order(2, 'one', '5')]
    expect(
      amounts
        .over([
          ['one', raised],
          ['two', two],
        ])
        .get(1)?.amount,
    ).toBe(23_000_000n)
    // A project no longer waiting (launched, or its orders all deleted) counts nothing.
    const out = amounts.over([['one', raised]])
    expect(out.get(1)?.amount).toBe(20_000_000n)
    expect(amounts.over([]).size).toBe(0)
  })
})
