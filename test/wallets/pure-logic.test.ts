import { encodeErrorResult, type Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { PrebuyError } from '../../src/common/errors.ts'
import { KERNEL_ECDSA_VALIDATOR, kernelNonceKey } from '../../src/wallets/accounts/kernel-account-provider.ts'
import { simpleAccountImplementation } from '../../src/wallets/accounts/simple-account-address.ts'
import { decodeRevertReason } from '../../src/wallets/bundler/decode-revert-reason.ts'
import { createNonceManager } from '../../src/wallets/bundler/nonce-manager.ts'
import { packBundles } from '../../src/wallets/bundler/pack-bundles.ts'
import { createNonceStreams } from '../../src/wallets/nonce-streams.ts'
import { isAmountSyntax, parseTokenAmount } from '../../src/wallets/parse-token-amount.ts'

const A: Address = '0x00000000000000000000000000000000000000aa'

describe('parseTokenAmount', () => {
  it('converts decimals to atomic units', () => {
    expect(parseTokenAmount('1.5', 6)).toBe(1_500_000n)
    expect(parseTokenAmount('0.000001', 6)).toBe(1n)
    expect(parseTokenAmount('12', 18)).toBe(12n * 10n ** 18n)
    expect(parseTokenAmount('7', 0)).toBe(7n)
  })
  it.each(['0', '0.000', '-1', '1e6', ' 1', '1.', '.5', 'abc', '', '0x10', '1,5'])('refuses %j as invalid_amount', (amount) => {
    expect(() => parseTokenAmount(amount, 6)).toThrow(expect.objectContaining({ code: 'invalid_amount', kind: 'bad_request' }))
  })
  it('refuses more decimals than the token has', () => {
    expect(() => parseTokenAmount('0.0000001', 6)).toThrow(PrebuyError)
    expect(() => parseTokenAmount('1.1', 0)).toThrow(PrebuyError)
  })
  it('syntax check accepts max', () => {
    expect(isAmountSyntax('max')).toBe(true)
    expect(isAmountSyntax('MAX')).toBe(false)
  })
})

describe('packBundles', () => {
  it('keeps order and fills each chunk up to the limit', () => {
    const chunks = packBundles([1, 2, 3, 4, 5, 6], (n) => BigInt(n) * 10n, 100n, 10n)
    expect(chunks).toEqual([[1, 2, 3], [4, 5], [6]])
    expect(chunks.flat()).toEqual([1, 2, 3, 4, 5, 6])
  })
  it('puts everything in one chunk when it fits and gives an oversized item its own', () => {
    expect(
      packBundles(
        Array.from({ length: 50 }, (_, i) => i),
        () => 1n,
        100n,
      ),
    ).toHaveLength(1)
    expect(packBundles([1, 500, 1], (n) => BigInt(n), 100n)).toEqual([[1], [500], [1]])
    expect(packBundles([], () => 1n, 10n)).toEqual([])
  })
})

describe('nonce manager', () => {
  it('hands out consecutive nonces in order under concurrency and resyncs after a failure', async () => {
    let chain = 5
    let reads = 0
    const manager = createNonceManager(A, {
      pendingNonce: async () => {
        reads++
        return chain
      },
    })
    const used: number[] = []
    await Promise.all(
      Array.from({ length: 5 }, () =>
        manager.use(async (nonce) => {
          await new Promise((r) => setTimeout(r, Math.random() * 5))
          used.push(nonce)
        }),
      ),
    )
    expect(used).toEqual([5, 6, 7, 8, 9])
    expect(reads).toBe(1)
    await expect(
      manager.use(async () => {
        throw new Error('nonce too low')
      }),
    ).rejects.toThrow('nonce too low')
    chain = 12
    expect(await manager.use(async (nonce) => nonce)).toBe(12)
    expect(reads).toBe(2)
    manager.resync()
    chain = 20
    expect(await manager.use(async (nonce) => nonce)).toBe(20)
  })
})

describe('nonce manager: chain nonce observations', () => {
  it('drops the counter when the chain lost our transactions, but not on a read that overlapped a send', async () => {
    let chain = 5
    let reads = 0
    const manager = createNonceManager(A, {
      pendingNonce: async () => {
        reads++
        return chain
      },
    })
    expect(await manager.use(async (nonce) => nonce)).toBe(5)
    expect(await manager.use(async (nonce) => nonce)).toBe(6)
    // A read that a send overlapped may predate it: ignored.
    let release: () => void = () => undefined
    const mark = manager.mark()
    const sending = manager.use((nonce) => new Promise<number>((resolve) => (release = () => resolve(nonce))))
    await new Promise((r) => setTimeout(r, 0))
    manager.observe(5, mark)
    release()
    expect(await sending).toBe(7)
    const during = manager.mark()
    expect(await manager.use(async (nonce) => nonce)).toBe(8)
    manager.observe(3, during)
    expect(await manager.use(async (nonce) => nonce)).toBe(9)
    expect(reads).toBe(1)
    // A quiet read at or above the counter changes nothing; below it (a reorg dropped 9 and 10), the chain wins.
    manager.observe(10, manager.mark())
    expect(await manager.use(async (nonce) => nonce)).toBe(10)
    chain = 9
    manager.observe(9, manager.mark())
    expect(await manager.use(async (nonce) => nonce)).toBe(9)
    expect(reads).toBe(2)
  })
})

describe('nonce streams', () => {
  it('never gives one account the same stream twice while in flight, and reuses released ones', () => {
    const streams = createNonceStreams()
    expect([streams.acquire(A, 10), streams.acquire(A, 10), streams.acquire(A, 10)]).toEqual([0, 1, 2])
    expect(streams.acquire('0x00000000000000000000000000000000000000bb', 10)).toBe(0)
    streams.release(A, 1)
    expect(streams.acquire(A, 10)).toBe(1)
    expect(() => {
      for (let i = 0; i < 10; i++) streams.acquire(A, 10)
    }).toThrow(PrebuyError)
  })
})

describe('kernel nonce key', () => {
  it('encodes mode, root validator type, validator and the 2-byte stream into 24 bytes', () => {
    const key = kernelNonceKey(0x1234)
    const hex = key.toString(16).padStart(48, '0')
    expect(hex.slice(0, 4)).toBe('0000')
    expect(`0x${hex.slice(4, 44)}`).toBe(KERNEL_ECDSA_VALIDATOR.toLowerCase())
    expect(hex.slice(44)).toBe('1234')
    expect(() => kernelNonceKey(0x10000)).toThrow(PrebuyError)
  })
})

describe('revert reasons', () => {
  it('decodes Error(string), Panic and leaves custom errors raw', () => {
    const abi = [
      { type: 'error', name: 'Error', inputs: [{ name: 'm', type: 'string' }] },
      { type: 'error', name: 'Panic', inputs: [{ name: 'c', type: 'uint256' }] },
      { type: 'error', name: 'Custom', inputs: [] },
    ] as const
    expect(decodeRevertReason(encodeErrorResult({ abi, errorName: 'Error', args: ['ERC20: no'] }))).toEqual({
      name: 'Error',
      args: ['ERC20: no'],
      message: 'ERC20: no',
    })
    expect(decodeRevertReason(encodeErrorResult({ abi, errorName: 'Panic', args: [0x11n] }))).toEqual({ name: 'Panic', args: [0x11n], message: 'panic 0x11' })
    const custom = encodeErrorResult({ abi, errorName: 'Custom' })
    expect(decodeRevertReason(custom)).toEqual({ name: 'unknown', args: [], message: `custom error ${custom}` })
    expect(decodeRevertReason(custom).message).toMatch(/^custom error 0x/)
    const router = [
      {
        type: 'error',
        name: 'TooLittleReceived',
        inputs: [
          { name: 'got', type: 'uint256' },
          { name: 'min', type: 'uint256' },
        ],
      },
    ] as const
    expect(decodeRevertReason(encodeErrorResult({ abi: router, errorName: 'TooLittleReceived', args: [90n, 100n] }))).toEqual({
      name: 'TooLittleReceived',
      args: [90n, 100n],
      message: 'TooLittleReceived(90, 100)',
    })
    expect(decodeRevertReason('0x')).toEqual({ name: 'unknown', args: [], message: 'reverted without a reason' })
  })
})

describe('simple account implementation address', () => {
  it('is the factory constructor CREATE at nonce 1', () => {
    expect(simpleAccountImplementation('0x0000000000000000000000000000000000000001')).toMatch(/^0x[0-9a-fA-F]{40}$/)
  })
})
