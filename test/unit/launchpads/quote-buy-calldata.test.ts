import fc from 'fast-check'
import { encodeFunctionData, getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { quoteExactInputSingleData, V4_QUOTER_ABI } from '../../../src/launchpads/quote-buy.ts'

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => getAddress(`0x${Buffer.from(bytes).toString('hex')}`))

/** The quoter's calldata built from a selector taken once (quote-buy.ts) is viem's encodeFunctionData's, byte for byte. */
describe('quoteExactInputSingleData', () => {
  it("equals encodeFunctionData's calldata for any pool key, direction, amount and hook data", () => {
    fc.assert(
      fc.property(
        address,
        address,
        address,
        fc.integer({ min: 0, max: 2 ** 24 - 1 }),
        fc.integer({ min: -(2 ** 23), max: 2 ** 23 - 1 }),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
        fc.uint8Array({ maxLength: 40 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}` as const),
        (currency0, currency1, hooks, fee, tickSpacing, zeroForOne, exactAmount, hookData) => {
          const params = { poolKey: { currency0, currency1, fee, tickSpacing, hooks }, zeroForOne, exactAmount, hookData }
          expect(quoteExactInputSingleData(params)).toBe(encodeFunctionData({ abi: V4_QUOTER_ABI, functionName: 'quoteExactInputSingle', args: [params] }))
        },
      ),
      { numRuns: 200 },
    )
  })
})
