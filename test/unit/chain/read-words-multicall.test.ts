import fc from 'fast-check'
import {
  type Address,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  multicall3Abi,
  parseAbi,
  type PublicClient,
  toFunctionSelector,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { aggregate3Data, aggregate3Words, addressCalls, ALLOWANCE, BALANCE_OF, probeWords } from '../../../src/chain/read-words-multicall.ts'
import { readBalanceLimitEnd } from '../../../src/launchpads/doppler/read-balance-limit.ts'

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => getAddress(`0x${Buffer.from(bytes).toString('hex')}`))
const bytesHex = (maxLength: number) => fc.uint8Array({ maxLength }).map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex)
const AGGREGATE3 = multicall3Abi.find((item) => item.type === 'function' && item.name === 'aggregate3')!
const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}` as Hex
/** aggregate3's answer as the contract encodes it (Result[]: success, returnData). */
const answerOf = (results: Array<{ success: boolean; returnData: Hex }>) => encodeAbiParameters(AGGREGATE3.outputs, [results])

/** The hand-written Multicall3 aggregate3 (read-words-multicall.ts) against viem's ABI encoder. */
describe('aggregate3 by hand', () => {
  it("writes viem's encodeFunctionData calldata for any target and calls of any length", () => {
    fc.assert(
      fc.property(address, fc.array(bytesHex(100), { maxLength: 12 }), (target, calls) => {
        const viem = encodeFunctionData({
          abi: multicall3Abi,
          functionName: 'aggregate3',
          args: [calls.map((callData) => ({ target, allowFailure: false, callData }))],
        })
        expect(aggregate3Data(target, calls)).toBe(viem)
      }),
      { numRuns: 200 },
    )
  })

  it("the balanceOf and allowance calls are viem's encodeFunctionData's", () => {
    const erc20 = erc20Abi
    fc.assert(
      fc.property(fc.array(address, { maxLength: 5 }), address, (wallets, spender) => {
        expect(addressCalls(BALANCE_OF, wallets)).toEqual(wallets.map((w) => encodeFunctionData({ abi: erc20, functionName: 'balanceOf', args: [w] })))
        expect(addressCalls(ALLOWANCE, wallets, spender)).toEqual(
          wallets.map((w) => encodeFunctionData({ abi: erc20, functionName: 'allowance', args: [w, spender] })),
        )
      }),
    )
    const getNonce = parseAbi(['function getNonce(address sender, uint192 key) view returns (uint256)'])
    fc.assert(
      fc.property(fc.array(fc.tuple(address, fc.bigInt({ min: 0n, max: 2n ** 192n - 1n })), { maxLength: 5 }), (pairs) => {
        expect(
          addressCalls(
            toFunctionSelector(getNonce[0]),
            pairs.map(([w]) => w),
            pairs.map(([, k]) => k),
          ),
        ).toEqual(pairs.map(([w, k]) => encodeFunctionData({ abi: getNonce, functionName: 'getNonce', args: [w, k] })))
      }),
    )
    expect(() => addressCalls(BALANCE_OF, ['0x1234' as Address])).toThrow(/not an address/)
    expect(() => addressCalls(BALANCE_OF, [getAddress(`0x${'11'.repeat(20)}`)], [1n, 2n])).toThrow(/one trailing argument per wallet/)
    expect(() => addressCalls(BALANCE_OF, [getAddress(`0x${'11'.repeat(20)}`)], [-1n])).toThrow(/not a uint256/)
    expect(() => aggregate3Data('0xzz' as Address, [])).toThrow(/not an address/)
  })

  it('reads back every word of an answer, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), { maxLength: 20 }), (values) => {
        expect(aggregate3Words(answerOf(values.map((v) => ({ success: true, returnData: word(v) }))), values.length)).toEqual(values)
      }),
    )
  })

  it('refuses an answer with a failed call, a result that is not one word, another count, or cut short', () => {
    const ok = { success: true, returnData: word(5n) }
    expect(() => aggregate3Words(answerOf([ok, { success: false, returnData: word(1n) }]), 2)).toThrow(/call 1 of aggregate3 failed/)
    expect(() => aggregate3Words(answerOf([{ success: true, returnData: '0x' }]), 1)).toThrow(/0 bytes, not one word/)
    expect(() => aggregate3Words(answerOf([{ success: true, returnData: `0x${'00'.repeat(64)}` }]), 1)).toThrow(/64 bytes/)
    expect(() => aggregate3Words(answerOf([ok, ok]), 3)).toThrow(/2 results for 3 calls/)
    const full = answerOf([ok, ok])
    expect(() => aggregate3Words(full.slice(0, full.length - 10) as Hex, 2)).toThrow(/cut short/)
    expect(() => aggregate3Words('0x', 0)).toThrow(/cut short/)
    expect(() => aggregate3Words(`0x${'ff'.repeat(32)}`, 0)).toThrow(/malformed/)
  })

  it("writes viem's calldata with every call allowed to fail, for a probe", () => {
    fc.assert(
      fc.property(address, fc.array(bytesHex(40), { maxLength: 6 }), (target, calls) => {
        const viem = encodeFunctionData({
          abi: multicall3Abi,
          functionName: 'aggregate3',
          args: [calls.map((callData) => ({ target, allowFailure: true, callData }))],
        })
        expect(aggregate3Data(target, calls, true)).toBe(viem)
      }),
      { numRuns: 100 },
    )
  })
})

const MULTICALL3 = getAddress('0xcA11bde05977b3631167028862bE2a173976CA11')
const ASSET = getAddress(`0x${'a5'.repeat(20)}`)

/** A node whose Multicall3 answers each inner call with `answer(callData)`: a word, no data, a revert, or raw bytes. */
function probedNode(answer: (callData: Hex) => { success: boolean; returnData: Hex }) {
  const asked: Array<{ to: Address; blockNumber?: bigint; calls: readonly { target: Address; allowFailure: boolean; callData: Hex }[] }> = []
  const client = {
    async call(request: { to: Address; data: Hex; blockNumber?: bigint }) {
      const { args } = decodeFunctionData({ abi: multicall3Abi, data: request.data })
      const calls = args![0] as readonly { target: Address; allowFailure: boolean; callData: Hex }[]
      asked.push({ to: request.to, ...(request.blockNumber === undefined ? {} : { blockNumber: request.blockNumber }), calls })
      return { data: answerOf(calls.map((c) => answer(c.callData))) }
    },
  } as unknown as PublicClient
  return { client, asked }
}

describe('probeWords and the Doppler balance limit through it', () => {
  const ACTIVE = toFunctionSelector('isBalanceLimitActive()')
  const END = toFunctionSelector('balanceLimitEnd()')

  it('answers a word per getter that answered one, undefined for a revert or no data; throws on a partial word', async () => {
    const { client, asked } = probedNode((callData) =>
      callData === ACTIVE
        ? { success: true, returnData: word(1n) }
        : callData === END
          ? { success: false, returnData: '0x08c379a0' }
          : { success: true, returnData: '0x' },
    )
    expect(await probeWords(client, MULTICALL3, ASSET, [ACTIVE, END, '0x12345678'], 7n)).toEqual([1n, undefined, undefined])
    // One eth_call to Multicall3, at the block, every inner call to the asset and allowed to fail.
    expect(asked).toHaveLength(1)
    expect(asked[0]!.to).toBe(MULTICALL3)
    expect(asked[0]!.blockNumber).toBe(7n)
    expect(asked[0]!.calls.map((c) => [c.target, c.allowFailure])).toEqual([
      [ASSET, true],
      [ASSET, true],
      [ASSET, true],
    ])
    const short = probedNode(() => ({ success: true, returnData: '0x0001' }))
    await expect(probeWords(short.client, MULTICALL3, ASSET, [ACTIVE])).rejects.toThrow(/2 bytes, not a word/)
  })

  it('reads a DopplerERC20V1 limit in force, none for a limit off or a token without the getters, and refuses malformed answers', async () => {
    const limited = (active: bigint, end: bigint) => probedNode((callData) => ({ success: true, returnData: word(callData === ACTIVE ? active : end) })).client
    expect(await readBalanceLimitEnd(limited(1n, 1_790_000_600n), MULTICALL3, ASSET, 9n)).toBe(1_790_000_600)
    expect(await readBalanceLimitEnd(limited(0n, 1_790_000_600n), MULTICALL3, ASSET, 9n)).toBeUndefined()
    // A token without the getters (Doppler's others, the devnet's plain one): no revert reaches the caller, no limit.
    const plain = probedNode(() => ({ success: false, returnData: '0x' })).client
    expect(await readBalanceLimitEnd(plain, MULTICALL3, ASSET, 9n)).toBeUndefined()
    // One getter only: no limit, as before (either read not answered).
    const half = probedNode((callData) => (callData === ACTIVE ? { success: true, returnData: word(1n) } : { success: false, returnData: '0x' })).client
    expect(await readBalanceLimitEnd(half, MULTICALL3, ASSET, 9n)).toBeUndefined()
    await expect(readBalanceLimitEnd(limited(2n, 5n), MULTICALL3, ASSET, 9n)).rejects.toThrow(/not a bool/)
    await expect(readBalanceLimitEnd(limited(1n, 2n ** 48n), MULTICALL3, ASSET, 9n)).rejects.toThrow(/beyond uint48/)
  })
})
