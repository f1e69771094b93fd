import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { decisionInputs } from '../../../daemon/executor/decision-inputs.ts'
import { planExecution, type PlanInput } from '../../../src/domain/execution/executor-plan.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'
import { type PrioritisationPolicy, spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import { replayTick } from '../../../src/domain/execution/replay-tick.ts'
import { checkedAnything, checkReplays, checkText } from '../../../src/console/replay/replay-check.ts'
import type { LaunchRecord, TickDecision } from '../../../src/journal/journal-records.ts'
import { computePriceTick } from '../../../src/pricing/price-tick.ts'
import { launchRecord } from '../../support/console-fixtures.ts'

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address

/** A Doppler-style linear fee decaying from 50% to 1% over 100 s from t = 1,000 s. */
const launch: LaunchRecord = launchRecord('rocket', {
  totalSupply: (10n ** 27n).toString(),
  feeSchedule: { kind: 'linear', startTime: 1_000, startFee: 500_000, endFee: 10_000, durationSeconds: 100 },
  launchedAt: 1_000_000,
})

const candidate = (i: number, spend: string, limit: string | null, balance: bigint, walletOf = i): CandidateOrder => ({
  order: { keyId: `k${i}`, slug: 'rocket', status: 'active', maxSpendUsdc: spend, maxFdvUsdc: limit, expiresInMs: 3_600_000, createdAt: i, updatedAt: i },
  userIndex: i,
  wallet: wallet(walletOf),
  balanceAtoms: balance,
})

/** A tick recorded the way the indexer and executor record it: the real pricing, the real planner, the real inputs. */
function recordedTick(timestamp: number): TickDecision {
  const tick = computePriceTick({
    launch,
    reason: 'block',
    // sqrtPriceX96 = 2^96 / 10^4.5 ≈ token price 1e-9 WETH (token is currency0).
    pool: { sqrtPriceX96: 2505414483750479311864138n, liquidity: 10n ** 20n },
    pairedUsd: { numerator: 3_000n * 10n ** 6n, denominator: 10n ** 18n },
    block: { number: 105n, hash: `0x${'ab'.repeat(32)}`, timestamp: BigInt(timestamp) },
    logIndex: -1,
    blockTimeSeconds: 2,
    at: 5,
  })
  const input: PlanInput = {
    tick,
    launchedAt: launch.launchedAt,
    now: tick.nextBlockTimestamp * 1000,
    totalSupply: BigInt(launch.totalSupply),
    candidates: [
      candidate(1, '100', null, 150_000_000n),
      candidate(2, '80', '1000000000', 60_000_000n),
      candidate(3, '50', '1', 500_000_000n),
      candidate(4, '120', null, 0n),
      candidate(5, '60', null, 150_000_000n, 1),
    ],
    reservedByWallet: new Map([[wallet(2).toLowerCase(), 10_000_000n]]),
    policy: spendThenLimitPolicy,
    maxBuys: 2,
  }
  const plan = planExecution(input)
  return {
    slug: 'rocket',
    chain: 'base',
    tick,
    policy: spendThenLimitPolicy.name,
    orders: plan.decisions,
    at: 7,
    inputs: decisionInputs(input, plan.candidatesInPriority()),
  }
}

describe('executions replay: a recorded tick decided again with today’s code', () => {
  it('today’s pricing and planning agree with what was recorded', () => {
    const decision = recordedTick(1_050)
    expect(decision.orders.map((d) => `${d.keyId} ${d.verdict} ${d.rank ?? ''}`)).toEqual([
      'k4 no_balance ',
      'k3 limit_below_cap ',
      'k1 submitted 0',
      'k2 submitted 1',
      'k5 deferred 2',
    ])
    const replay = replayTick(decision, launch)
    expect(replay.checkable).toBe(true)
    expect(replay.differences).toEqual([])
    expect(replay.todayTick?.lpFeePips).toBe(decision.tick.lpFeePips)
    expect(replay.orders.every((o) => o.difference === null && o.today !== undefined)).toBe(true)
  })

  it('flags a verdict, a rank and a spend that today’s code would not give', () => {
    const decision = recordedTick(1_050)
    const altered: TickDecision = structuredClone(decision)
    altered.orders[1] = { ...altered.orders[1]!, verdict: 'submitted', rank: 0 }
    // k2's wallet holds 60 with 10 reserved by an earlier in-flight buy: 50 is what it may spend.
    altered.orders[3] = { ...altered.orders[3]!, spendAtoms: '1' }
    altered.orders[4] = { ...altered.orders[4]!, rank: 7 }
    const replay = replayTick(altered, launch)
    expect(replay.differences).toEqual(['order k3: verdict submitted, today limit_below_cap', 'order k2: spend 1, today 50000000', 'order k5: rank 7, today 2'])
  })

  it('flags recorded inputs that lead elsewhere today (a balance the planner saw), and a pricing change', () => {
    const decision = recordedTick(1_050)
    const altered: TickDecision = structuredClone(decision)
    const k4 = altered.inputs!.orders.find((o) => o[0] === 'k4')!
    k4[5] = '5000000'
    altered.tick = { ...altered.tick, lpFeePips: altered.tick.lpFeePips + 1, effectiveCapAtoms: '1' }
    const replay = replayTick(altered, launch)
    expect(replay.pricingDifferences).toEqual([
      `LP fee ${decision.tick.lpFeePips + 1} pips, today ${decision.tick.lpFeePips}`,
      `effective cap 1 atoms, today ${decision.tick.effectiveCapAtoms}`,
    ])
    expect(replay.differences.some((d) => d.startsWith('order k4: verdict no_balance, today'))).toBe(true)
  })

  it('an order the executor found changed before submitting (recorded in_flight, today submitted) is not a regression', () => {
    const decision = recordedTick(1_050)
    const altered: TickDecision = structuredClone(decision)
    const k1 = altered.orders.findIndex((d) => d.keyId === 'k1')
    altered.orders[k1] = { ...altered.orders[k1]!, verdict: 'in_flight' }
    expect(replayTick(altered, launch).differences).toEqual([])
  })

  it("an order the block's batch left out (recorded limit_below_clearing / gas_budget, today submitted by the planner) is the batch check's, not a planning regression", () => {
    const decision = recordedTick(1_050)
    for (const reason of ['limit_below_clearing', 'gas_budget', 'no_spend'] as const) {
      const altered: TickDecision = structuredClone(decision)
      const k1 = altered.orders.findIndex((d) => d.keyId === 'k1')
      altered.orders[k1] = { ...altered.orders[k1]!, verdict: reason }
      expect(replayTick(altered, launch).differences).toEqual([])
    }
    // A batch exclusion where the planner would not even buy is still a difference.
    const wrong: TickDecision = structuredClone(decision)
    const k3 = wrong.orders.findIndex((d) => d.keyId === 'k3')
    wrong.orders[k3] = { ...wrong.orders[k3]!, verdict: 'gas_budget' }
    expect(replayTick(wrong, launch).differences).toEqual(['order k3: verdict gas_budget, today limit_below_cap'])
  })

  it('another policy today is named, with what it changes', () => {
    const limitFirst: PrioritisationPolicy = {
      name: 'limit-first',
      compare: (a, b) => (a.limitFdv === b.limitFdv ? 0 : a.limitFdv === null ? -1 : b.limitFdv === null ? 1 : a.limitFdv > b.limitFdv ? -1 : 1),
    }
    const replay = replayTick(recordedTick(1_050), launch, limitFirst)
    expect(replay.differences[0]).toBe('policy spend-desc-then-limit-desc, today limit-first')
    expect(replay.differences.length).toBeGreaterThan(1)
  })

  it('a decision recorded without inputs is shown but not checkable; --check says nothing could be checked', () => {
    const { inputs: _dropped, ...old } = recordedTick(1_050)
    const replay = replayTick(old, launch)
    expect(replay.checkable).toBe(false)
    expect(replay.orders.every((o) => o.today === undefined && o.difference === null)).toBe(true)
    const check = checkReplays('rocket', [replay])
    expect(check).toEqual({ slug: 'rocket', ticks: 1, checkable: 0, differing: [], batches: { count: 0, checkable: 0, allocationsChecked: 0, differing: [] } })
    expect(checkedAnything(check)).toBe(false)
    expect(checkText(check)).toEqual(["rocket: 1 recorded ticks, 0 checkable, 0 differing from today's code"])
  })

  it('the check lists every differing tick with its block', () => {
    const good = replayTick(recordedTick(1_050), launch)
    const altered = structuredClone(recordedTick(1_090))
    altered.orders[1] = { ...altered.orders[1]!, verdict: 'expired' }
    const check = checkReplays('rocket', [good, replayTick(altered, launch)])
    expect(check.differing).toEqual([{ tick: 2, blockNumber: '105', reason: 'block', differences: ['order k3: verdict expired, today limit_below_cap'] }])
    expect(checkText(check)).toEqual([
      "rocket: 2 recorded ticks, 2 checkable, 1 differing from today's code",
      'tick 2 (block 105, block):',
      '  order k3: verdict expired, today limit_below_cap',
    ])
  })
})
