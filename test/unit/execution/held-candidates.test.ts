import fc from 'fast-check'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { createBookCache } from '../../../src/domain/execution/book-cache.ts'
import { planExecution, type ExecutionPlan, type PlanInput } from '../../../src/domain/execution/executor-plan.ts'
import { createFundedCandidates } from '../../../src/domain/execution/funded-candidates.ts'
import { type CandidateDiff, createHeldCandidates, type HeldOrder, type TickBalances } from '../../../src/domain/execution/held-candidates.ts'
import { spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'
import { createHeldSpends } from '../../../daemon/executor/held-spends.ts'
import { candidateBuckets } from '../../../daemon/executor/tick-quotes.ts'

type Held = HeldOrder & { balanceAtoms: bigint }
const candidateOf = (l: HeldOrder, balanceAtoms: bigint): Held => ({
  order: l.order,
  userIndex: l.userIndex,
  followers: l.followers,
  wallet: l.wallet,
  balanceAtoms,
})

/** Six wallets, spelt mixed-case for odd indices (the book keys them lower-cased). */
const WALLETS = 6
const walletOf = (w: number): Address => {
  const hex = `0x${(w + 1).toString(16).padStart(40, 'b')}`
  return (w % 2 === 1 ? `0x${hex.slice(2).toUpperCase()}` : hex) as Address
}
const lower = (w: number) => walletOf(w).toLowerCase()

/** What happens between two ticks. */
type Step =
  | { kind: 'patch'; at: number; spend: number; fdv: number | null }
  | { kind: 'edit'; at: number; spend: number; fdv: number | null; followers: number }
  | { kind: 'place'; wallet: number; spend: number; fdv: number | null }
  | { kind: 'delete'; at: number }
  | { kind: 'reload' }
  | { kind: 'transfer'; wallet: number; atoms: number; logged: boolean }
  | { kind: 'block'; derived: boolean; unsnapshotted: number[]; unanswered: number[]; abandoned: boolean; unplanned: boolean; primed: boolean }
  | { kind: 'noSnapshot' }

const amount = fc.integer({ min: 1, max: 400 })
const fdv = fc.option(fc.integer({ min: 1_000, max: 2_000_000 }), { nil: null })
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('patch' as const), at: fc.nat(), spend: amount, fdv }),
  // A PATCH as the loader's patch hands it over: every other entry kept (the held candidates edit theirs in place).
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), spend: amount, fdv, followers: fc.nat(3) }),
  fc.record({ kind: fc.constant('place' as const), wallet: fc.nat(WALLETS - 1), spend: amount, fdv }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('reload' as const) }),
  fc.record({ kind: fc.constant('transfer' as const), wallet: fc.nat(WALLETS - 1), atoms: fc.integer({ min: -300, max: 300 }), logged: fc.boolean() }),
  fc.record({
    kind: fc.constant('block' as const),
    derived: fc.boolean(),
    unsnapshotted: fc.array(fc.nat(WALLETS - 1), { maxLength: 2 }),
    unanswered: fc.array(fc.nat(WALLETS - 1), { maxLength: 1 }),
    abandoned: fc.boolean(),
    unplanned: fc.boolean(),
    primed: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('noSnapshot' as const) }),
)

const summary = (plan: ExecutionPlan) => ({
  decisions: plan.decisions,
  expired: plan.expired.map((o) => o.keyId),
  buys: plan.buys.map((b) => ({ keyId: b.candidate.order.keyId, spend: b.spendAtoms, min: b.minTokensOut, rank: b.rank })),
  priority: plan.candidatesInPriority().map((c) => c.order.keyId),
})

