import fc from 'fast-check'
import { type Address, encodeAbiParameters, encodeFunctionData, erc20Abi, getAddress, type Hex, multicall3Abi, parseAbi, toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { aggregate3Data, aggregate3Words, addressCalls, ALLOWANCE, BALANCE_OF } from '../../../src/chain/read-words-multicall.ts'

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
})
