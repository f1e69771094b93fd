/** A key press as the screens' reducers see it (the Ink runner translates Ink's `useInput` into this). */
export interface KeyPress {
  /** The printable character typed, '' for a special key. */
  input: string
  up?: boolean
  down?: boolean
  left?: boolean
  right?: boolean
  home?: boolean
  end?: boolean
  enter?: boolean
  escape?: boolean
  backspace?: boolean
  tab?: boolean
  ctrl?: boolean
}

/** Ctrl-C or `q`: every screen quits on them (`q` only where it is not typed into a field). */
export const isInterrupt = (key: KeyPress): boolean => key.ctrl === true && key.input === 'c'

export const key = (input: string, extra: Omit<KeyPress, 'input'> = {}): KeyPress => ({ input, ...extra })
