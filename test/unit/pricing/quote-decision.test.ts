import { describe, expect, it } from 'vitest'
import { PriceBackoff } from '../../../src/domain/execution/price-backoff.ts'
import { minTokensOut } from '../../../src/pricing/min-tokens-out.ts'
import { capDeviationBps, compareFormulaAndQuote } from '../../../src/pricing/quote/compare-quote.ts'
import { bucketsOf, capForSpend, capFromQuote, lowestCap, type QuotedCaps, spendBucket } from '../../../src/pricing/quote/quoted-caps.ts'
import { createBuyQuoter, pairedInOf, quoteRevertReason, V4_QUOTER_ABI } from '../../../src/launchpads/quote-buy.ts'
import type { LaunchRecord } from '../../../src/journal/journal-records.ts'
import {
  decodeFunctionData,
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionResult,
  type Hex,
  HttpRequestError,
  multicall3Abi,
  type PublicClient,
  zeroAddress,
} from 'viem'
import { candidateBuckets } from '../../../daemon/executor/tick-quotes.ts'
import type { CandidateOrder } from '../../../src/domain/execution/prepared-book.ts'

const USDC = 1_000_000n
const SUPPLY = 10n ** 27n

describe('quoted caps', () => {
  it('a quote admits an order exactly when the tokens out meet its on-chain minimum', () => {
    for (const [spend, tokensOut, limit] of [
      [10n * USDC, 123_456_789_000_000_000_000n, 81_000_000n * USDC],
      [7n, 3n, 2_333_333_333_333_333_333_333_333_334n],
      [250n * USDC, 10n ** 24n, 250_000n * USDC],
    ] as const) {
      const cap = capFromQuote(spend, tokensOut, SUPPLY)!
      const min = minTokensOut({ spend, limitFdv: limit, totalSupply: SUPPLY })
      expect(limit >= cap, `spend ${spend} out ${tokensOut} limit ${limit}`).toBe(tokensOut >= min)
      // One atom below the cap fails, the cap itself passes.
      expect(tokensOut >= minTokensOut({ spend, limitFdv: cap, totalSupply: SUPPLY })).toBe(true)
      expect(tokensOut >= minTokensOut({ spend, limitFdv: cap - 1n, totalSupply: SUPPLY })).toBe(false)
    }
    expect(capFromQuote(USDC, 0n, SUPPLY)).toBeNull()
  })

  it('buckets are the powers of two covering each spend; at most the largest `max`', () => {
    expect([1n, 2n, 3n, 4n, 5n, 1_000_000n, 1_048_576n, 1_048_577n].map(spendBucket)).toEqual([1n, 2n, 4n, 4n, 8n, 1_048_576n, 1_048_576n, 2_097_152n])
    expect(bucketsOf([5n * USDC, 6n * USDC, 100n * USDC, 0n])).toEqual([spendBucket(5n * USDC), spendBucket(100n * USDC)])
    expect(bucketsOf([1n, 4n, 16n, 64n], 2)).toEqual([16n, 64n])
  })

  it('candidate buckets: min(max spend, balance) of active orders with a balance, as the bigint buckets give', () => {
    const c = (maxSpendUsdc: string, balanceAtoms: bigint, status: CandidateOrder['order']['status'] = 'active'): CandidateOrder => ({
      order: { keyId: 'k', slug: 's', status, maxSpendUsdc, maxFdvUsdc: null, expiresInMs: 1, createdAt: 0, updatedAt: 0 },
      userIndex: 0,
      wallet: zeroAddress,
      balanceAtoms,
    })
    const out = candidateBuckets([
      c('10', 100n * USDC),
      c('1.048576', 100n * USDC),
      c('1.048577', 100n * USDC),
      c('500', 3n * USDC),
      c('9', 0n),
      c('77', USDC, 'executing'),
    ])
    expect(out).toEqual(bucketsOf([10n * USDC, 1_048_576n, 1_048_577n, 3n * USDC]))
    // Far beyond 2^53 atoms: still covered.
    expect(candidateBuckets([c('100000000000000', 10n ** 30n)])).toEqual([spendBucket(100_000_000_000_000n * USDC)])
  })

  it('a buy is decided on the smallest quoted bucket covering its spend; none covers: no decision (it must not go)', () => {
    const quoted: QuotedCaps = {
      swapsAllowed: true,
      buckets: [
        { spendAtoms: 16n, capAtoms: 100n },
        { spendAtoms: 64n, capAtoms: 130n },
        { spendAtoms: 256n, capAtoms: null },
      ],
    }
    expect(capForSpend(quoted, 10n)).toEqual({ capAtoms: 100n })
    expect(capForSpend(quoted, 16n)).toEqual({ capAtoms: 100n })
    expect(capForSpend(quoted, 17n)).toEqual({ capAtoms: 130n })
    expect(capForSpend(quoted, 200n)).toEqual({ capAtoms: null })
    expect(capForSpend(quoted, 257n)).toBeUndefined()
    expect(lowestCap(quoted)).toBe(100n)
    expect(lowestCap({ swapsAllowed: true, buckets: [{ spendAtoms: 1n, capAtoms: null }] })).toBeNull()
  })

  it('the spend reaches the launch pool converted at the formulas’ paired price, less a bridge’s static fees', () => {
    // 3,000 USDC per ETH: 30 USDC is 0.01 ETH.
    expect(pairedInOf({ paired: { kind: 'weth', address: zeroAddress } }, 30n * USDC, 3_000n * USDC)).toBe(10n ** 16n)
    const bridged = {
      paired: {
        kind: 'zora' as const,
        address: zeroAddress,
        bridge: [{ currency0: zeroAddress, currency1: '0x0000000000000000000000000000000000000001' as const, fee: 3000, tickSpacing: 60, hooks: zeroAddress }],
      },
    }
    // 0.3% of the bridge pool.
    expect(pairedInOf(bridged, 30n * USDC, 3_000n * USDC)).toBe(9_970_000_000_000_000n)
  })

  it('a quote that reverted says why, through the quoter’s and the PoolManager’s wrappings', () => {
    const inner = encodeErrorResult({
      abi: V4_QUOTER_ABI,
      errorName: 'WrappedError',
      args: ['0x00000000000000000000000000000000000000aa', '0x575e24b4', '0xdeadbeef', '0x'],
    })
    const data = encodeErrorResult({ abi: V4_QUOTER_ABI, errorName: 'UnexpectedRevertBytes', args: [inner] })
    expect(quoteRevertReason(data)).toBe('swap reverted: hook 0x00000000000000000000000000000000000000AA reverted (0x575e24b4): reverted with 0xdeadbeef')
    expect(quoteRevertReason('0x')).toBe('reverted without data')
  })
})

