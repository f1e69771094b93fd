import { describe, expect, it } from 'vitest'
import { batchEntry, readBatchEntry } from '../../../daemon/executor/batch-buyer-abi.ts'

describe('batch entries (one calldata word per buyer)', () => {
  it('packs the wallet above the amount and reads them back', () => {
    const wallet = '0x00000000000000000000000000000000000000a1'
    const word = batchEntry(wallet, 25_000_000n)
    expect(word).toBe((0xa1n << 96n) | 25_000_000n)
    expect(readBatchEntry(word)).toEqual({ wallet, amount: 25_000_000n })
    const top = '0xffffffffffffffffffffffffffffffffffffffff'
    expect(readBatchEntry(batchEntry(top, (1n << 96n) - 1n))).toEqual({ wallet: top, amount: (1n << 96n) - 1n })
    // A skipped buyer's committed word: the address with amount 0.
    expect(readBatchEntry((word >> 96n) << 96n)).toEqual({ wallet, amount: 0n })
  })

  it('refuses amounts that do not fit 96 bits, zero, and non-addresses', () => {
    expect(() => batchEntry('0x00000000000000000000000000000000000000a1', 1n << 96n)).toThrow(RangeError)
    expect(() => batchEntry('0x00000000000000000000000000000000000000a1', 0n)).toThrow(RangeError)
    expect(() => batchEntry('0x1234' as `0x${string}`, 1n)).toThrow(RangeError)
  })
})
