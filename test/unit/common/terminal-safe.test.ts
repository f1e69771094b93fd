import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatTable } from '../../../src/admin-client/cli/format.ts'
import { terminalSafe, terminalSafeJson, terminalSafeLine } from '../../../src/common/terminal-safe.ts'

/** Anything a terminal would act on: C0 but newline/tab, DEL, C1, bidi controls, line/paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

describe('terminal-safe text (what operators see of public fields)', () => {
  it('escapes clear-screen, OSC 8 hyperlinks, OSC 52 clipboard writes, 8-bit CSI, BEL, CR and bidi overrides, visibly', () => {
    expect(terminalSafeLine('\u001b[2J\u001b[Hhello')).toBe('\\x1b[2J\\x1b[Hhello')
    expect(terminalSafeLine('\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007')).toBe('\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07')
    expect(terminalSafeLine('\u001b]52;c;cm0gLXJmIH4=\u0007')).toBe('\\x1b]52;c;cm0gLXJmIH4=\\x07')
    expect(terminalSafeLine('\u009b31m red')).toBe('\\x9b31m red')
    expect(terminalSafeLine('approved\rrejected')).toBe('approved\\x0drejected')
    expect(terminalSafeLine('abc\u202eexe.txt')).toBe('abc\\u202eexe.txt')
    expect(terminalSafe('line one\n\tline two\u001b[1A')).toBe('line one\n\tline two\\x1b[1A')
    expect(terminalSafeLine('ünïcödé 日本 🚀 $ok')).toBe('ünïcödé 日本 🚀 $ok')
  })

  it('never lets an active character through, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(ACTIVE.test(terminalSafeLine(text))).toBe(false)
        expect(/[\n\t]/.test(terminalSafeLine(text))).toBe(false)
        expect(ACTIVE.test(terminalSafe(text))).toBe(false)
      }),
    )
  })

  it('JSON output stays the same value once parsed, with no active character written raw', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string({ unit: 'binary', maxLength: 50 })), (value) => {
        const json = terminalSafeJson(JSON.stringify(value, null, 2))
        expect(ACTIVE.test(json)).toBe(false)
        expect(JSON.parse(json)).toEqual(value)
      }),
    )
  })

  it('table cells: escapes in labels and nested objects, one line per row', () => {
    const table = formatTable([{ label: 'bad\u001b[2Jlabel', info: { note: 'x\u009by' } }], ['label', 'info'])
    expect(ACTIVE.test(table)).toBe(false)
    expect(table.split('\n')).toHaveLength(2)
    expect(table).toContain('bad\\x1b[2Jlabel')
  })
})

describe('terminal-safe: zero-width characters and bidi marks (issue 24: stored before the public-text rule)', () => {
  it('escapes U+200B-U+200F, U+2060 and U+FEFF visibly', () => {
    expect(terminalSafeLine('a\u200bb\u200dc\u200ed\u200fe\u2060f\ufeffg')).toBe('a\\u200bb\\u200dc\\u200ed\\u200fe\\u2060f\\ufeffg')
    expect(terminalSafe('x\u200by\nz')).toBe('x\\u200by\nz')
    const json = terminalSafeJson(JSON.stringify({ label: 'a\u200bb\ufeff' }))
    expect(json).toBe('{"label":"a\\u200bb\\ufeff"}')
    expect(JSON.parse(json)).toEqual({ label: 'a\u200bb\ufeff' })
  })
})
