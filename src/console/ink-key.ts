import type { Key } from 'ink'
import type { KeyPress } from './key-press.ts'

/** Ink's key report as the reducers' KeyPress (only the keys the screens use). */
export function fromInkKey(input: string, key: Key): KeyPress {
  return {
    input,
    ...(key.upArrow ? { up: true } : {}),
    ...(key.downArrow ? { down: true } : {}),
    ...(key.leftArrow ? { left: true } : {}),
    ...(key.rightArrow ? { right: true } : {}),
    ...(key.home ? { home: true } : {}),
    ...(key.end ? { end: true } : {}),
    ...(key.return ? { enter: true } : {}),
    ...(key.escape ? { escape: true } : {}),
    ...(key.backspace || key.delete ? { backspace: true } : {}),
    ...(key.tab ? { tab: true } : {}),
    ...(key.ctrl ? { ctrl: true } : {}),
  }
}
