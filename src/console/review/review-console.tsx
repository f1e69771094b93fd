import { render, useApp, useInput } from 'ink'
import { type ReactElement, useEffect, useRef, useState } from 'react'
import type { AdminClient } from '../../admin-client/admin-client.ts'
import type { StreamSignal } from '../../admin-client/event-stream.ts'
import { fromInkKey } from '../ink-key.ts'
import { FRAME_MS } from '../stream-screen.tsx'
import { performReviewEffect } from './review-effects.ts'
import { initialReviewState, reduceReview, type ReviewAction, type ReviewState } from './review-state.ts'
import { ReviewScreen } from './review-screen.tsx'
import { reviewView } from './review-view.ts'

/** How often the review screen reads the owners' changes (a change shows up within this). */
const CHANGES_POLL_MS = 2_000

type Follow = (onSignal: (signal: StreamSignal) => void) => () => void

/** `prebuy review` in the terminal: the reducer fed by the reviews stream, key presses and the effects' outcomes. */
function ReviewApp({ client, follow }: { client: AdminClient; follow: Follow }): ReactElement {
  const { exit } = useApp()
  const [state, setState] = useState<ReviewState>(initialReviewState)
  const dispatch = (action: ReviewAction) => setState((current) => reduceReview(current, action))
  const queued = useRef<StreamSignal[]>([])
  const started = useRef(new Set<number>())
  useEffect(() => {
    const stop = follow((signal) => queued.current.push(signal))
    const timer = setInterval(() => {
      if (queued.current.length === 0) return
      const signals = queued.current
      queued.current = []
      setState((current) => reduceReview(current, { type: 'signals', signals }))
    }, FRAME_MS)
    return () => {
      clearInterval(timer)
      stop()
    }
  }, [follow])
  // Owners' changes of what the orders buy are not on the reviews stream: read now and every few seconds.
  useEffect(() => {
    let stopped = false
    const read = () =>
      client.pendingChanges().then(
        (items) => stopped || setState((current) => reduceReview(current, { type: 'changes', items })),
        () => undefined,
      )
    void read()
    const timer = setInterval(read, CHANGES_POLL_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [client])
  useInput((input, key) => {
    for (const press of fromInkKey(input, key)) dispatch({ type: 'key', key: press })
  })
  useEffect(() => {
    for (const effect of state.outbox) {
      if (started.current.has(effect.id)) continue
      started.current.add(effect.id)
      performReviewEffect(client, effect).then(
        (value) => setState((current) => reduceReview(current, { type: 'effect_done', id: effect.id, value })),
        (error: Error) => setState((current) => reduceReview(current, { type: 'effect_failed', id: effect.id, message: error.message })),
      )
    }
  }, [state.outbox, client])
  useEffect(() => {
    if (state.quit) exit()
  }, [state.quit, exit])
  return <ReviewScreen view={reviewView(state)} />
}

/** Runs the review screen until it quits. */
export async function runReviewScreen(client: AdminClient, follow: Follow): Promise<void> {
  const app = render(<ReviewApp client={client} follow={follow} />, { exitOnCtrlC: false, maxFps: 1000 / FRAME_MS })
  await app.waitUntilExit()
}
