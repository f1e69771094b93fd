import { describe, expect, it } from 'vitest'
import { pollingMsFor, socketGapMsFor } from '../../../src/sync/sync-timing.ts'

describe("the sync's timings from a chain's block time", () => {
  it('Base (0.2 s): polls every 100 ms without a socket, reads the head after 400 ms of a quiet socket', () => {
    expect(pollingMsFor(0.2)).toBe(100)
    expect(socketGapMsFor(0.2)).toBe(400)
  })
  it('a 2 s chain: 500 ms polling (the cap), a 4 s gap', () => {
    expect(pollingMsFor(2)).toBe(500)
    expect(socketGapMsFor(2)).toBe(4_000)
  })
  it('fast chains: at least 50 ms polling and a 250 ms gap', () => {
    expect(pollingMsFor(0.05)).toBe(50)
    expect(socketGapMsFor(0.05)).toBe(250)
  })
})
