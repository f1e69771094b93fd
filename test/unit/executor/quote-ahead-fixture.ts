import type { Address } from 'viem'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import type { BuyQuote, BuyQuoter, QuoteAt, QuotedLaunch } from '../../../src/launchpads/quote-buy.ts'
import { launch } from '../../executor/parts/executor-fixture.ts'

const USDC = 1_000_000n
const candidate = (w: number, maxSpendUsdc: string): CandidateOrder => ({
  order: {
    keyId: `k${w}`,
    slug: launch.slug,
    status: 'active',
    maxSpendUsdc,
    maxFdvUsdc: null,
    expiresInMs: 60_000,
    createdAt: w,
    updatedAt: w,
  } as OrderRecord,
  userIndex: w,
  wallet: `0x${w.toString(16).padStart(40, '0')}` as Address,
  balanceAtoms: 100n * USDC,
})

/** Two unlimited orders of the fixture's launch (10 and 40 USDC, from wallets holding 100): two spend buckets to quote. */
export const candidates: CandidateOrder[] = [candidate(1, '10'), candidate(2, '40')]

/** A quoter that records every call it is asked (its pool, block, next timestamp and paired price): the round trips. */
export function countingQuoter() {
  const asked: { launch: QuotedLaunch; spend: bigint; at: QuoteAt }[] = []
  const quoter: BuyQuoter = {
    async quoteBuy(quoted, spendAtoms, at) {
      asked.push({ launch: quoted, spend: spendAtoms, at })
      return { kind: 'quoted', spendAtoms, pairedIn: spendAtoms, tokensOut: spendAtoms * 1000n } satisfies BuyQuote
    },
  }
  return { asked, quoter }
}
