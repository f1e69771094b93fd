import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trustedSpace } from '../../../src/config/trust-proxy-coverage.ts'

describe('trustedSpace', () => {
  it('names the whole space a list covers, however it is split', () => {
    expect(trustedSpace(['0.0.0.0/0'])).toBe('every IPv4 address')
    expect(trustedSpace(['0.0.0.0/1', '128.0.0.0/1'])).toBe('every IPv4 address')
    expect(trustedSpace(['128.0.0.0/2', '0.0.0.0/1', '192.0.0.0/2'])).toBe('every IPv4 address')
    expect(trustedSpace(['::ffff:0:0/96'])).toBe('every IPv4 address')
    expect(trustedSpace(['::ffff:0.0.0.0/97', '128.0.0.0/1'])).toBe('every IPv4 address')
    expect(trustedSpace(['::/0'])).toBe('every IPv6 address')
    expect(trustedSpace(['::/1', '8000::/1'])).toBe('every IPv6 address')
    expect(trustedSpace(['2000::/3'])).toBe('every public IPv6 address')
  })

  it('accepts lists of real proxies, and ranges with a gap', () => {
    expect(trustedSpace(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1'])).toBeUndefined()
    expect(trustedSpace(['0.0.0.0/1', '128.0.0.0/2', '192.0.0.0/3', '224.0.0.0/4'])).toBeUndefined() // 240.0.0.0/4 left out
    expect(trustedSpace(['0.0.0.0/1', '128.0.0.0/1'].map((cidr) => cidr.replace('/1', '/2')))).toBeUndefined()
    expect(trustedSpace(['255.255.255.255', '0.0.0.0/1'])).toBeUndefined()
  })

  it('any split of the IPv4 space into CIDR blocks covers it; leaving one block out does not', () => {
    // A random partition of 0.0.0.0/0: split a block into its halves, repeatedly.
    const partition = fc.array(fc.nat(), { minLength: 1, maxLength: 40 }).map((choices) => {
      let blocks: Array<[number, number]> = [[0, 0]] // [start as a 32-bit number, prefix]
      for (const choice of choices) {
        const index = choice % blocks.length
        const [start, prefix] = blocks[index]!
        if (prefix >= 32) continue
        const half = 2 ** (31 - prefix)
        blocks = [...blocks.slice(0, index), [start, prefix + 1], [start + half, prefix + 1], ...blocks.slice(index + 1)]
      }
      const ip = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.')
      return blocks.map(([start, prefix]) => `${ip(start)}/${prefix}`)
    })
    fc.assert(
      fc.property(partition, fc.nat(), (blocks, drop) => {
        expect(trustedSpace(blocks)).toBe('every IPv4 address')
        if (blocks.length > 1) expect(trustedSpace(blocks.filter((_, i) => i !== drop % blocks.length))).toBeUndefined()
      }),
    )
  })
})
