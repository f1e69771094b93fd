import { getAddress, keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { buildBuyCalls, createBuyCallEncoder, type BuyCallTemplate } from '../../../daemon/executor/build-buy-calls.ts'

const address = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`)

describe('createBuyCallEncoder', () => {
  it('produces exactly the bytes of buildBuyCalls for any order id, spend and min-out', () => {
    const template: BuyCallTemplate = {
      buyRouter: getAddress('0xAbCdEf0123456789aBcDeF0123456789AbCdEf01'),
      stablecoin: address(0x1111),
      weth: address(0x2222),
      ethUsdPool: address(0x3333),
      poolKey: { currency0: address(0x4444), currency1: address(0x5555), fee: 8_388_608, tickSpacing: 60, hooks: address(0x6666) },
      token: address(0x5555),
      feeRecipient: address(0x7777),
    }
    const encode = createBuyCallEncoder(template)
    const cases: Array<[bigint, bigint]> = [
      [1n, 0n],
      [50_000_000n, 123_456_789_012_345_678_901_234_567n],
      [2n ** 255n, 2n ** 256n - 1n],
    ]
    for (const [i, [spend, min]] of cases.entries()) {
      const orderId = keccak256(toHex(`order-${i}`))
      expect(encode(orderId, spend, min)).toEqual(buildBuyCalls({ ...template, orderId, spendAtoms: spend, minTokensOut: min }))
    }
  })
})