describe('formula against quote', () => {
  it('deviation in basis points, signed; infinite caps', () => {
    expect(capDeviationBps(1_000_000n, 1_010_000n)).toBe(100)
    expect(capDeviationBps(1_000_000n, 990_000n)).toBe(-100)
    expect(capDeviationBps(null, null)).toBe(0)
    expect(capDeviationBps(1n, null)).toBe(Number.POSITIVE_INFINITY)
    expect(capDeviationBps(null, 1n)).toBe(Number.NEGATIVE_INFINITY)
  })

  it('agree within the tolerance; a cap or a swap permission that differs is a disagreement', () => {
    const formula = { swapsAllowed: true, capAtoms: 1_000_000n }
    expect(compareFormulaAndQuote({ formula, quote: { swapsAllowed: true, capAtoms: 1_000_900n }, toleranceBps: 10 })).toEqual({
      kind: 'agree',
      deviationBps: 9,
    })
    expect(compareFormulaAndQuote({ formula, quote: { swapsAllowed: true, capAtoms: 1_002_500n }, toleranceBps: 10 })).toEqual({
      kind: 'cap_differs',
      deviationBps: 25,
    })
    expect(compareFormulaAndQuote({ formula, quote: { swapsAllowed: false, capAtoms: null }, toleranceBps: 10 })).toEqual({
      kind: 'swaps_differ',
      formulaAllows: true,
      quoteAllows: false,
    })
    // Both refuse: nothing to compare.
    expect(
      compareFormulaAndQuote({ formula: { swapsAllowed: false, capAtoms: null }, quote: { swapsAllowed: false, capAtoms: null }, toleranceBps: 10 }).kind,
    ).toBe('agree')
  })
})

