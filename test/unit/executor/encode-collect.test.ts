import fc from 'fast-check'
import { type Address, bytesToHex, encodeFunctionData, getAddress, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { batchBuyerAbi, batchEntry } from '../../../daemon/executor/batch-buyer-abi.ts'
import { encodeCollect, entryWordHex } from '../../../daemon/executor/encode-collect.ts'

const MAX_AMOUNT = (1n << 96n) - 1n
const MAX_UINT256 = (1n << 256n) - 1n

const hexOf = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => bytesToHex(b))
// Lower-case or checksummed, as records and configs hold them (viem accepts both, and so must the hand encoding).
const address = fc.tuple(hexOf(20), fc.boolean()).map(([a, checksum]) => (checksum ? getAddress(a) : a) as Address)
const entry = fc.record({ wallet: address, spendAtoms: fc.bigInt({ min: 1n, max: MAX_AMOUNT }).map((a) => a.toString()) })

const viemCollect = (
  batchId: Hex,
  stablecoin: Address,
  chunk: bigint,
  entries: ReadonlyArray<{ wallet: Address; spendAtoms: string }>,
  until: bigint,
  supersedes: readonly Hex[] = [],
) =>
  encodeFunctionData({
    abi: batchBuyerAbi,
    functionName: 'collect',
    args: [batchId, stablecoin, chunk, entries.map((e) => batchEntry(e.wallet, BigInt(e.spendAtoms))), until, supersedes],
  })

describe('encodeCollect', () => {
  it("is viem's encodeFunctionData of collect, byte for byte, for random batches, chunks, entries, last blocks and superseded ids", () => {
    fc.assert(
      fc.property(
        hexOf(32),
        address,
        fc.bigInt({ min: 0n, max: MAX_UINT256 }),
        fc.array(entry, { maxLength: 40 }),
        fc.bigInt({ min: 0n, max: MAX_UINT256 }),
        fc.array(hexOf(32), { maxLength: 4 }),
        (batchId, stablecoin, chunk, entries, until, supersedes) => {
          expect(encodeCollect(batchId, stablecoin, chunk, entries, until, supersedes)).toBe(
            viemCollect(batchId, stablecoin, chunk, entries, until, supersedes),
          )
        },
      ),
      { numRuns: 300 },
    )
  })

  it('a full chunk of 625 entries at the edges of the amount range is the same as viem', () => {
    fc.assert(
      fc.property(
        hexOf(32),
        address,
        fc.array(fc.record({ wallet: address, spendAtoms: fc.constantFrom('1', MAX_AMOUNT.toString(), '1000000') }), { minLength: 625, maxLength: 625 }),
        (batchId, stablecoin, entries) => {
          expect(encodeCollect(batchId, stablecoin, 7n, entries, 123_456n)).toBe(viemCollect(batchId, stablecoin, 7n, entries, 123_456n))
        },
      ),
      { numRuns: 5 },
    )
  })

  it("an entry word is batchEntry's word", () => {
    fc.assert(
      fc.property(entry, (e) => {
        expect(BigInt(`0x${entryWordHex(e)}`)).toBe(batchEntry(e.wallet, BigInt(e.spendAtoms)))
      }),
    )
  })

  it('refuses what viem or batchEntry refuses: an amount out of 1..2^96-1, a malformed address or batch id, a negative or too large uint', () => {
    const id = `0x${'ab'.repeat(32)}` as Hex
    const coin = `0x${'11'.repeat(20)}` as Address
    const ok = { wallet: `0x${'22'.repeat(20)}` as Address, spendAtoms: '5' }
    expect(() => encodeCollect(id, coin, 0n, [{ ...ok, spendAtoms: '0' }], 1n)).toThrow(/1\.\.2\^96-1/)
    expect(() => encodeCollect(id, coin, 0n, [{ ...ok, spendAtoms: (MAX_AMOUNT + 1n).toString() }], 1n)).toThrow(/1\.\.2\^96-1/)
    expect(() => encodeCollect(id, coin, 0n, [{ ...ok, wallet: '0x1234' as Address }], 1n)).toThrow(/not an address/)
    expect(() => encodeCollect(id, '0xzz' as Address, 0n, [ok], 1n)).toThrow(/not an address/)
    expect(() => encodeCollect('0x12' as Hex, coin, 0n, [ok], 1n)).toThrow(/not a bytes32/)
    expect(() => encodeCollect(id, coin, -1n, [ok], 1n)).toThrow(/chunk is not a uint256/)
    expect(() => encodeCollect(id, coin, 0n, [ok], MAX_UINT256 + 1n)).toThrow(/validUntilBlock is not a uint256/)
  })
})
