import { render } from 'ink-testing-library'
import { describe, expect, it } from 'vitest'
import { key } from '../../../src/console/key-press.ts'
import { initialReviewState, reduceReview, type ReviewState } from '../../../src/console/review/review-state.ts'
import { ReviewScreen } from '../../../src/console/review/review-screen.tsx'
import { reviewView } from '../../../src/console/review/review-view.ts'
import type { ReviewItem } from '../../../src/domain/records.ts'
import { events } from '../../support/console-fixtures.ts'

const frame = (state: ReviewState): string => {
  const { lastFrame, unmount } = render(<ReviewScreen view={reviewView(state)} />)
  const text = lastFrame() ?? ''
  unmount()
  return text
}
const item: ReviewItem = {
  id: 'rev_1',
  kind: 'registration',
  status: 'pending',
  requesterIp: '203.0.113.7',
  createdAt: 0,
  decidedAt: null,
  submission: { projectName: 'Moon', projectUrls: ['https://moon.example'], projectInfo: 'Moon.', contact: '@moon', email: 'team@moon.example' },
}
const loaded = (...items: ReviewItem[]) =>
  reduceReview(initialReviewState(), {
    type: 'signals',
    signals: [{ type: 'connected' }, ...events({ type: 'snapshot', scope: 'reviews', at: 1, reviews: items })],
  })

describe('prebuy review: Ink frames', () => {
  it('the empty queue and the connecting state', () => {
    expect(frame(initialReviewState())).toContain('prebuy · review · connecting to the daemon…')
    const text = frame(loaded())
    expect(text).toContain('0 key requests · 0 registrations · 0 feedback pending')
    expect(text).toContain('Nothing to review.')
  })

  it('the queue with its selection, and the approve form with a field error and the daemon’s error', () => {
    let state = loaded(item)
    expect(frame(state)).toContain('› 1970-01-01 00:00 registration Moon · @moon · 203.0.113.7')
    state = reduceReview(state, { type: 'key', key: key('a') })
    state = reduceReview(state, { type: 'key', key: key('', { tab: true }) })
    state = reduceReview(state, { type: 'key', key: key('0xabc') })
    let text = frame(state)
    expect(text).toContain('Approve the registration')
    expect(text).toMatch(/› creator \/ deployer\s+0xabc expected a 0x-prefixed 20-byte hex address/)
    expect(text).toContain('‹ clanker ›')
    state = reduceReview(state, { type: 'key', key: key('1234567890123456789012345678901234567') })
    state = reduceReview(state, { type: 'key', key: key('', { enter: true }) })
    expect(frame(state)).toContain('approving…')
    state = reduceReview(state, { type: 'effect_failed', id: 2, message: 'A project with this slug already exists.' })
    text = frame(state)
    expect(text).toContain('A project with this slug already exists.')
    expect(text).not.toContain('approving…')
  })

  it('an issued key in a box with its warning', () => {
    let state = reduceReview(loaded(item), { type: 'key', key: key('a') })
    state = reduceReview(state, { type: 'key', key: key('', { tab: true }) })
    state = reduceReview(state, { type: 'key', key: key(`0x${'1'.repeat(40)}`) })
    state = reduceReview(state, { type: 'key', key: key('', { enter: true }) })
    state = reduceReview(state, {
      type: 'effect_done',
      id: 2,
      value: {
        review: { ...item, status: 'approved' },
        project: { slug: 'moon' },
        key: { apiKey: 'prebuy_abc', keyId: 'k', label: 'moon', serviceWalletAddress: '0xw' },
      },
    })
    const text = frame(state)
    expect(text).toContain('╔')
    expect(text).toContain("Project moon created. Its owner's API key:")
    expect(text).toContain('prebuy_abc')
    expect(text).toContain('cannot be recovered')
  })
})