describe('price-revert backoff', () => {
  it('the second revert at the same price waits 2 blocks, then 4, 8 ... up to the maximum; a new price goes at once', () => {
    const backoff = new PriceBackoff({ threshold: 2, maxWaitBlocks: 8 })
    const revertAt = (price: bigint, block: bigint) => {
      backoff.attempted('k', price, block)
      return backoff.priceReverted('k')
    }
    expect(revertAt(1_000n, 10n)).toBeUndefined()
    expect(backoff.waiting('k', 1_000n, 11n)).toBeUndefined()
    expect(revertAt(1_000n, 11n)).toEqual({ reverts: 2, retryAt: 14n })
    expect(backoff.waiting('k', 1_000n, 13n)).toEqual({ reverts: 2, retryAt: 14n })
    expect(backoff.waiting('k', 1_000n, 14n)).toBeUndefined()
    // Within 10 bps is the same price; beyond is a new one (it may fill: no wait).
    expect(backoff.waiting('k', 1_000n + 1n, 13n)).toBeDefined()
    expect(backoff.waiting('k', 1_100n, 13n)).toBeUndefined()
    expect(revertAt(1_000n, 14n)).toEqual({ reverts: 3, retryAt: 19n })
    expect(revertAt(1_000n, 19n)).toEqual({ reverts: 4, retryAt: 28n })
    expect(revertAt(1_000n, 28n)).toEqual({ reverts: 5, retryAt: 37n })
    // A revert at another price starts the count again.
    expect(revertAt(2_000n, 37n)).toBeUndefined()
    expect(backoff.waiting('k', 2_000n, 38n)).toBeUndefined()
  })

  it('a revert without a recorded attempt counts nothing; clear forgets the order; orders are independent', () => {
    const backoff = new PriceBackoff()
    expect(backoff.priceReverted('none')).toBeUndefined()
    for (const block of [1n, 2n]) {
      backoff.attempted('a', null, block)
      backoff.priceReverted('a')
    }
    expect(backoff.waiting('a', null, 3n)).toBeDefined()
    expect(backoff.waiting('b', null, 3n)).toBeUndefined()
    backoff.clear('a')
    expect(backoff.waiting('a', null, 3n)).toBeUndefined()
    expect(backoff.size).toBe(0)
  })
})

