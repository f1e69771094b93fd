import { describe, expect, it } from 'vitest'
import type { IssuedKey, PendingChangeItemView } from '../../../src/admin-api/contract.ts'
import { splitChunk } from '../../../src/console/ink-key.ts'
import { key } from '../../../src/console/key-press.ts'
import { initialReviewState, reduceReview, type ReviewState, slugFrom } from '../../../src/console/review/review-state.ts'
import { reviewText, reviewView } from '../../../src/console/review/review-view.ts'
import type { ReviewItem } from '../../../src/domain/records.ts'
import { events } from '../../support/console-fixtures.ts'

const registration = (id: string, createdAt: number, patch: Partial<ReviewItem> = {}): ReviewItem =>
  ({
    id,
    kind: 'registration',
    status: 'pending',
    requesterIp: '203.0.113.7',
    createdAt,
    decidedAt: null,
    submission: { projectName: `Moon ${id}`, projectUrls: ['https://moon.example'], projectInfo: 'Moon.', contact: '@moon', email: 'team@moon.example' },
    ...patch,
  }) as ReviewItem
const keyRequest = (id: string, createdAt: number): ReviewItem => ({
  id,
  kind: 'key_request',
  status: 'pending',
  requesterIp: '198.51.100.2',
  createdAt,
  decidedAt: null,
  submission: {
    useCases: ['buying_pre_launch_tokens'],
    projectName: 'Buyer Co',
    projectUrls: ['https://b.example'],
    projectInfo: 'We buy.',
    contact: '@buyer',
  },
})
const feedback = (id: string, createdAt: number): ReviewItem => ({
  id,
  kind: 'feedback',
  status: 'pending',
  requesterIp: '',
  createdAt,
  decidedAt: null,
  submission: { message: 'Nice', name: 'Fan', contact: '@fan' },
})

const loaded = (...items: ReviewItem[]): ReviewState =>
  reduceReview(initialReviewState(), {
    type: 'signals',
    signals: [{ type: 'connected' }, ...events({ type: 'snapshot', scope: 'reviews', at: 1, reviews: items })],
  })
const press = (state: ReviewState, ...presses: Array<Parameters<typeof key>>) =>
  presses.reduce((s, p) => reduceReview(s, { type: 'key', key: key(...p) }), state)
const type = (state: ReviewState, text: string) => reduceReview(state, { type: 'key', key: key(text) })
const issued: IssuedKey = { apiKey: 'prebuy_secret', keyId: 'key_1', label: 'moon', serviceWalletAddress: '0x00000000000000000000000000000000000000aa' }

