import type { Address, Hash } from 'viem'
import { type BatchPlannerContext, createBatchPlanner } from '../../../daemon/executor/plan-batch.ts'
import { type PrioritisationPolicy, spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import type { BuyToSubmit } from '../../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import type { LaunchRecord, PriceTick } from '../../../src/journal/journal-records.ts'

/** A batch planner over fakes (pure parts only): every wallet approved, the formula pool, ids counted; `overrides` replace parts. */
export function plannerFixture(overrides: Partial<BatchPlannerContext> = {}) {
  const counts = { idOf: 0, nextSequence: 0 }
  const idOf = (order: Pick<OrderRecord, 'keyId' | 'slug' | 'createdAt'>): Hash => {
    counts.idOf++
    // The daemon's ids come from a cache filled at load (order-id-cache.ts); a keccak here would dwarf the planner.
    return `0x${Buffer.from(`${order.keyId}!${order.slug}!${order.createdAt}`).toString('hex').padEnd(64, '0').slice(0, 64)}` as Hash
  }
  const ctx = {
    batchBuyers: { base: '0x00000000000000000000000000000000000000bb' as Address },
    wallets: { operatorAddress: () => '0x00000000000000000000000000000000000000aa' as Address, sendCall: async () => '0x' },
    chains: { base: {} },
    batchReads: { allowances: async (_c: unknown, _s: unknown, wallets: readonly Address[]) => new Map(wallets.map((w) => [w.toLowerCase(), 10n ** 30n])) },
    batchJournal: {
      nextSequence: async () => {
        counts.nextSequence++
        return 0
      },
    },
    quotes: { canQuote: () => false, tokensOut: async () => undefined },
    orders: { idOf },
    policy: spendThenLimitPolicy,
    log: { info() {}, warn() {}, debug() {}, error() {} },
    now: () => 1_000,
    batchDeadline: () => ({ landingBlocks: 10 }),
    ...overrides,
  } as unknown as BatchPlannerContext
  return { planner: createBatchPlanner(ctx), counts, idOf }
}

export function orderOf(i: number, slug = 'fixture', limit: string | null = null): OrderRecord {
  return {
    keyId: `key-${String(i).padStart(6, '0')}`,
    slug,
    status: 'active',
    maxSpendUsdc: `${1 + (i % 97)}.5`,
    maxFdvUsdc: limit,
    expiresInMs: 3_600_000,
    createdAt: 1_000 + i,
    updatedAt: 1_000 + i,
  }
}

export function candidateOf(order: OrderRecord, i: number): CandidateOrder {
  return { order, userIndex: i, wallet: `0x${(i + 1).toString(16).padStart(40, '0')}` as Address, balanceAtoms: 10n ** 12n }
}

export function buysOf(candidates: readonly CandidateOrder[], spend: (c: CandidateOrder) => bigint): BuyToSubmit[] {
  return candidates.map((candidate, rank) => ({ candidate, spendAtoms: spend(candidate), minTokensOut: 0n, rank }))
}

export const fixtureLaunch = {
  chain: 'base',
  slug: 'fixture',
  blockNumber: '100',
  token: '0x00000000000000000000000000000000000000cc',
  totalSupply: (10n ** 27n).toString(),
} as unknown as LaunchRecord
export const fixtureTick = { blockNumber: '101', effectiveCapAtoms: (10n ** 12n).toString() } as unknown as PriceTick

/** The spec's policy with its sort keys counted: a walk (the clearing's priority order) computes them once per candidate. */
export function countingPolicy() {
  const counts = { keys: 0 }
  const policy: PrioritisationPolicy = {
    ...spendThenLimitPolicy,
    keys: (o) => {
      counts.keys++
      return spendThenLimitPolicy.keys!(o)
    },
  }
  return { policy, counts }
}
