import { describe, expect, it } from 'vitest'
import { parsePushedHead } from '../../../src/sync/pushed-head.ts'

const hash = (b: string) => `0x${b.repeat(32)}`
const header = { number: '0x10', hash: hash('ab'), parentHash: hash('cd'), timestamp: '0x64', logsBloom: `0x${'00'.repeat(256)}` }

describe('a newHeads push read as a head', () => {
  it('takes the identity, time and logs bloom of a well-formed header', () => {
    expect(parsePushedHead(header)).toEqual({
      ref: { number: 16n, hash: hash('ab'), parentHash: hash('cd'), timestamp: 100n },
      logsBloom: header.logsBloom,
    })
    expect(parsePushedHead({ ...header, logsBloom: undefined })?.logsBloom).toBeNull()
  })
  it('drops a malformed or partial one (it then only wakes the sync)', () => {
    for (const bad of [
      null,
      'x',
      { ...header, hash: '0x12' },
      { ...header, parentHash: undefined },
      { ...header, number: 16 },
      { ...header, number: '0x' },
      { ...header, timestamp: 'soon' },
      { ...header, logsBloom: '0x00' },
      { hash: header.hash, number: header.number },
    ])
      expect(parsePushedHead(bad)).toBeUndefined()
  })
})
