import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { adminRequests } from '../../../src/admin-api/contract.ts'
import { isPublicText, plainText, publicText, tokenSymbol } from '../../../src/common/public-text.ts'
import { httpUrlSchema, projectUrlSchema } from '../../../src/common/schemas.ts'
import { devBuyTextSchema } from '../../../src/domain/dev-buy-text.ts'

/** Every character class the text rule refuses (src/common/public-text.ts), as code-point ranges. */
const C0_EXCEPT_LAYOUT: Array<[number, number]> = [
  [0x00, 0x08],
  [0x0b, 0x1f],
]
const DEL_AND_C1: Array<[number, number]> = [[0x7f, 0x9f]]
const BIDI: Array<[number, number]> = [
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
]
const ZERO_WIDTH: Array<[number, number]> = [
  [0x200b, 0x200d],
  [0x2060, 0x2060],
  [0xfeff, 0xfeff],
]
const SEPARATORS: Array<[number, number]> = [[0x2028, 0x2029]]
const REFUSED = [...C0_EXCEPT_LAYOUT, ...DEL_AND_C1, ...BIDI, ...ZERO_WIDTH, ...SEPARATORS]

const charIn = (ranges: Array<[number, number]>) =>
  fc.oneof(...ranges.map(([from, to]) => fc.integer({ min: from, max: to }).map((code) => String.fromCodePoint(code))))
/** Ordinary text: printable ASCII and a few scripts, none of the refused classes. */
const safeText = fc.string({ unit: fc.constantFrom(...'abc XYZ 019 .,;:!?-_ éü 月 ☾ $'.split('')), minLength: 1, maxLength: 30 })
const withInside = (ranges: Array<[number, number]>) => fc.tuple(safeText, charIn(ranges), safeText).map(([before, bad, after]) => `a${before}${bad}${after}z`)

describe('the public text rule', () => {
  const line = publicText({ max: 200 })
  const block = publicText({ max: 200, multiline: true })

  it.each([
    ['C0 controls', C0_EXCEPT_LAYOUT],
    ['DEL and C1 controls', DEL_AND_C1],
    ['bidi controls and marks', BIDI],
    ['zero-width characters', ZERO_WIDTH],
    ['line and paragraph separators', SEPARATORS],
  ])('refuses %s anywhere, in one-line and multi-line fields', (_name, ranges) => {
    fc.assert(
      fc.property(withInside(ranges), (value) => {
        expect(line.safeParse(value).success).toBe(false)
        expect(block.safeParse(value).success).toBe(false)
        expect(isPublicText(value)).toBe(false)
        expect(isPublicText(value, { multiline: true })).toBe(false)
      }),
    )
  })

  it('accepts ordinary text (any script), trimmed; newline and tab only in multi-line fields', () => {
    fc.assert(
      fc.property(safeText, (value) => {
        const trimmed = value.trim()
        fc.pre(trimmed.length > 0)
        expect(line.parse(` ${value} `)).toBe(trimmed)
        expect(block.parse(`${value}\n\n\t${value}`)).toBe(`${value}\n\n\t${value}`.trim())
      }),
    )
    expect(line.safeParse('a\nb').success).toBe(false)
    expect(line.safeParse('a\tb').success).toBe(false)
    expect(block.safeParse('a\rb').success).toBe(false)
    expect(line.safeParse('   ').success).toBe(false)
    expect(line.safeParse('x'.repeat(201)).success).toBe(false)
    expect(publicText({ min: 0, max: 5 }).parse('  ')).toBe('')
  })

  it('plain text refuses < and > as well (no markup), keeps JSON', () => {
    const metadata = plainText({ max: 2000 })
    expect(metadata.safeParse('<script>alert(1)</script>').success).toBe(false)
    expect(metadata.safeParse('a > b').success).toBe(false)
    expect(metadata.parse('{"description":"Moon","socialMediaUrls":["https://moon.example"]}')).toContain('Moon')
    fc.assert(
      fc.property(withInside(REFUSED), (value) => {
        expect(metadata.safeParse(value).success).toBe(false)
      }),
    )
  })

  it('a token symbol is 1 to max ASCII letters, digits or $ . _ -', () => {
    const symbol = tokenSymbol(16)
    for (const ok of ['MOON', '$moon', 'm.o_o-n', 'A1', 'S'.repeat(16)]) expect(symbol.safeParse(ok).success, ok).toBe(true)
    for (const bad of ['', 'S'.repeat(17), 'MO ON', 'MOO\u200bN', 'MOON\u202e', 'МООN', '<b>', 'MO\u0000']) {
      expect(symbol.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
    fc.assert(
      fc.property(withInside(REFUSED), (value) => {
        expect(symbol.safeParse(value).success).toBe(false)
      }),
    )
  })
})

describe('the URL rule', () => {
  it('http and https only: javascript:, data:, ftp:, file: and bare text are refused', () => {
    for (const ok of ['https://moon.example', 'http://moon.example/x?y=1#z', 'HTTPS://MOON.EXAMPLE/a'])
      expect(httpUrlSchema.safeParse(ok).success, ok).toBe(true)
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'ftp://moon.example', 'file:///etc/passwd', 'moon.example', '@moon', '']) {
      expect(httpUrlSchema.safeParse(bad).success, bad).toBe(false)
    }
  })

  it('refuses spaces and every refused character class anywhere in a URL', () => {
    fc.assert(
      fc.property(
        charIn([...REFUSED, [0x20, 0x20], [0x09, 0x0a]]),
        fc.constantFrom('https://moon.example/', 'https://moon.example/a?b=', 'http://moon.example/#'),
        (bad, base) => {
          expect(httpUrlSchema.safeParse(`${base}x${bad}y`).success).toBe(false)
        },
      ),
    )
  })

  it('a project URL is an http(s) URL or a social handle (@ and 1 to 64 of letters, digits, _ . -)', () => {
    for (const ok of ['@moon', '@moon_coin.eth-1', `@${'m'.repeat(64)}`, 'https://moon.example']) expect(projectUrlSchema.safeParse(ok).success, ok).toBe(true)
    for (const bad of ['@', `@${'m'.repeat(65)}`, '@mo on', '@moon\u202e', 'moon', 'javascript:alert(1)', 'data:text/html,x', 'ftp://moon.example']) {
      expect(projectUrlSchema.safeParse(bad).success, bad).toBe(false)
    }
  })
})

