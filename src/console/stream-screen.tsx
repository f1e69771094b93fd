import { render, useApp, useInput } from 'ink'
import { type ReactElement, useEffect, useRef, useState } from 'react'
import type { StreamSignal } from '../admin-client/event-stream.ts'
import { fromInkKey } from './ink-key.ts'
import type { KeyPress } from './key-press.ts'

/** A screen fed by the event stream: its pure reducer, and a component that renders the state's view. */
export interface StreamScreen<S> {
  initial: S
  reduceSignals(state: S, signals: readonly StreamSignal[]): S
  reduceKey(state: S, key: KeyPress): S
  quit(state: S): boolean
  render(state: S): ReactElement
}

/** Renders at most this often: signals arriving in between are reduced together (a launch's 500 fills: one frame). */
export const FRAME_MS = 100

/**
 * The Ink side of a stream screen: collects signals and reduces them once per frame, feeds key presses to the reducer,
 * and unmounts when the state says quit. `follow` starts the stream and returns its stop.
 */
function StreamApp<S>(props: { screen: StreamScreen<S>; follow(onSignal: (signal: StreamSignal) => void): () => void }): ReactElement {
  const { screen } = props
  const { exit } = useApp()
  const [state, setState] = useState(screen.initial)
  const queued = useRef<StreamSignal[]>([])
  useEffect(() => {
    const stop = props.follow((signal) => queued.current.push(signal))
    const timer = setInterval(() => {
      if (queued.current.length === 0) return
      const signals = queued.current
      queued.current = []
      setState((current) => screen.reduceSignals(current, signals))
    }, FRAME_MS)
    return () => {
      clearInterval(timer)
      stop()
    }
  }, [props.follow, screen])
  useInput((input, key) => setState((current) => fromInkKey(input, key).reduce(screen.reduceKey, current)))
  useEffect(() => {
    if (screen.quit(state)) exit()
  }, [state, screen, exit])
  return screen.render(state)
}

/** Runs a stream screen in the terminal until it quits (q, Ctrl-C). */
export async function runStreamScreen<S>(screen: StreamScreen<S>, follow: (onSignal: (signal: StreamSignal) => void) => () => void): Promise<void> {
  const app = render(<StreamApp screen={screen} follow={follow} />, { exitOnCtrlC: false, maxFps: 1000 / FRAME_MS })
  await app.waitUntilExit()
}
