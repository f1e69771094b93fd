import { decodeFunctionData, getAddress, keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { buildBuyCalls, createBuyCallEncoder, type BuyCallTemplate } from '../../../daemon/executor/build-buy-calls.ts'
import { buyRouterAbi } from '../../../daemon/executor/buy-router-abi.ts'

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
      paired: { kind: 'weth', address: address(0x2222) },
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
    // A bridged pair (ZORA: the router goes WETH -> ETH -> ZORA first) puts a dynamic array in the call: same bytes.
    const ethZora = { currency0: address(0), currency1: address(0x8888), fee: 3_000, tickSpacing: 60, hooks: address(0) }
    const bridged: BuyCallTemplate = { ...template, paired: { kind: 'zora', address: address(0x8888), bridge: [ethZora] } }
    const encodeBridged = createBuyCallEncoder(bridged)
    for (const [i, [spend, min]] of cases.entries()) {
      const orderId = keccak256(toHex(`bridged-${i}`))
      const calls = buildBuyCalls({ ...bridged, orderId, spendAtoms: spend, minTokensOut: min })
      expect(encodeBridged(orderId, spend, min)).toEqual(calls)
      const { args } = decodeFunctionData({ abi: buyRouterAbi, data: calls[1]!.data }) as unknown as { args: readonly [{ bridge: unknown[] }] }
      expect(args[0].bridge).toEqual([ethZora])
    }
  })
  it('refuses a pair it has no route for (adapters report such launches as unsupported before they get here)', () => {
    const base = { buyRouter: address(1), stablecoin: address(2), weth: address(3), ethUsdPool: address(4), token: address(5), feeRecipient: address(6) }
    const poolKey = { currency0: address(0), currency1: address(5), fee: 0, tickSpacing: 60, hooks: address(7) }
    const input = { ...base, poolKey, orderId: keccak256(toHex('x')), spendAtoms: 1n, minTokensOut: 1n }
    expect(() => buildBuyCalls({ ...input, paired: { kind: 'zora', address: address(8) } })).toThrow(/no buy route for zora pairs without a bridge/)
    expect(() => buildBuyCalls({ ...input, paired: { kind: 'eth', address: address(0), bridge: [poolKey] } })).toThrow(
      /no buy route for eth pairs with a bridge/,
    )
  })
})