describe('every public field uses the rules', () => {
  const bidi = 'Moon\u202egpj.exe'
  it('dev-buy texts: name, symbol, image, metadata', () => {
    const ok = { name: 'Moon', symbol: 'MOON', image: 'https://moon.example/m.png', metadata: 'The moon.' }
    expect(devBuyTextSchema.safeParse(ok).success).toBe(true)
    expect(devBuyTextSchema.safeParse({ ...ok, image: '' }).success).toBe(true)
    for (const bad of [
      { name: bidi },
      { name: 'Mo\u200bon' },
      { symbol: 'MO\u200bON' },
      { image: 'javascript:alert(1)' },
      { image: 'data:image/svg+xml,<svg/>' },
      { image: 'ftp://moon.example/m.png' },
      { metadata: '<img src=x onerror=alert(1)>' },
      { metadata: 'a\u0007b' },
    ]) {
      expect(devBuyTextSchema.safeParse({ ...ok, ...bad }).success, JSON.stringify(bad)).toBe(false)
    }
  })

  it('admin: labels, profile edits (identity, bio, team), rejection reasons, social links', () => {
    expect(adminRequests.approveKeyRequest.safeParse({ label: 'a\u0000b' }).success).toBe(false)
    expect(adminRequests.approveRegistration.shape.label.safeParse(bidi).success).toBe(false)
    for (const body of [
      { identity: { displayName: bidi } },
      { identity: { microblogHandle: 'm\u200bn' } },
      { identity: { socialUsername: 'a\u001b[2J' } },
      { content: { bio: ['ok', `x${'\u2066'}y`] } },
      { content: { pfpUrl: 'javascript:alert(1)' } },
      { content: { teamMembers: [{ name: bidi, pfpUrl: 'https://a.example', followerCount: 0, socialUrl: 'https://a.example', roles: [] }] } },
      {
        content: {
          teamMembers: [
            { name: 'A', pfpUrl: 'https://a.example', followerCount: 0, socialUrl: 'https://a.example', roles: [{ projectName: 'P', title: 'C\u202eO' }] },
          ],
        },
      },
    ]) {
      expect(adminRequests.profileUpdate.safeParse(body).success, JSON.stringify(body)).toBe(false)
    }
    expect(adminRequests.profileUpdate.safeParse({ identity: { displayName: 'Moon', socialUsername: '' }, content: { bio: ['a\nb'] } }).success).toBe(true)
    expect(adminRequests.rejectChange.safeParse({ reason: 'no\u202e' }).success).toBe(false)
    expect(adminRequests.reject.safeParse({ note: 'x\u0085' }).success).toBe(false)
    expect(adminRequests.linkSocial.safeParse({ username: 'm\u200doon', url: 'https://x.example', followers: 1 }).success).toBe(false)
  })
})
