import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { createFundedCandidates } from '../../../src/domain/execution/funded-candidates.ts'
import { createHeldCandidates, type HeldOrder } from '../../../src/domain/execution/held-candidates.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'

type Held = HeldOrder & { balanceAtoms: bigint }
const wallet = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Address

/**
 * The funded candidates kept by the held candidates' diffs (funded-candidates.ts): a tick reads only the candidates
 * its diff names. (That they equal a filter of every candidate is checked in held-candidates.test.ts's property.)
 */
describe('funded candidates from tick to tick', () => {
  it('a quiet tick reads no candidate, a balance move or a PATCH only the changed ones (1,000 orders)', () => {
    let reads = 0
    // Every candidate's order and balance read counted.
    const candidateOf = (l: HeldOrder, balanceAtoms: bigint): Held => {
      const c = { userIndex: l.userIndex, followers: l.followers, wallet: l.wallet } as Held
      const counted =
        <T>(value: T) =>
        () => {
          reads++
          return value
        }
      Object.defineProperty(c, 'order', { enumerable: true, get: counted(l.order) })
      Object.defineProperty(c, 'balanceAtoms', { enumerable: true, get: counted(balanceAtoms) })
      return c
    }
    const record = (i: number, maxSpendUsdc = '10'): OrderRecord => ({
      keyId: `key_${String(i).padStart(5, '0')}`,
      slug: 'p',
      status: 'active',
      maxSpendUsdc,
      maxFdvUsdc: '1000',
      expiresInMs: 3_600_000,
      createdAt: i,
      updatedAt: i,
    })
    const loaded: HeldOrder[] = Array.from({ length: 1_000 }, (_, i) => ({ order: record(i), userIndex: i, followers: 0, wallet: wallet(i) }))
    // Every tenth wallet funded.
    const balances = new Map(loaded.map((l, i) => [l.wallet.toLowerCase(), i % 10 === 0 ? 5n : 0n]))
    const held = createHeldCandidates<HeldOrder, Held>(candidateOf)
    const funded = createFundedCandidates<Held>()
    const tick = (list: readonly HeldOrder[], serial: number, changed: string[] = []) => {
      const step = held.begin('p', list, { known: balances, state: { serial, since: { serial: serial - 1, changed: new Set(changed) } } })
      const { candidates, diff } = step.finish(new Map())
      reads = 0
      const out = funded.of('p', candidates, diff)
      return { out: out.map((c) => c.userIndex), reads }
    }
    const first = tick(loaded, 1)
    expect(first.out).toHaveLength(100)
    // The first tick looks at every candidate.
    expect(first.reads).toBeGreaterThanOrEqual(1_000)
    expect(tick(loaded, 2)).toEqual({ out: first.out, reads: 0 })
    // Wallet 3 funded in this block: its candidate alone is read.
    balances.set(wallet(3).toLowerCase(), 7n)
    const moved = tick(loaded, 3, [wallet(3).toLowerCase()])
    expect(moved.out).toEqual([...first.out.slice(0, 1), 3, ...first.out.slice(1)])
    expect(moved.reads).toBeLessThanOrEqual(2)
    // A PATCH of order 20 (a new list, that one entry edited): its new candidate alone is read.
    const patched = loaded.with(20, { ...loaded[20]!, order: record(20, '42') })
    const afterPatch = tick(patched, 4)
    expect(afterPatch.out).toEqual(moved.out)
    expect(afterPatch.reads).toBeLessThanOrEqual(2)
    // Order 30 deleted: no candidate read.
    const deleted = patched.filter((_, i) => i !== 30)
    const afterDelete = tick(deleted, 5)
    expect(afterDelete.out).toEqual(moved.out.filter((u) => u !== 30))
    expect(afterDelete.reads).toBe(0)
  })
})
