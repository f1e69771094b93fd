import { describe, expect, it } from 'vitest'
import { batchEntry, readBatchEntry } from '../../../daemon/executor/batch-buyer-abi.ts'
import { paidWords } from '../../../src/domain/batch/paid-words.ts'

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

describe('paidWords (what the contract hashed: skipped buyers zeroed)', () => {
  it('zeroes the amount of each skipped entry and keeps the others', () => {
    const a = batchEntry('0x00000000000000000000000000000000000000a1', 5n)
    const b = batchEntry('0x00000000000000000000000000000000000000b2', 7n)
    expect(paidWords([a, b], [1])).toEqual([a, 0xb2n << 96n])
    expect(paidWords([a, b], [])).toEqual([a, b])
    expect(() => paidWords([a], [1])).toThrow(RangeError)
  })
})
