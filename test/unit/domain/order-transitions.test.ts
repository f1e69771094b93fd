import { describe, expect, it } from 'vitest'
import { ORDER_ITEM_CODES } from '../../../src/domain/order-codes.ts'
import {
  CAUSED_ORDER_MOVES,
  canMoveOrder,
  decideCreate,
  decideDelete,
  decidePatch,
  markDuplicates,
  type OrderOrigin,
} from '../../../src/domain/order-transitions.ts'
import { ORDER_STATUSES, type OrderRecord, type OrderStatus, type ProjectRecord } from '../../../src/domain/records.ts'
import { projectRecord } from '../../support/records.ts'

const project = (launched = false): ProjectRecord =>
  projectRecord('alpha', { launch: launched ? { chain: 'base', tokenAddress: '0x02', symbol: 'A', name: 'A', decimals: 18, launchedAt: 1 } : null })
const order = (status: OrderStatus): OrderRecord => ({
  keyId: 'k',
  slug: 'alpha',
  status,
  maxSpendUsdc: '100',
  maxFdvUsdc: '400000',
  expiresInMs: 60_000,
  createdAt: 1,
  updatedAt: 1,
})
const values = { maxSpendUsdc: '100', maxFdvUsdc: '400000', expiresInMs: 60_000 }

describe('decideCreate', () => {
  const base = { keyId: 'k', slug: 'alpha', values, now: 50 }
  it('creates an active order when none exists', () => {
    const decision = decideCreate({ ...base, project: project(), existing: undefined })
    expect(decision.result).toEqual({ slug: 'alpha', ok: true, status: 'created' })
    expect(decision.next).toMatchObject({ status: 'active', maxSpendUsdc: '100', createdAt: 50, updatedAt: 50 })
  })
  it('unknown project', () => {
    expect(decideCreate({ ...base, project: undefined, existing: undefined }).result).toMatchObject({ ok: false, code: 'unknown_project' })
  })
  it('active order: unchanged and not modified, even with other values', () => {
    const decision = decideCreate({ ...base, values: { ...values, maxSpendUsdc: '5' }, project: project(), existing: order('active') })
    expect(decision).toEqual({ result: { slug: 'alpha', ok: true, status: 'unchanged' } })
  })
  it('re-creates after deleted, expired or failed', () => {
    for (const status of ['deleted', 'expired', 'failed'] as const) {
      const decision = decideCreate({ ...base, project: project(), existing: order(status) })
      expect(decision.result, status).toMatchObject({ ok: true, status: 'created' })
      expect(decision.next?.createdAt).toBe(50)
    }
  })
  it('refuses new orders after launch, but an existing active order is still unchanged', () => {
    expect(decideCreate({ ...base, project: project(true), existing: undefined }).result).toMatchObject({ code: 'project_launched' })
    expect(decideCreate({ ...base, project: project(true), existing: order('filled') }).result).toMatchObject({ code: 'project_launched' })
    expect(decideCreate({ ...base, project: project(true), existing: order('active') }).result).toMatchObject({ status: 'unchanged' })
  })
  it('reports invalid values before idempotency', () => {
    expect(decideCreate({ ...base, values: { ...values, maxSpendUsdc: '0' }, project: project(), existing: order('active') }).result).toMatchObject({
      ok: false,
      code: 'invalid_amount',
      message: ORDER_ITEM_CODES.invalid_amount,
    })
  })
})

describe('decidePatch', () => {
  const base = { slug: 'alpha', now: 70 }
  it('updates changed values and bumps updatedAt', () => {
    const decision = decidePatch({ ...base, project: project(), existing: order('active'), values: { maxFdvUsdc: null } })
    expect(decision.result).toMatchObject({ ok: true, status: 'updated' })
    expect(decision.next).toMatchObject({ maxFdvUsdc: null, maxSpendUsdc: '100', updatedAt: 70, createdAt: 1 })
  })
  it('unchanged when the values equal the current ones (after normalisation)', () => {
    expect(decidePatch({ ...base, project: project(), existing: order('active'), values: { maxSpendUsdc: '100.000' } })).toEqual({
      result: { slug: 'alpha', ok: true, status: 'unchanged' },
    })
  })
  it('no_active_order for none or deleted; order_not_active for the executor states', () => {
    expect(decidePatch({ ...base, project: project(), existing: undefined, values: { expiresInMs: 5 } }).result).toMatchObject({ code: 'no_active_order' })
    expect(decidePatch({ ...base, project: project(), existing: order('deleted'), values: { expiresInMs: 5 } }).result).toMatchObject({
      code: 'no_active_order',
    })
    for (const status of ['executing', 'filled', 'expired', 'failed'] as const) {
      expect(decidePatch({ ...base, project: project(), existing: order(status), values: { expiresInMs: 5 } }).result, status).toMatchObject({
        code: 'order_not_active',
      })
    }
  })
  it('allowed after launch while still active; unknown project; invalid values', () => {
    expect(decidePatch({ ...base, project: project(true), existing: order('active'), values: { expiresInMs: 5 } }).result).toMatchObject({ status: 'updated' })
    expect(decidePatch({ ...base, project: undefined, existing: undefined, values: { expiresInMs: 5 } }).result).toMatchObject({ code: 'unknown_project' })
    expect(decidePatch({ ...base, project: project(), existing: order('active'), values: { expiresInMs: 0 } }).result).toMatchObject({ code: 'invalid_expiry' })
  })
})