describe('createHeldCandidates: the incremental candidates are the ones rebuilt from scratch', () => {
  it('after random sequences of PATCHes, placements, deletions, reloads, balance moves and blocks (fast-check)', () => {
    let bucketsCarried = 0
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: WALLETS - 1 }), { minLength: 0, maxLength: 12 }), fc.array(step, { maxLength: 40 }), (initial, steps) => {
        let next = 0
        const record = (spend: number, maxFdv: number | null): OrderRecord => {
          const n = next++
          return {
            keyId: `key_${String(n).padStart(4, '0')}`,
            slug: 'p',
            status: 'active',
            maxSpendUsdc: String(spend),
            maxFdvUsdc: maxFdv === null ? null : String(maxFdv),
            expiresInMs: 3_600_000,
            createdAt: n,
            updatedAt: n,
          }
        }
        // The store (sorted by keyId, as the loader lists them) and the chain's balances per lower-cased wallet.
        let orders: HeldOrder[] = initial.map((w, i) => ({
          order: record(10 + i * 7, i % 3 === 0 ? null : 50_000 + i),
          userIndex: w,
          followers: 0,
          wallet: walletOf(w),
        }))
        const chain = new Map(Array.from({ length: WALLETS }, (_, w) => [lower(w), BigInt(100 + w * 40) * 1_000_000n]))
        // The loaded array the warm snapshot hands out: the same array until a write (or a reload parsing every record afresh).
        let loaded: readonly HeldOrder[] = orders
        const reparse = () => {
          loaded = orders.map((o) => ({ ...o, order: { ...o.order } }))
        }
        let serial = 0
        let state: TickBalances['state'] = { serial }
        let logged = new Set<string>()
        // The balances of the ticked block (what a snapshot or a read of that block gives).
        let block = new Map(chain)
        let known = new Map(chain)
        let unanswered = new Set<string>()
        let snapshot = true

        const held = createHeldCandidates<HeldOrder, Held>(candidateOf)
        const funded = createFundedCandidates<Held>()
        const books = createBookCache()
        // The spend buckets kept along the steps (held-spends.ts), as the tick decider and the readying pass keep them:
        // whenever carried, they are the ones computed from scratch.
        const spends = createHeldSpends()
        const bucketsOf = (candidates: readonly Held[], diff: CandidateDiff) => {
          const fresh = candidateBuckets(candidates)
          const carried = spends.step('p', diff)
          if (carried === undefined) spends.set('p', diff.seq, fresh)
          else {
            expect(carried).toEqual(fresh)
            bucketsCarried++
          }
        }
        const tick = () => {
          const step = held.begin('p', loaded, snapshot ? { known, state } : undefined)
          // Only wallets the snapshot lacks are read; a read gives the block's balance, or leaves out an unanswered wallet.
          const asked = new Set(step.missing.map((w) => w.toLowerCase()))
          for (const w of asked) expect(snapshot && known.has(w)).toBe(false)
          const read = new Map([...asked].filter((w) => !unanswered.has(w)).map((w) => [w, block.get(w)!]))
          const { candidates, diff } = step.finish(read)
          // From scratch: every loaded order with its wallet's balance of the block (0 when asked and not answered).
          const expected = loaded.map((l) => {
            const w = l.wallet.toLowerCase()
            const balance = asked.has(w) && unanswered.has(w) ? 0n : block.get(w)!
            return { ...candidateOf(l, balance), order: { ...l.order } }
          })
          expect(candidates.map((c) => ({ ...c, order: { ...c.order } }))).toEqual(expected)
          // The funded candidates kept by the diffs (funded-candidates.ts) are those a filter of every candidate finds
          // (an unplanned tick below finishes without asking them: the next diff does not follow theirs).
          expect(funded.of('p', candidates, diff)).toEqual(candidates.filter((c) => c.order.status === 'active' && c.balanceAtoms > 0n))
          bucketsOf(candidates, diff)
          const input: PlanInput = {
            tick: { effectiveCapAtoms: (300n * 1_000_000n).toString(), swapsAllowed: true },
            launchedAt: 0,
            now: 1_000,
            totalSupply: 10n ** 27n,
            candidates,
            reservedByWallet: new Map(),
            policy: spendThenLimitPolicy,
          }
          expect(summary(books.plan('p', input, diff))).toEqual(summary(planExecution(input)))
        }

        tick()
        for (const s of steps) {
          switch (s.kind) {
            case 'patch': {
              if (orders.length === 0) break
              const at = s.at % orders.length
              const was = orders[at]!
              orders = orders.with(at, {
                ...was,
                order: { ...was.order, maxSpendUsdc: String(s.spend), maxFdvUsdc: s.fdv === null ? null : String(s.fdv), updatedAt: was.order.updatedAt + 1 },
              })
              reparse()
              break
            }
            case 'edit': {
              if (orders.length === 0) break
              const at = s.at % orders.length
              const was = orders[at]!
              const edited = {
                ...was,
                followers: s.followers,
                order: { ...was.order, maxSpendUsdc: String(s.spend), maxFdvUsdc: s.fdv === null ? null : String(s.fdv), updatedAt: was.order.updatedAt + 1 },
              }
              orders = orders.with(at, edited)
              loaded = loaded.with(at, { ...edited, order: { ...edited.order } })
              break
            }
            case 'place':
              orders = [...orders, { order: record(s.spend, s.fdv), userIndex: s.wallet, followers: 0, wallet: walletOf(s.wallet) }]
              reparse()
              break
            case 'delete':
              if (orders.length === 0) break
              orders = orders.filter((_, i) => i !== s.at % orders.length)
              reparse()
              break
            case 'reload':
              reparse()
              break
            case 'transfer': {
              // Within one block: a logged transfer is in the block's Transfer logs; an unlogged move is only allowed
              // across a block not derived from the previous one (a reorg, a skipped block).
              const w = lower(s.wallet)
              const balance = chain.get(w)! + BigInt(s.atoms) * 1_000_000n
              chain.set(w, balance < 0n ? 0n : balance)
              if (s.logged) logged.add(w)
              else logged.add(`unlogged:${w}`)
              break
            }
            case 'block': {
              const unlogged = [...logged].some((w) => w.startsWith('unlogged:'))
              const derived = s.derived && !unlogged
              const since = serial
              serial++
              const changed = new Set([...logged].filter((w) => !w.startsWith('unlogged:')))
              state = derived ? { serial, since: { serial: since, changed } } : { serial }
              logged = new Set()
              block = new Map(chain)
              // The snapshot's map: the block's balances, but for a few wallets it never read.
              known = new Map([...chain].filter(([w]) => !s.unsnapshotted.map(lower).includes(w)))
              unanswered = new Set(s.unanswered.map(lower))
              snapshot = true
              // A tick that began and never finished (its balance read failed): the next block derives from this one's
              // state all the same, and its tick must still be exact.
              if (s.abandoned) held.begin('p', loaded, { known, state })
              // A tick whose candidates were finished but whose plan never ran (its quote or reservation read failed):
              // the held candidates moved on (reusing their arrays) and the book did not.
              else if (s.unplanned) held.begin('p', loaded, { known, state }).finish(new Map([...block].filter(([w]) => !unanswered.has(w))))
              // A block the readying pass primed (ready-ahead.ts: a waiting project's block, nothing read) and brought
              // the book to with the prime's diff, as a project waiting for its launch is; the next tick must be exact.
              // No prime after an abandoned step (still open: the decider primes only projects it does not tick).
              else if (s.primed) {
                const primed = held.prime('p', loaded, { known, state })
                if (primed) {
                  books.prepare('p', { candidates: primed.candidates, policy: spendThenLimitPolicy }, primed.diff)
                  bucketsOf(primed.candidates, primed.diff)
                }
              } else tick()
              break
            }
            case 'noSnapshot': {
              // The tick of a block with no snapshot (store and chain read directly): moves of any kind allowed before it.
              serial++
              logged = new Set()
              block = new Map(chain)
              snapshot = false
              unanswered = new Set()
              tick()
              break
            }
          }
        }
        tick()
      }),
      { numRuns: 300 },
    )
    // The runs carried buckets over unchanged steps (the check above was not vacuous).
    expect(bucketsCarried).toBeGreaterThan(0)
  })

  it('a quiet tick hands back the very same candidates, and the book reuses its book and balances', () => {
    const held = createHeldCandidates<HeldOrder, Held>(candidateOf)
    const orders: HeldOrder[] = [0, 1, 2].map((w) => ({
      order: { keyId: `k${w}`, slug: 'p', status: 'active', maxSpendUsdc: '5', maxFdvUsdc: null, expiresInMs: 3_600_000, createdAt: w, updatedAt: w },
      userIndex: w,
      followers: 0,
      wallet: walletOf(w),
    }))
    const known = new Map([0, 1, 2].map((w) => [lower(w), 7_000_000n]))
    const first = held.begin('p', orders, { known, state: { serial: 1 } }).finish(new Map())
    const quiet = held.begin('p', orders, { known, state: { serial: 2, since: { serial: 1, changed: new Set() } } })
    expect(quiet.missing).toEqual([])
    const second = quiet.finish(new Map())
    expect(second.candidates).toBe(first.candidates)
    // A wallet in the block's Transfer logs is looked up again; one the snapshot lacks is read.
    known.set(lower(1), 9_000_000n)
    known.delete(lower(2))
    const moved = held.begin('p', orders, { known, state: { serial: 3, since: { serial: 2, changed: new Set([lower(1), lower(2)]) } } })
    expect(moved.missing).toEqual([walletOf(2)])
    const third = moved.finish(new Map([[lower(2), 1n]]))
    expect(third.candidates.map((c) => c.balanceAtoms)).toEqual([7_000_000n, 9_000_000n, 1n])
    expect(third.candidates[0]).toBe(first.candidates[0])
    expect(third.diff.rebalanced).toEqual([1, 2])
    // A state not derived from the held one (a reorg, a skipped block): every balance looked up again.
    const jumped = held.begin('p', orders, { known: new Map(), state: { serial: 9 } })
    expect(jumped.missing).toEqual(orders.map((o) => o.wallet))
  })

  it("a primed project's next tick takes the quiet step over the primed candidates; wallets the prime lacked are looked up; no prime while a step is open", () => {
    let built = 0
    const held = createHeldCandidates<HeldOrder, Held>((l, balance) => {
      built++
      return candidateOf(l, balance)
    })
    const orders: HeldOrder[] = [0, 1, 2, 3].map((w) => ({
      order: { keyId: `k${w}`, slug: 'p', status: 'active', maxSpendUsdc: '5', maxFdvUsdc: null, expiresInMs: 3_600_000, createdAt: w, updatedAt: w },
      userIndex: w,
      followers: 0,
      wallet: walletOf(w),
    }))
    // The readying pass's snapshot lacks wallet 3: primed at 0, left unknown.
    const known = new Map([0, 1, 2].map((w) => [lower(w), 7_000_000n]))
    const primed = held.prime('p', orders, { known, state: { serial: 1 } })!
    expect(primed.candidates.map((c) => c.balanceAtoms)).toEqual([7_000_000n, 7_000_000n, 7_000_000n, 0n])
    expect(built).toBe(4)
    // The launch block: wallet 1 moved (its Transfer log), wallet 3 is in the snapshot now.
    known.set(lower(1), 2_000_000n)
    known.set(lower(3), 4_000_000n)
    const launch = held.begin('p', orders, { known, state: { serial: 2, since: { serial: 1, changed: new Set([lower(1)]) } } })
    expect(launch.missing).toEqual([])
    // A prime while the tick's step is open changes nothing.
    expect(held.prime('p', orders, { known, state: { serial: 2 } })).toBeUndefined()
    const { candidates, diff } = launch.finish(new Map())
    expect(candidates).toBe(primed.candidates)
    expect(diff.fromSeq).toBe(primed.diff.seq)
    expect(diff.rebalanced).toEqual([1, 3])
    expect(built).toBe(6)
    expect(candidates.map((c) => c.balanceAtoms)).toEqual([7_000_000n, 2_000_000n, 7_000_000n, 4_000_000n])
    // Finished: primes again.
    expect(held.prime('p', orders, { known, state: { serial: 3, since: { serial: 2, changed: new Set() } } })?.candidates).toBe(candidates)
  })

  it('a quiet tick that rebalances wallets replaces their candidates in the held array itself, and the book plans them as a fresh book would', () => {
    const held = createHeldCandidates<HeldOrder, Held>(candidateOf)
    const books = createBookCache()
    const orders: HeldOrder[] = Array.from({ length: 40 }, (_, i) => ({
      order: {
        keyId: `k${String(i).padStart(2, '0')}`,
        slug: 'p',
        status: 'active',
        maxSpendUsdc: String(5 + (i % 7)),
        maxFdvUsdc: i % 3 === 0 ? null : String(400 + i),
        expiresInMs: 3_600_000,
        createdAt: i,
        updatedAt: i,
      },
      userIndex: i % WALLETS,
      followers: 0,
      wallet: walletOf(i % WALLETS),
    }))
    const known = new Map(Array.from({ length: WALLETS }, (_, w) => [lower(w), BigInt(3 + w) * 1_000_000n]))
    const input = (candidates: readonly Held[]): PlanInput => ({
      tick: { effectiveCapAtoms: (300n * 1_000_000n).toString(), swapsAllowed: true },
      launchedAt: 0,
      now: 1_000,
      totalSupply: 10n ** 27n,
      candidates,
      reservedByWallet: new Map(),
      policy: spendThenLimitPolicy,
    })
    const first = held.begin('p', orders, { known, state: { serial: 1 } }).finish(new Map())
    books.plan('p', input(first.candidates), first.diff)
    for (let serial = 2; serial < 8; serial++) {
      // One or two wallets move each block (their Transfer logs), one of them to nothing.
      const moved = [serial % WALLETS, (serial * 5) % WALLETS]
      known.set(lower(moved[0]!), BigInt(serial) * 2_000_000n)
      known.set(lower(moved[1]!), 0n)
      const step = held.begin('p', orders, { known, state: { serial, since: { serial: serial - 1, changed: new Set(moved.map(lower)) } } })
      const { candidates, diff } = step.finish(new Map())
      expect(candidates).toBe(first.candidates)
      expect(diff.from).toBe(candidates)
      expect(candidates.map((c) => c.balanceAtoms)).toEqual(orders.map((o) => known.get(o.wallet.toLowerCase())!))
      const fresh = candidates.map((c) => ({ ...c, order: { ...c.order } }))
      expect(summary(books.plan('p', input(candidates), diff))).toEqual(summary(planExecution(input(fresh))))
      expect(books.lastUse('p')).toBe('reused')
    }
  })
})
