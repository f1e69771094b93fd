/**
 * Text from the outside world (labels, project names, feedback, addresses typed by anyone) printed to an operator's
 * terminal must not be able to drive it: an ESC or CSI starts a control sequence (clear the screen, move the cursor
 * to overwrite what was printed, OSC 8 hyperlinks, OSC 52 clipboard writes), a BEL rings, a carriage return rewrites
 * the line, and bidirectional overrides reorder what the operator reads. Every such character is shown escaped
 * (`\x1b`, `\u202e`) instead, visibly and losslessly.
 *
 * Covered: C0 controls except the layout characters a caller allows, DEL, C1 controls (U+0080-U+009F: U+009B is a
 * one-character CSI in terminals that take 8-bit controls), the bidi embedding/override/isolate controls
 * (U+202A-U+202E, U+2066-U+2069) and marks (U+200E, U+200F), the zero-width characters (U+200B-U+200D, U+2060,
 * U+FEFF: a label that looks like another), the line and paragraph separators (U+2028, U+2029). The same classes the
 * public-text rule refuses at input (src/common/public-text.ts); this covers what was stored before that rule.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_EXCEPT_NEWLINE_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g

const escapeChar = (char: string): string => {
  const code = char.codePointAt(0) ?? 0
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** Text typed into a field: every character terminal-safe would escape, removed (a field holds no control character). */
export const withoutControls = (text: string): string => text.replace(UNSAFE, '')

/** One line of text (a table cell, a value): every control character escaped, newlines and tabs included. */
export const terminalSafeLine = (text: string): string => text.replace(UNSAFE, escapeChar)

/** Text of several lines we laid out ourselves: newlines and tabs kept, every other control escaped. */
export const terminalSafe = (text: string): string => text.replace(UNSAFE_EXCEPT_NEWLINE_TAB, escapeChar)

/**
 * JSON for a terminal: JSON.stringify already escapes C0 controls inside strings, but not DEL, C1 or the bidi
 * controls, zero-width characters and bidi marks; those are written as JSON \u escapes, so the output parses to the same value.
 */
export const terminalSafeJson = (json: string): string =>
  json.replace(
    /[\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  )