describe('prebuy review: reducer and view model', () => {
  it('starts by loading the blocklist; the queue is the pending items, newest first, with counts per kind', () => {
    expect(initialReviewState().outbox).toEqual([{ id: 1, type: 'load_blocklist' }])
    const state = loaded(registration('r1', 1), keyRequest('k1', 3), feedback('f1', 2), registration('r0', 0, { status: 'approved' }))
    const view = reviewView(state)
    expect(view.counts).toBe('1 key request · 1 registration · 1 feedback pending')
    expect(view.rows.map((r) => [r.id, r.selected])).toEqual([
      ['k1', true],
      ['f1', false],
      ['r1', false],
    ])
    expect(view.position).toBe('1 of 3')
    expect(reviewView(loaded()).empty).toBe('Nothing to review.')
    expect(reviewView(initialReviewState()).empty).toBeNull()
  })

  it('a new submission appears live without moving the selection; a decided one leaves the queue', () => {
    let state = press(loaded(registration('r1', 1), registration('r2', 2)), ['j'])
    expect(reviewView(state).rows.find((r) => r.selected)?.id).toBe('r1')
    state = reduceReview(state, { type: 'signals', signals: events({ type: 'review', item: keyRequest('k9', 9) }) })
    expect(reviewView(state).rows.map((r) => r.id)).toEqual(['k9', 'r2', 'r1'])
    expect(reviewView(state).rows.find((r) => r.selected)?.id).toBe('r1')
    state = reduceReview(state, { type: 'signals', signals: events({ type: 'review', item: registration('r2', 2, { status: 'rejected' }) }) })
    expect(reviewView(state).rows.map((r) => r.id)).toEqual(['k9', 'r1'])
  })

  it('/ filters on name, contact, email, IP or id; Esc clears; Enter keeps', () => {
    let state = press(loaded(registration('r1', 1), keyRequest('k1', 2)), ['/'])
    state = type(state, 'buyer')
    expect(reviewView(state).rows.map((r) => r.id)).toEqual(['k1'])
    expect(reviewView(state).filter).toBe('buyer')
    expect(press(state, ['', { escape: true }]).filter).toBe('')
    state = press(state, ['', { enter: true }])
    expect(state.mode.kind).toBe('list')
    state = press(
      state,
      ['/'],
      ['', { backspace: true }],
      ['', { backspace: true }],
      ['', { backspace: true }],
      ['', { backspace: true }],
      ['', { backspace: true }],
    )
    state = type(state, 'zzz')
    expect(reviewView(state).empty).toBe('Nothing pending matches “zzz”.')
  })

  it('Enter opens every field, the IP and contact with their blocklist state, and earlier submissions from the same contact or IP', () => {
    let state = loaded(registration('r2', 5), registration('r1', 1, { status: 'approved', projectSlug: 'moon' }), keyRequest('k1', 2))
    state = reduceReview(state, { type: 'effect_done', id: 1, value: [{ type: 'ip', value: '203.0.113.7', createdAt: 1 }] })
    state = press(state, ['', { enter: true }])
    const detail = reviewView(state).detail!
    expect(detail.heading).toBe('registration from Moon r2')
    expect(detail.fields).toContainEqual(['email', 'team@moon.example'])
    expect(detail.fields).toContainEqual(['projectUrls', 'https://moon.example'])
    expect(detail.requester).toEqual(['IP 203.0.113.7 (blocked)', 'contact @moon', 'email team@moon.example'])
    expect(detail.earlier).toEqual(['1970-01-01 00:00 registration “Moon r1” approved → moon'])
    expect(press(state, ['', { escape: true }]).mode.kind).toBe('list')

    const many = press(loaded(...Array.from({ length: 12 }, (_, i) => registration(`r${i}`, i))), ['', { enter: true }])
    const earlier = reviewView(many).detail!.earlier
    expect(earlier).toHaveLength(9)
    expect(earlier[8]).toBe('… and 3 more')
  })

  it('approve a registration: a prefilled form validated as typed, refused with the first invalid field, then one effect', () => {
    let state = press(
      loaded(registration('r1', 1, { submission: { projectName: 'Moon Beam!', projectUrls: [], projectInfo: '', contact: '@m', email: 'a@b.c' } } as never)),
      ['a'],
    )
    const form = () => reviewView(state).form!
    expect(form().fields.map((f) => [f.label, f.value])).toEqual([
      ['slug', 'moon-beam'],
      ['creator / deployer', ''],
      ['expected token (optional)', ''],
      ['launchpad', 'clanker'],
      ['chain', 'base'],
      ['launch method', 'open_market'],
      ['token symbol (optional)', ''],
      ['token name (optional)', ''],
    ])
    state = press(state, ['', { enter: true }])
    expect(form().error).toBe('creator / deployer: expected a 0x-prefixed 20-byte hex address')
    expect(state.mode).toMatchObject({ focus: 1 })
    state = type(state, '0x12')
    expect(form().fields[1]).toMatchObject({ value: '0x12', error: 'expected a 0x-prefixed 20-byte hex address', focused: true })
    state = type(state, '34567890123456789012345678901234567890')
    expect(form().fields[1]!.error).toBeNull()
    // q is typed, not a quit, inside the form.
    state = press(
      state,
      ['', { tab: true }],
      ['', { tab: true }],
      ['', { right: true }],
      ['', { down: true }],
      ['', { left: true }],
      ['', { up: true }],
      ['', { up: true }],
      ['q'],
    )
    expect(state.quit).toBe(false)
    expect(form().fields.map((f) => f.value)).toEqual([
      'moon-beam',
      '0x1234567890123456789012345678901234567890',
      'q',
      'doppler',
      'second_chain',
      'open_market',
      '',
      '',
    ])
    expect(form().fields[2]!.error).toBe('expected a 0x-prefixed 20-byte hex address')
    state = press(state, ['', { backspace: true }], ['', { enter: true }])
    expect(state.outbox.at(-1)).toEqual({
      id: 2,
      type: 'approve_registration',
      reviewId: 'r1',
      request: { slug: 'moon-beam', creator: '0x1234567890123456789012345678901234567890', launchpad: 'doppler', chain: 'second_chain', method: 'open_market' },
    })
    expect(form().busy).toBe(true)
    expect(press(state, ['x'])).toBe(state)
  })

  it('approve a registration with the token symbol and name, the second fact with the deployer', () => {
    let state = press(loaded(registration('r1', 1)), ['a'])
    state = press(state, ['', { tab: true }])
    state = type(state, '0x1234567890123456789012345678901234567890')
    // To the symbol: past expected token, launchpad, chain and launch method.
    state = press(state, ['', { tab: true }], ['', { tab: true }], ['', { tab: true }], ['', { tab: true }], ['', { tab: true }])
    state = type(state, 'MOON')
    state = press(state, ['', { tab: true }])
    state = type(state, 'Moon Beam')
    state = press(state, ['', { enter: true }])
    expect(state.outbox.at(-1)).toMatchObject({
      type: 'approve_registration',
      request: { creator: '0x1234567890123456789012345678901234567890', symbol: 'MOON', name: 'Moon Beam' },
    })
    // The daemon's warnings about the deployer, and a binding without a second fact, are in the notice.
    const done = reduceReview(state, {
      type: 'effect_done',
      id: (state.outbox.at(-1) as { id: number }).id,
      value: {
        review: registration('r1', 1, { status: 'approved', projectSlug: 'moon' }),
        key: issued,
        project: { slug: 'moon', launchMethod: 'open_market', expectedSymbol: null, expectedTokenAddress: null },
        deployerWarnings: ['0x12 is a contract on base'],
      },
    })
    expect(done.notice).toBe(
      'approved registration r1 as moon; warning: no symbol or expected token recorded: its launches wait for your confirmation; warning: 0x12 is a contract on base',
    )
  })

  it("the daemon's refusal is shown in the form, which keeps what was typed; success shows the key once, dismissed by Enter", () => {
    let state = press(loaded(registration('r1', 1)), ['a'])
    state = press(state, ['', { tab: true }])
    state = type(state, '0x1234567890123456789012345678901234567890')
    state = press(state, ['', { enter: true }])
    state = reduceReview(state, { type: 'effect_failed', id: 2, message: 'A project with this slug already exists.' })
    expect(reviewView(state).form).toMatchObject({ error: 'A project with this slug already exists.', busy: false })
    expect(reviewView(state).form!.fields[1]!.value).toBe('0x1234567890123456789012345678901234567890')
    state = press(state, ['', { up: true }])
    state = type(state, '-two')
    state = press(state, ['', { enter: true }])
    const approvedItem = registration('r1', 1, { status: 'approved', projectSlug: 'moon-r1-two' })
    state = reduceReview(state, { type: 'effect_done', id: 3, value: { review: approvedItem, key: issued, project: { slug: 'moon-r1-two' } } })
    const view = reviewView(state)
    expect(view.keyBox).toEqual({
      what: "Project moon-r1-two created. Its owner's API key:",
      apiKey: 'prebuy_secret',
      label: 'moon',
      wallet: '0x00000000000000000000000000000000000000aa',
      warning: 'Shown once: copy it now and send it to the submitter. It cannot be recovered; a lost key is revoked and replaced.',
    })
    expect(view.rows).toEqual([])
    state = press(state, ['x'])
    expect(state.mode.kind).toBe('key')
    state = press(state, ['', { enter: true }])
    expect(reviewView(state).keyBox).toBeNull()
    expect(JSON.stringify(reviewView(state))).not.toContain('prebuy_secret')
  })

  it('approve a key request with an optional label; reject with a reason; feedback is neither', () => {
    let state = press(loaded(keyRequest('k1', 2), feedback('f1', 1)), ['a'])
    expect(reviewView(state).form!.fields).toEqual([{ label: 'key label (optional)', value: 'buyer-co', focused: true, error: null, choice: false }])
    state = press(state, ['', { enter: true }])
    expect(state.outbox.at(-1)).toEqual({ id: 2, type: 'approve_key_request', reviewId: 'k1', label: 'buyer-co' })
    state = reduceReview(state, { type: 'effect_done', id: 2, value: { review: { ...keyRequest('k1', 2), status: 'approved' }, key: issued } })
    state = press(state, ['', { enter: true }])
    expect(reviewView(state).rows.map((r) => r.id)).toEqual(['f1'])
    expect(press(state, ['a']).notice).toBe('feedback is read, not approved')
    expect(press(state, ['r']).notice).toBe('feedback is read, not rejected')

    let other = press(loaded(keyRequest('k2', 2)), ['r'])
    other = type(other, 'spam')
    other = press(other, ['', { enter: true }])
    expect(other.outbox.at(-1)).toEqual({ id: 2, type: 'reject', kind: 'key_request', reviewId: 'k2', note: 'spam' })
    other = reduceReview(other, { type: 'effect_done', id: 2, value: { ...keyRequest('k2', 2), status: 'rejected' } })
    expect(reviewView(other)).toMatchObject({ empty: 'Nothing to review.', notice: 'rejected key request k2' })
  })

  it('b blocks the IP, contact and email after y; n cancels', () => {
    let state = press(loaded(registration('r1', 1)), ['b'])
    expect(reviewView(state).block!.entries).toEqual(['ip 203.0.113.7', 'contact @moon', 'email team@moon.example'])
    expect(press(state, ['n']).mode.kind).toBe('list')
    state = press(state, ['y'])
    const effect = state.outbox.at(-1)!
    expect(effect).toMatchObject({ type: 'block', entries: [{ type: 'ip' }, { type: 'contact' }, { type: 'email' }] })
    state = reduceReview(state, { type: 'effect_done', id: effect.id, value: [{ type: 'ip', value: '203.0.113.7', createdAt: 2 }] })
    expect(reviewView(state).notice).toBe('blocked ip 203.0.113.7')
    expect(state.blocklist).toHaveLength(1)
  })

  it('q quits from the list, Ctrl-C from anywhere; a daemon that goes away is shown', () => {
    const state = loaded(registration('r1', 1))
    expect(press(state, ['q']).quit).toBe(true)
    expect(press(press(state, ['a']), ['c', { ctrl: true }]).quit).toBe(true)
    const gone = reduceReview(state, {
      type: 'signals',
      signals: [{ type: 'disconnected', message: 'cannot reach the daemon (ECONNREFUSED)', retryInMs: 500 }],
    })
    expect(reviewView(gone).connection).toEqual({ text: 'daemon unreachable: cannot reach the daemon (ECONNREFUSED); retrying', tone: 'bad' })
  })

  it('hostile submissions cannot reach the terminal raw', () => {
    const state = press(
      loaded(
        registration('r1', 1, {
          submission: { projectName: 'X\u001b]52;c;AAAA\u0007', projectUrls: [], projectInfo: '\u001b[2J', contact: '@a\u009b', email: 'e' },
        } as never),
      ),
      ['', { enter: true }],
    )
    const text = JSON.stringify(reviewView(state)) + reviewText(reviewView(state)).join('\n')
    for (const control of ['\u001b', '\u0007', '\u009b']) expect(text).not.toContain(control)
  })

  it('slugs proposed from names; a pasted or fast-typed chunk is split into what was typed', () => {
    expect([slugFrom('Moon Beam!'), slugFrom('  --Ünïcode 42 '), slugFrom('x'.repeat(80))]).toEqual(['moon-beam', 'n-code-42', 'x'.repeat(64)])
    expect(splitChunk('moon\u007f\u007fx\r\tq\u001b')).toEqual([
      { input: 'moon' },
      { input: '', backspace: true },
      { input: '', backspace: true },
      { input: 'x' },
      { input: '', enter: true },
      { input: '', tab: true },
      { input: 'q' },
    ])
  })

  it("lists the owners' changes of what the orders buy; C confirms the first, X rejects it with a required reason", () => {
    const change: PendingChangeItemView = {
      slug: 'moon',
      displayName: 'Moon',
      change: {
        kind: 'launch_binding',
        status: 'awaiting_confirmation',
        proposed: {
          kind: 'launch_binding',
          creatorAddress: '0x00000000000000000000000000000000000000c1',
          expectedTokenAddress: '0x00000000000000000000000000000000000000a7',
        },
        proposedAt: '2026-01-01T00:00:00.000Z',
        confirmedAt: null,
        effectiveAt: null,
      },
      inForce: { kind: 'launch_binding', creatorAddress: '0x00000000000000000000000000000000000000c1', expectedTokenAddress: null },
      ordersBefore: 2,
    }
    const empty = loaded()
    expect(reviewView(empty).changes).toEqual({ title: 'No owner change waits.', lines: [] })
    expect(type(empty, 'C').notice).toBe('no owner change waits')
    const state = reduceReview(empty, { type: 'changes', items: [change] })
    const view = reviewView(state)
    expect(view.changes.title).toContain('(1)')
    expect(view.changes.lines).toEqual([
      'moon launch_binding: deployer 0x00000000000000000000000000000000000000c1, expected token none → deployer 0x00000000000000000000000000000000000000c1, expected token 0x00000000000000000000000000000000000000a7 · proposed 2026-01-01T00:00:00.000Z, awaiting confirmation · 2 older orders',
    ])
    expect(reviewText(view)).toContain(`  ${view.changes.lines[0]}`)

    const confirming = type(state, 'C')
    expect(confirming.outbox.at(-1)).toEqual({ id: 2, type: 'confirm_change', slug: 'moon', kind: 'launch_binding' })
    const confirmed = reduceReview(confirming, {
      type: 'effect_done',
      id: 2,
      value: { outcome: 'awaiting_notice', pendingChange: { effectiveAt: '2026-01-03T00:00:00.000Z' } },
    })
    expect(confirmed.notice).toBe('confirmed the launch_binding change of moon: in force at 2026-01-03T00:00:00.000Z (notice)')
    expect(confirmed.outbox.at(-1)).toMatchObject({ type: 'load_changes' })

    let rejecting = type(state, 'X')
    expect(rejecting.mode.kind).toBe('reject_change')
    rejecting = press(rejecting, ['', { enter: true }])
    expect(reviewView(rejecting).rejectChange?.error).toContain('a reason is required')
    for (const ch of 'stranger') rejecting = type(rejecting, ch)
    rejecting = press(rejecting, ['', { enter: true }])
    expect(rejecting.outbox.at(-1)).toEqual({ id: 2, type: 'reject_change', slug: 'moon', kind: 'launch_binding', reason: 'stranger' })
    const rejected = reduceReview(rejecting, { type: 'effect_done', id: 2, value: {} })
    expect(rejected.mode).toEqual({ kind: 'list' })
    expect(rejected.notice).toBe('rejected the launch_binding change of moon')
  })
})
