import fc from 'fast-check'
import { keccak256 } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { keccakBytes, keccakWasmActive, keccakWasmReady } from '../../../src/common/keccak-wasm.ts'

/** The WebAssembly keccak (keccak-wasm.ts) is viem's keccak256, digest for digest. */
describe('keccakBytes', () => {
  beforeAll(async () => {
    await keccakWasmReady()
  })

  it('is ready in Node (hash-wasm compiled) and gives the Ethereum Keccak-256 of the empty input', () => {
    expect(keccakWasmActive()).toBe(true)
    // Keccak-256 of nothing: the well-known empty code hash.
    expect(keccakBytes(new Uint8Array())).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
  })

  it("equals viem's keccak256 for any bytes, at the sponge's rate edges (136 bytes) and a collect's size", () => {
    const lengths = fc.constantFrom(1, 135, 136, 137, 271, 272, 273, 45_000)
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 600 }),
          lengths.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        ),
        (bytes) => {
          expect(keccakBytes(bytes)).toBe(keccak256(bytes))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('hashes one input at a time: interleaved calls each get their own digest', () => {
    const a = new Uint8Array(1000).fill(1)
    const b = new Uint8Array(2000).fill(2)
    expect([keccakBytes(a), keccakBytes(b), keccakBytes(a)]).toEqual([keccak256(a), keccak256(b), keccak256(a)])
  })
})
