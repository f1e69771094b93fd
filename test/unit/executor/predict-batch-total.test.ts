import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { predictBatchTotal } from '../../../daemon/executor/predict-batch-total.ts'
import { candidateBuckets, createTickQuotes } from '../../../daemon/executor/tick-quotes.ts'
import { silentLogger } from '../../../src/common/logger.ts'
import { withResolvers } from '../../../src/common/with-resolvers.ts'
import { clearBatch } from '../../../src/domain/batch/clear-batch.ts'
import { toExecutableOrder } from '../../../src/domain/execution/executable-order.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import { sizeSpend } from '../../../src/domain/execution/size-spend.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import type { BuyQuote, BuyQuoter } from '../../../src/launchpads/quote-buy.ts'
import { launch, tickAt } from '../../executor/parts/executor-fixture.ts'

const USDC = 1_000_000n
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
let keys = 0
const candidate = (w: number, maxSpendUsdc: string, balanceUsdc: bigint, options: { limit?: string; status?: OrderRecord['status'] } = {}): CandidateOrder => ({
  order: {
    keyId: `k${++keys}`,
    slug: launch.slug,
    status: options.status ?? 'active',
    maxSpendUsdc,
    maxFdvUsdc: options.limit ?? null,
    expiresInMs: 60_000,
    createdAt: keys,
    updatedAt: keys,
  } as OrderRecord,
  userIndex: w,
  wallet: wallet(w),
  balanceAtoms: balanceUsdc * USDC,
})

describe('the batch total predicted before the plan (predict-batch-total.ts)', () => {
  it("is Σ per wallet of min(its active orders' max spends, balance − reserved); nothing without a spend", () => {
    const candidates = [
      candidate(1, '10', 100n),
      candidate(1, '30', 100n),
      candidate(2, '50', 20n),
      candidate(3, '5', 100n, { status: 'filled' }),
      candidate(4, '5', 0n),
      candidate(5, '40', 100n),
    ]
    // Wallet 5 has 70 of its 100 in flight elsewhere: 30 left; wallet 2 is capped by its balance.
    const reserved = new Map([[wallet(5).toLowerCase(), 70n * USDC]])
    expect(predictBatchTotal(candidates, reserved)).toBe((40n + 20n + 30n) * USDC)
    expect(predictBatchTotal([candidate(6, '10', 10n)], new Map([[wallet(6).toLowerCase(), 10n * USDC]]))).toBeUndefined()
  })

  it('is the one amount the clearing asks the pool for a book without limits (same sizes as the planner)', () => {
    const candidates = [candidate(11, '10', 100n), candidate(12, '25.5', 100n), candidate(13, '50', 20n), candidate(14, '7', 100n)]
    const reserved = new Map([[wallet(14).toLowerCase(), 95n * USDC]])
    const asked: bigint[] = []
    clearBatch({
      candidates: candidates.map((c) => ({
        order: toExecutableOrder(c.order, c.wallet),
        spend: sizeSpend(BigInt(Number(c.order.maxSpendUsdc) * 1e6), c.balanceAtoms, reserved.get(c.wallet.toLowerCase()) ?? 0n),
      })),
      tokensOut: (usdcIn) => {
        asked.push(usdcIn)
        return usdcIn * 1000n
      },
      totalSupply: 10n ** 24n,
      maxBuyers: 100,
    })
    expect(asked).toEqual([predictBatchTotal(candidates, reserved)])
  })

  it('is not predicted when an order has a limit (the clearing then asks prefixes, one after another)', () => {
    expect(predictBatchTotal([candidate(21, '10', 100n), candidate(22, '10', 100n, { limit: '1000000' })], new Map())).toBeUndefined()
  })

  it("goes out in the buckets' round: the clearing's ask of the total is then answered from the block's cache", async () => {
    const asked: bigint[] = []
    const answers = withResolvers<void>()
    const quoter: BuyQuoter = {
      async quoteBuy(_launch, spendAtoms) {
        asked.push(spendAtoms)
        await answers.promise
        return { kind: 'quoted', spendAtoms, pairedIn: spendAtoms, tokensOut: spendAtoms * 1000n } satisfies BuyQuote
      },
    }
    const quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
    const tick = tickAt(11, 1_000_000)
    const candidates = [candidate(31, '10', 100n), candidate(32, '40', 100n)]
    const total = predictBatchTotal(candidates, new Map())!
    const caps = quotes.quotedCaps(tick, launch, candidateBuckets(candidates), [total])
    // Before any answer: the two buckets (16 and 64 USDC, powers of two of atoms) and the total, all asked at once.
    await new Promise((resolve) => setImmediate(resolve))
    expect(asked).toHaveLength(3)
    expect(asked).toContain(total)
    answers.resolve()
    expect((await caps)?.buckets).toHaveLength(2)
    expect(await quotes.tokensOut(tick, launch, total)).toBe(total * 1000n)
    expect(asked).toHaveLength(3)
  })
})