describe('createBuyQuoter (scripted node)', () => {
  const launch = {
    token: '0x00000000000000000000000000000000000000f1',
    paired: { kind: 'weth', address: '0x00000000000000000000000000000000000000e1' },
    poolKey: {
      currency0: '0x00000000000000000000000000000000000000e1',
      currency1: '0x00000000000000000000000000000000000000f1',
      fee: 10_000,
      tickSpacing: 200,
      hooks: zeroAddress,
    },
  } as unknown as LaunchRecord
  const at = { blockNumber: 41n, next: { number: 42n, timestamp: 1_700_000_086 }, pairedUsdAtoms: 3_000n * USDC }

  const QUOTER = '0x0d5e0F971ED27FBfF6c2837bf31316121532048D' as const
  const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as const
  const AGGREGATE3_OUTPUTS = multicall3Abi.find((item) => item.type === 'function' && item.name === 'aggregate3')!.outputs
  /** Multicall3's answer for one call: the quoter's answer or its revert, as aggregate3 returns it. */
  const aggregate3Answer = (success: boolean, returnData: Hex) => encodeAbiParameters(AGGREGATE3_OUTPUTS, [[{ success, returnData }]])
  /** The quoter's call inside an aggregate3 request, with its target and whether it may fail. */
  const innerCall = (data: Hex) => {
    const { args } = decodeFunctionData({ abi: multicall3Abi, data })
    return (args![0] as readonly { target: string; allowFailure: boolean; callData: Hex }[])[0]!
  }

  it('asks at the block with the next block as overrides, buying the token side, through Multicall3; falls back without overrides once a node refuses them', async () => {
    const seen: Array<{ to: string; blockNumber?: bigint; blockOverrides?: unknown; data: Hex }> = []
    let refuse = true
    const client = {
      async call(request: { to: string; blockNumber?: bigint; blockOverrides?: unknown; data: Hex }) {
        seen.push(request)
        if (refuse && request.blockOverrides) throw Object.assign(new Error('invalid params: too many arguments'), { code: -32602 })
        return { data: aggregate3Answer(true, encodeFunctionResult({ abi: V4_QUOTER_ABI, functionName: 'quoteExactInputSingle', result: [777n, 1n] })) }
      },
    } as unknown as PublicClient
    const quoter = createBuyQuoter({ client, v4Quoter: QUOTER, multicall3: MULTICALL3 })
    expect(await quoter.quoteBuy(launch, 30n * USDC, at)).toEqual({ kind: 'quoted', spendAtoms: 30n * USDC, pairedIn: 10n ** 16n, tokensOut: 777n })
    expect(seen.map((r) => [r.to, r.blockNumber, r.blockOverrides])).toEqual([
      [MULTICALL3, 41n, { number: 42n, time: 1_700_000_086n }],
      [MULTICALL3, 41n, undefined],
    ])
    const inner = innerCall(seen[0]!.data)
    expect([inner.target, inner.allowFailure]).toEqual([QUOTER, true])
    const { args } = decodeFunctionData({ abi: V4_QUOTER_ABI, data: inner.callData })
    // WETH is currency0: buying the token is zeroForOne, with the spend converted at 3,000 USDC per ETH.
    expect(args[0]).toMatchObject({ zeroForOne: true, exactAmount: 10n ** 16n, hookData: '0x' })
    refuse = false
    await quoter.quoteBuy(launch, 30n * USDC, at)
    expect(seen[2]?.blockOverrides).toBeUndefined()
  })

  it('a reverting swap is a typed outcome with its reason, not an error; no answer from the quoter is one too; a node that does not answer throws', async () => {
    const revertData = encodeErrorResult({ abi: V4_QUOTER_ABI, errorName: 'UnexpectedRevertBytes', args: ['0x12345678'] })
    let mode: 'revert' | 'empty' | 'nothing' | 'down' = 'revert'
    const client = {
      async call() {
        if (mode === 'down') throw new HttpRequestError({ url: 'http://node', details: 'fetch failed' })
        if (mode === 'nothing') return { data: undefined }
        return { data: mode === 'revert' ? aggregate3Answer(false, revertData) : aggregate3Answer(true, '0x') }
      },
    } as unknown as PublicClient
    const quoter = createBuyQuoter({ client, v4Quoter: QUOTER, multicall3: MULTICALL3 })
    expect(await quoter.quoteBuy(launch, 30n * USDC, at)).toMatchObject({ kind: 'reverted', reason: 'swap reverted: reverted with 0x12345678' })
    // A quoter without code answers nothing (Multicall3 reports success with no data).
    mode = 'empty'
    expect(await quoter.quoteBuy(launch, 30n * USDC, at)).toMatchObject({ kind: 'reverted', reason: 'the quoter returned nothing' })
    // No Multicall3 (nothing answered at all): the quote fails, the tick is decided on the formula.
    mode = 'nothing'
    await expect(quoter.quoteBuy(launch, 30n * USDC, at)).rejects.toThrow(/answered nothing/)
    mode = 'down'
    await expect(quoter.quoteBuy(launch, 30n * USDC, at)).rejects.toThrow()
  })
})
