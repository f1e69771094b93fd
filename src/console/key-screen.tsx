import { render, useApp, useInput } from 'ink'
import { type ReactElement, useEffect, useState } from 'react'
import { fromInkKey } from './ink-key.ts'
import type { KeyPress } from './key-press.ts'

/** A screen driven by key presses (and optionally a timer): its pure reducer and a component rendering the state's view. */
export interface KeyScreen<S> {
  initial: S
  reduceKey(state: S, key: KeyPress): S
  /** Called every `everyMs` (e.g. replay's play mode). */
  timer?: { everyMs: number; reduce(state: S): S }
  quit(state: S): boolean
  render(state: S): ReactElement
}

function KeyApp<S>({ screen }: { screen: KeyScreen<S> }): ReactElement {
  const { exit } = useApp()
  const [state, setState] = useState(screen.initial)
  useInput((input, key) => setState((current) => fromInkKey(input, key).reduce(screen.reduceKey, current)))
  useEffect(() => {
    const timer = screen.timer
    if (!timer) return
    const handle = setInterval(() => setState((current) => timer.reduce(current)), timer.everyMs)
    return () => clearInterval(handle)
  }, [screen])
  useEffect(() => {
    if (screen.quit(state)) exit()
  }, [state, screen, exit])
  return screen.render(state)
}

/** Runs a key screen in the terminal until it quits. */
export async function runKeyScreen<S>(screen: KeyScreen<S>): Promise<void> {
  const app = render(<KeyApp screen={screen} />, { exitOnCtrlC: false, maxFps: 10 })
  await app.waitUntilExit()
}