describe('decideDelete', () => {
  const base = { slug: 'alpha', now: 90 }
  it('deletes an active order', () => {
    const decision = decideDelete({ ...base, project: project(), existing: order('active') })
    expect(decision.result).toMatchObject({ ok: true, status: 'deleted' })
    expect(decision.next).toMatchObject({ status: 'deleted', updatedAt: 90 })
  })
  it('already_deleted without an active order, leaving the record as it is', () => {
    for (const existing of [undefined, order('deleted'), order('filled'), order('expired'), order('failed')]) {
      expect(decideDelete({ ...base, project: project(), existing })).toEqual({ result: { slug: 'alpha', ok: true, status: 'already_deleted' } })
    }
  })
  it('executing orders cannot be deleted; unknown projects are reported', () => {
    expect(decideDelete({ ...base, project: project(), existing: order('executing') }).result).toMatchObject({ code: 'order_executing' })
    expect(decideDelete({ ...base, project: undefined, existing: undefined }).result).toMatchObject({ code: 'unknown_project' })
  })
})

it('markDuplicates flags every repeat after the first occurrence', () => {
  expect(markDuplicates([{ slug: 'a' }, { slug: 'b' }, { slug: 'a' }, { slug: 'a' }])).toEqual([false, false, true, true])
})

describe('the order state machine', () => {
  it('lets the executor buy, settle, expire and undo or re-point a fill, and nothing else', () => {
    const allowed = (from: OrderOrigin) => ORDER_STATUSES.filter((to) => canMoveOrder('executor', from, to))
    expect(allowed('none')).toEqual([])
    expect(allowed('active')).toEqual(['executing', 'expired'])
    expect(allowed('executing')).toEqual(['active', 'filled', 'failed'])
    expect(allowed('filled')).toEqual(['active', 'filled'])
    for (const from of ['expired', 'failed', 'deleted'] as const) expect(allowed(from), from).toEqual([])
  })

  it('a batch a reorg undid holds its filled orders executing again: only the executor, only filled -> executing, only with that cause', () => {
    const withCause = (by: 'executor' | 'api', from: OrderOrigin) => ORDER_STATUSES.filter((to) => canMoveOrder(by, from, to, 'batch_undone_by_reorg'))
    expect(canMoveOrder('executor', 'filled', 'executing')).toBe(false)
    expect(withCause('executor', 'filled')).toEqual(['executing'])
    // The cause allows that move and nothing else, not even the moves allowed without it.
    for (const from of ['none', ...ORDER_STATUSES] as const) if (from !== 'filled') expect(withCause('executor', from), from).toEqual([])
    for (const from of ['none', ...ORDER_STATUSES] as const) expect(withCause('api', from), from).toEqual([])
    expect(CAUSED_ORDER_MOVES).toEqual({ batch_undone_by_reorg: { writer: 'executor', from: 'filled', to: 'executing' } })
  })

  it('lets the API place, edit, cancel and re-place orders, never touching one being bought', () => {
    const allowed = (from: OrderOrigin) => ORDER_STATUSES.filter((to) => canMoveOrder('api', from, to))
    expect(allowed('none')).toEqual(['active'])
    expect(allowed('active')).toEqual(['active', 'deleted'])
    expect(allowed('executing')).toEqual([])
    for (const from of ['deleted', 'expired', 'failed', 'filled'] as const) expect(allowed(from), from).toEqual(['active'])
  })

  it('every move the decide functions make is one the API may make', () => {
    const unlaunched = project()
    const values = { maxSpendUsdc: '10', maxFdvUsdc: null, expiresInMs: 60_000 }
    for (const from of [undefined, ...ORDER_STATUSES]) {
      const existing: OrderRecord | undefined =
        from === undefined ? undefined : { keyId: 'k', slug: 'alpha', status: from, ...values, maxSpendUsdc: '5', createdAt: 1, updatedAt: 1 }
      const decisions = [
        decideCreate({ keyId: 'k', slug: 'alpha', project: unlaunched, existing, values, now: 2 }),
        decidePatch({ slug: 'alpha', project: unlaunched, existing, values: { maxSpendUsdc: '7' }, now: 2 }),
        decideDelete({ slug: 'alpha', project: unlaunched, existing, now: 2 }),
      ]
      for (const { next } of decisions) if (next) expect(canMoveOrder('api', from ?? 'none', next.status), `${from} -> ${next.status}`).toBe(true)
    }
  })
})
