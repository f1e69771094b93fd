import { describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/common/logger.ts'

function capture() {
  const lines: string[] = []
  return { lines, destination: { write: (text: string) => void lines.push(text) } }
}

describe('pretty logs (a daemon started in a terminal)', () => {
  it('are human-readable lines, not JSON, with the level, the message and the fields', () => {
    const out = capture()
    createLogger({ pretty: true, destination: out.destination }).info({ chain: 'base', block: 12 }, 'launch seen')
    const text = out.lines.join('')
    expect(() => JSON.parse(text)).toThrow()
    expect(text).toMatch(/INFO.*launch seen/)
    expect(text).toContain('chain: "base"')
    expect(text).toContain('block: 12')
  })

  it('escape control characters from logged values: a hostile label cannot drive the terminal', () => {
    const out = capture()
    createLogger({ pretty: true, destination: out.destination }).warn({ label: 'evil\u001b[2J\u009b31m' }, 'key issued \u001b]52;c;cGF3bmVk\u0007')
    const text = out.lines.join('')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    // The field's controls are shown escaped (ESC as JSON writes it, the C1 CSI by our escaping); pino-pretty drops
    // the message's.
    expect(text).toContain('evil\\u001b[2J\\x9b31m')
    expect(text).toContain('key issued ]52;c;cGF3bmVk')
  })

  it('still redact secrets', () => {
    const out = capture()
    createLogger({ pretty: true, destination: out.destination }).info({ apiKey: 'prebuy_sk_secret' }, 'x')
    expect(out.lines.join('')).not.toContain('prebuy_sk_secret')
  })
})
