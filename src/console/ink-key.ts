import type { Key } from 'ink'
import { withoutControls } from '../common/terminal-safe.ts'
import type { KeyPress } from './key-press.ts'

/** Characters that are keys when they arrive inside a chunk: Enter, Backspace (DEL and BS) and Tab. */
const EDIT_KEYS = new Set(['\r', '\n', '\t', '\u0008', '\u007f'])

/**
 * Ink's key report as the reducers' key presses. Ink reports a whole chunk of terminal input at once when it is not an
 * escape sequence: typing fast over SSH or pasting gives `"moon\r"` or `"\x7f\x7f\x7f"` in one call. Such a chunk is
 * split into what was typed: runs of text, Enter, Backspace and Tab (other control characters are dropped).
 */
export function fromInkKey(input: string, key: Key): KeyPress[] {
  if (input.length > 1 && [...EDIT_KEYS].some((char) => input.includes(char))) return splitChunk(input)
  if (input === '\u007f' || input === '\u0008') return [{ input: '', backspace: true }]
  return [
    {
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
    },
  ]
}

export function splitChunk(chunk: string): KeyPress[] {
  const out: KeyPress[] = []
  let text = ''
  const flush = () => {
    if (text) out.push({ input: text })
    text = ''
  }
  for (const char of chunk) {
    if (char === '\r' || char === '\n') {
      flush()
      out.push({ input: '', enter: true })
    } else if (char === '\u007f' || char === '\u0008') {
      flush()
      out.push({ input: '', backspace: true })
    } else if (char === '\t') {
      flush()
      out.push({ input: '', tab: true })
    } else text += withoutControls(char)
  }
  flush()
  return out
}
