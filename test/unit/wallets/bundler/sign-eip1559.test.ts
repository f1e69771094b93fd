import fc from 'fast-check'
import { bytesToHex, getAddress, type Hex, parseTransaction, type LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { keccakWasmActive, keccakWasmReady } from '../../../../src/common/keccak-wasm.ts'
import { signEip1559 } from '../../../../src/wallets/bundler/sign-eip1559.ts'

// The hand-written envelope against viem's own signing, byte for byte (issue 23 item 3: the collects' signing).
const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((b) => b.some((x) => x !== 0) && b[0]! < 0xff)
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => bytesToHex(b))
const edgeLengths = fc.constantFrom(0, 1, 2, 54, 55, 56, 57, 255, 256, 20_036)
const data = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  edgeLengths.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
  // A single byte below 0x80 is its own RLP encoding; 0x80 and above is not.
  fc.integer({ min: 0, max: 255 }).map((b) => new Uint8Array([b])),
)
const uint = (bits: number) => fc.oneof(fc.constantFrom(0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n), fc.bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n }))

describe('signEip1559', () => {
  // The signer's hash is WebAssembly's (keccak-wasm.ts) in these runs, as in the daemon once it started.
  beforeAll(async () => {
    await keccakWasmReady()
    expect(keccakWasmActive()).toBe(true)
  })

  it("is byte for byte viem's signTransaction for any plain EIP-1559 transaction (fields at RLP's edges, calldata up to a collect's 20 kB)", async () => {
    await fc.assert(
      fc.asyncProperty(
        key,
        fc.record({
          chainId: fc.integer({ min: 1, max: 2 ** 32 }),
          nonce: fc.oneof(fc.constantFrom(0, 1, 127, 128, 255, 256), fc.nat()),
          maxPriorityFeePerGas: uint(64),
          maxFeePerGas: uint(128),
          gas: uint(32),
          to: address,
          checksummed: fc.boolean(),
          data,
        }),
        async (secret, t) => {
          const account = privateKeyToAccount(bytesToHex(secret))
          const tx = {
            chainId: t.chainId,
            nonce: t.nonce,
            // viem refuses a tip above the fee cap (as signEip1559 does: below).
            maxPriorityFeePerGas: t.maxPriorityFeePerGas > t.maxFeePerGas ? t.maxFeePerGas : t.maxPriorityFeePerGas,
            maxFeePerGas: t.maxFeePerGas,
            gas: t.gas,
            to: t.checksummed ? getAddress(t.to) : t.to,
            data: bytesToHex(t.data),
          }
          const ours = await signEip1559(account, tx)
          expect(ours).toBe(await account.signTransaction({ type: 'eip1559', ...tx }))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('a signature whose r or s starts with zero bytes is written minimal, as viem writes it', async () => {
    // Search a few nonces for signatures with a leading zero byte in r or s (1 in 128 each).
    const account = privateKeyToAccount(`0x${'11'.repeat(32)}`)
    let found = 0
    for (let nonce = 0; nonce < 1_500 && found < 3; nonce++) {
      const tx = { chainId: 8453, nonce, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gas: 21_000n, to: account.address, data: '0x' as Hex }
      const ours = await signEip1559(account, tx)
      const { r, s } = parseTransaction(ours)
      if (r!.length < 66 || s!.length < 66 || r!.startsWith('0x00') || s!.startsWith('0x00')) found++
      expect(ours).toBe(await account.signTransaction({ type: 'eip1559', ...tx }))
    }
    expect(found).toBeGreaterThan(0)
  })

  it("refuses calldata that is not whole bytes of hex, a malformed address, a tip above the fee cap and chain id 0; a signer that cannot sign a hash goes through viem's path", async () => {
    const account = privateKeyToAccount(`0x${'22'.repeat(32)}`)
    const base = { chainId: 1, nonce: 0, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gas: 21_000n, to: account.address, data: '0x' as Hex }
    await expect(signEip1559(account, { ...base, data: '0xabc' })).rejects.toThrow('whole bytes')
    await expect(signEip1559(account, { ...base, data: '0xzz' })).rejects.toThrow('whole bytes')
    await expect(signEip1559(account, { ...base, to: '0x1234' })).rejects.toThrow('20-byte')
    await expect(signEip1559(account, { ...base, maxPriorityFeePerGas: 3n })).rejects.toThrow('above maxFeePerGas')
    await expect(account.signTransaction({ type: 'eip1559', ...base, maxPriorityFeePerGas: 3n })).rejects.toThrow()
    await expect(signEip1559(account, { ...base, chainId: 0 })).rejects.toThrow('chainId')
    const { sign: _sign, ...withoutSign } = account
    const viemOnly = withoutSign as LocalAccount
    expect(await signEip1559(viemOnly, { ...base, data: '0x1234' })).toBe(await account.signTransaction({ type: 'eip1559', ...base, data: '0x1234' }))
  })
})
