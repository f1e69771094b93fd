import { describe, expect, it } from 'vitest'
import { createSseParser } from '../../../src/admin-client/event-stream.ts'
import { median, percent, shortHex, sparkline, usd, usdAtoms } from '../../../src/console/format-numbers.ts'

describe('server-sent events parser', () => {
  it('parses messages split anywhere across chunks, with ids, types, multi-line data and comments', () => {
    const parse = createSseParser()
    const text = 'retry: 1000\n\n: ping\n\nid: b-1\nevent: tick\ndata: {"a":1}\n\nid: b-2\r\nevent: order\r\ndata: line1\r\ndata: line2\r\n\r\ndata: x\n\n'
    const out = []
    for (let i = 0; i < text.length; i += 3) out.push(...parse(text.slice(i, i + 3)))
    expect(out).toEqual([
      { id: 'b-1', event: 'tick', data: '{"a":1}' },
      { id: 'b-2', event: 'order', data: 'line1\nline2' },
      // The id field persists (the spec's "last event ID buffer").
      { id: 'b-2', event: 'message', data: 'x' },
    ])
  })
})

describe('console figures', () => {
  it('formats USD, percentages, hex and medians', () => {
    expect([usd(0), usd(12.345), usd(950), usd(12_300), usd(1_234_567), usd(2.5e9), usd(Number.POSITIVE_INFINITY)]).toEqual([
      '$0',
      '$12.35',
      '$950',
      '$12.3k',
      '$1.23M',
      '$2.5B',
      '∞',
    ])
    expect([usdAtoms('30000000000'), usdAtoms(null)]).toEqual(['$30k', '∞'])
    expect([percent(0.2), percent(0.1253), percent(1)]).toEqual(['20%', '12.53%', '100%'])
    expect(shortHex('0x1234567890abcdef1234')).toBe('0x1234…1234')
    expect([median([3, 1, 2]), median([4, 1, 2, 3])]).toEqual([2, 2.5])
  })

  it('sparkline: log scale, resampled to the width, infinite values as dots', () => {
    expect(sparkline([], 10)).toBe('')
    expect(sparkline([5, 5, 5], 10)).toBe('▄▄▄')
    expect(sparkline([1, 10, 100, 1000], 10)).toBe('▁▃▆█')
    expect(sparkline([null, 100, 1], 10)).toBe('·█▁')
    expect(
      sparkline(
        Array.from({ length: 1000 }, (_, i) => 1000 - i),
        40,
      ),
    ).toHaveLength(40)
  })
})
