import { encodeAbiParameters, type Address, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { ChainCheckError } from '../../../src/chain/chain-check-error.ts'
import { chainMismatch, type ChainExpectation, type ChainObservation } from '../../../src/chain/chain-mismatch.ts'

const at = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`
const WETH = at(0x11)
const USDC = at(0x22)
const POOL = at(0x33)
const FACTORY = at(0x44)
const WALLET = at(0x55)
const GAS = 2n ** 24n

const expected: ChainExpectation = {
  key: 'base',
  chainId: 8453,
  contracts: [
    { name: 'stablecoin', address: USDC },
    { name: 'weth', address: WETH },
    { name: 'accountFactory', address: FACTORY },
  ],
  stablecoin: USDC,
  stablecoinDecimals: 6,
  weth: WETH,
  ethUsdPool: POOL,
  account: { factory: FACTORY, owner: at(0x66), expected: WALLET },
  node: { callGas: GAS, batchSize: 1000 },
}

/** What the probe returns: gas at its first instruction, the block number and time it ran in. */
const probe = (gas: bigint, number: bigint, time: bigint): Hex =>
  encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }], [gas, number, time])
const ok = <T>(value: T) => ({ ok: true as const, value })
const failed = (error: string) => ({ ok: false as const, error })

const good: ChainObservation = {
  chainId: ok(8453),
  wsChainId: ok(8453),
  hasCode: [ok(true), ok(true), ok(true)],
  stablecoinDecimals: ok(6),
  ethUsdPoolTokens: ok([WETH, USDC] as const),
  derivedAccount: ok(WALLET),
  gasProbe: ok(probe(GAS - 21_002n, 100n, 1_000n)),
  blockProbe: ok({ asked: { number: 101n, time: 1_001n }, data: probe(GAS - 21_002n, 101n, 1_001n) }),
  batchAnswers: ok(1000),
}
const line = (observation: Partial<ChainObservation>): string | undefined => {
  const mismatch = chainMismatch(expected, { ...good, ...observation })
  return mismatch && new ChainCheckError('base', mismatch.what, mismatch.address, mismatch.found).message
}

describe('chainMismatch', () => {
  it('finds nothing on the chain the configuration describes, whichever order the pool lists its tokens', () => {
    expect(chainMismatch(expected, good)).toBeUndefined()
    expect(chainMismatch(expected, { ...good, ethUsdPoolTokens: ok([USDC, WETH] as const) })).toBeUndefined()
    // Addresses compare whatever their case.
    expect(chainMismatch(expected, { ...good, derivedAccount: ok(WALLET.toUpperCase().replace('0X', '0x') as Address) })).toBeUndefined()
  })

  it('without a configured wallet factory (optional in the config) there is no derivation to compare', () => {
    const { account: _account, ...noFactory } = expected
    const withoutFactory: ChainExpectation = { ...noFactory, contracts: expected.contracts.slice(0, 2) }
    const { derivedAccount: _derived, ...notAsked } = good
    expect(chainMismatch(withoutFactory, { ...notAsked, hasCode: [ok(true), ok(true)] })).toBeUndefined()
  })

  it('a wrong chain id, or no answer, comes first and names both ids', () => {
    expect(line({ chainId: ok(7777), stablecoinDecimals: ok(18) })).toBe(
      'chain check failed: base: eth_chainId: the node is on chain 7777, the configuration says 8453',
    )
    expect(line({ chainId: failed('HTTP request failed') })).toBe('chain check failed: base: eth_chainId: the node did not answer: HTTP request failed')
  })

  it('the WebSocket URL must lead to the same chain', () => {
    expect(line({ wsChainId: ok(1) })).toBe('chain check failed: base: eth_chainId over wsUrl: the WebSocket node is on chain 1, the configuration says 8453')
    expect(line({ wsChainId: failed('socket closed') })).toBe(
      'chain check failed: base: eth_chainId over wsUrl: the WebSocket node did not answer: socket closed',
    )
  })

  it('names the first contract without code and its address', () => {
    expect(line({ hasCode: [ok(true), ok(false), ok(false)] })).toBe(
      `chain check failed: base: weth at ${WETH}: no contract there (no code at this address on this chain)`,
    )
    expect(line({ hasCode: [failed('timeout'), ok(true), ok(true)] })).toBe(`chain check failed: base: stablecoin at ${USDC}: could not read its code: timeout`)
  })

  it("refuses a stablecoin whose decimals are not the daemon's", () => {
    expect(line({ stablecoinDecimals: ok(18) })).toBe(`chain check failed: base: stablecoin at ${USDC}: decimals() is 18, the daemon assumes 6`)
    expect(line({ stablecoinDecimals: failed('execution reverted') })).toBe(
      `chain check failed: base: stablecoin at ${USDC}: decimals() failed: execution reverted`,
    )
  })

  it('refuses an ETH/USD pool that is not WETH/stablecoin', () => {
    expect(line({ ethUsdPoolTokens: ok([WETH, at(0x99)] as const) })).toBe(
      `chain check failed: base: ethUsdPool at ${POOL}: a pool of ${WETH} and ${at(0x99)}, not of weth ${WETH} and stablecoin ${USDC}`,
    )
    expect(line({ ethUsdPoolTokens: failed('reverted') })).toContain(`ethUsdPool at ${POOL}: token0()/token1() failed: reverted`)
  })

  it('refuses a factory that derives another wallet than the one computed offline', () => {
    expect(line({ derivedAccount: ok(at(0x77)) })).toBe(
      `chain check failed: base: accountFactory at ${FACTORY}: derives wallet ${at(0x77)} for owner ${at(0x66)}, the daemon computes ${WALLET} (not the canonical SimpleAccountFactory v0.7?)`,
    )
    expect(line({ derivedAccount: failed('reverted') })).toContain(`accountFactory at ${FACTORY}: getAddress(${at(0x66)}, 0) failed: reverted`)
  })

  it('names a Kernel meta-factory and its simulated deployment when the derivation is one (wallet.accountKind kernel)', () => {
    const derivation = { call: '0x1234' as Hex, name: 'Kernel meta-factory', describe: 'deployWithFactory(…)', hint: 'not Kernel v3.1?' }
    const kernel = { ...expected, account: { ...expected.account!, derivation } }
    const kernelLine = (observation: Partial<ChainObservation>) => {
      const mismatch = chainMismatch(kernel, { ...good, ...observation })
      return mismatch && new ChainCheckError('base', mismatch.what, mismatch.address, mismatch.found).message
    }
    expect(kernelLine({})).toBeUndefined()
    expect(kernelLine({ derivedAccount: ok(at(0x77)) })).toBe(
      `chain check failed: base: Kernel meta-factory at ${FACTORY}: derives wallet ${at(0x77)} for owner ${at(0x66)}, the daemon computes ${WALLET} (not Kernel v3.1?)`,
    )
    expect(kernelLine({ derivedAccount: failed('reverted') })).toBe(
      `chain check failed: base: Kernel meta-factory at ${FACTORY}: deployWithFactory(…) failed: reverted`,
    )
  })

  it('refuses a node that refuses or ignores state overrides, or runs eth_call with less gas than passed', () => {
    expect(line({ gasProbe: failed('invalid params') })).toBe(
      'chain check failed: base: node: eth_call with a state override and 16777216 gas refused: invalid params',
    )
    expect(line({ gasProbe: ok('0x') })).toBe('chain check failed: base: node: eth_call ignored the state override (the probe returned 0x)')
    expect(line({ gasProbe: ok(probe(10_000_000n - 21_002n, 100n, 1_000n)) })).toBe(
      'chain check failed: base: node: eth_call ran with 10000000 gas, the daemon passes 16777216 (the node caps eth_call gas lower)',
    )
  })

  it('refuses a node that refuses or ignores block overrides', () => {
    expect(line({ blockProbe: failed('unknown field blockOverrides') })).toBe(
      'chain check failed: base: node: eth_call with block overrides refused: unknown field blockOverrides',
    )
    expect(line({ blockProbe: ok({ asked: { number: 101n, time: 1_001n }, data: probe(GAS, 100n, 1_000n) }) })).toBe(
      'chain check failed: base: node: eth_call ignored block overrides (asked block 101 at 1001, ran in block 100 at 1000)',
    )
  })

  it('refuses a node that refuses or truncates the JSON-RPC batch size the daemon sends', () => {
    expect(line({ batchAnswers: failed('batch too large') })).toBe('chain check failed: base: node: a JSON-RPC batch of 1000 requests refused: batch too large')
    expect(line({ batchAnswers: ok(100) })).toBe('chain check failed: base: node: a JSON-RPC batch of 1000 requests got 100 answers')
  })
})
