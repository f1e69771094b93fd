import { hexToBigInt, isAddressEqual, sliceHex, type Address, type Hex } from 'viem'
import type { ChainKey } from './chain-keys.ts'

/**
 * What the daemon assumes about one chain, checked at start-up against what the chain answers (observe-chain.ts). The
 * comparison is pure: it says which assumption the chain breaks first, in the order an operator should fix them.
 */
export interface ChainExpectation {
  key: ChainKey
  chainId: number
  /** Every contract the daemon calls on this chain, named as in the configuration. */
  contracts: ReadonlyArray<{ name: string; address: Address }>
  stablecoin: Address
  stablecoinDecimals: number
  weth: Address
  ethUsdPool: Address
  /**
   * The wallet factory, a test owner, and the wallet address the daemon computes offline for that owner (salt 0).
   * Absent when no factory is configured (optional on a real chain without SimpleAccount wallets): nothing to derive.
   */
  account?: {
    factory: Address
    owner: Address
    expected: Address
    /**
     * For a factory other than SimpleAccountFactory (whose `getAddress(owner, 0)` is asked by default): the eth_call
     * data that answers the wallet's address (Kernel: the meta-factory's deployWithFactory, simulated), the factory's
     * name in the configuration's terms, how the call reads in a message, and what a mismatch suggests.
     */
    derivation?: { call: Hex; name: string; describe: string; hint: string }
  }
  /** What the daemon passes to the node: the gas of a simulation eth_call, the largest JSON-RPC batch. */
  node: { callGas: bigint; batchSize: number }
}

/** One answer from the chain: the value, or the error the node or the contract gave. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: string }

export interface ChainObservation {
  chainId: Answer<number>
  /** The chain id over the WebSocket URL (the indexer's subscriptions): it must be the same chain. */
  wsChainId: Answer<number>
  /** Whether each of `expectation.contracts` has code, in the same order. */
  hasCode: ReadonlyArray<Answer<boolean>>
  stablecoinDecimals: Answer<number>
  ethUsdPoolTokens: Answer<readonly [Address, Address]>
  /** The factory's own `getAddress(owner, 0)`; absent when `expectation.account` is. */
  derivedAccount?: Answer<Address> | undefined
  /** The return data of a probe placed by state override and called with `node.callGas`: the gas it had left at its first instruction. */
  gasProbe: Answer<Hex>
  /** The return data of the same probe with block overrides (`asked`): the number and time it ran in. */
  blockProbe: Answer<{ asked: { number: bigint; time: bigint }; data: Hex }>
  /** How many answers a JSON-RPC batch of `node.batchSize` requests got back. */
  batchAnswers: Answer<number>
}

export interface ChainMismatch {
  /** What is wrong, named as in the configuration (a contract) or the RPC method. */
  what: string
  address?: Address
  found: string
}

/**
 * Gas the probe may see below what it was called with: the transaction's intrinsic 21,000 and its GAS instruction. A
 * node that capped the call lower than this lowers every bundle simulation too.
 */
const PROBE_GAS_OVERHEAD = 21_000n + 1_000n

/**
 * The probe's code (placed by state override, never deployed): returns GAS (first instruction), NUMBER and TIMESTAMP as
 * three words. 5a GAS, 6000 52 MSTORE at 0; 43 NUMBER, 6020 52; 42 TIMESTAMP, 6040 52; 6060 6000 f3 RETURN(0, 0x60).
 */
export const PROBE_CODE: Hex = '0x5a600052436020524260405260606000f3'

const word = (data: Hex, index: number): bigint => hexToBigInt(sliceHex(data, index * 32, (index + 1) * 32))
const probeAnswered = (data: Hex): boolean => data.length === 2 + 3 * 64

/** The first assumption the chain breaks, or undefined when it is the chain the configuration describes. */
export function chainMismatch(expected: ChainExpectation, observed: ChainObservation): ChainMismatch | undefined {
  if (!observed.chainId.ok) return { what: 'eth_chainId', found: `the node did not answer: ${observed.chainId.error}` }
  if (observed.chainId.value !== expected.chainId) {
    return { what: 'eth_chainId', found: `the node is on chain ${observed.chainId.value}, the configuration says ${expected.chainId}` }
  }
  if (!observed.wsChainId.ok) return { what: 'eth_chainId over wsUrl', found: `the WebSocket node did not answer: ${observed.wsChainId.error}` }
  if (observed.wsChainId.value !== expected.chainId) {
    return { what: 'eth_chainId over wsUrl', found: `the WebSocket node is on chain ${observed.wsChainId.value}, the configuration says ${expected.chainId}` }
  }

  for (const [index, contract] of expected.contracts.entries()) {
    const code = observed.hasCode[index]
    if (!code?.ok) return { what: contract.name, address: contract.address, found: `could not read its code: ${code?.error ?? 'no answer'}` }
    if (!code.value) return { what: contract.name, address: contract.address, found: 'no contract there (no code at this address on this chain)' }
  }

  const decimals = observed.stablecoinDecimals
  if (!decimals.ok) return { what: 'stablecoin', address: expected.stablecoin, found: `decimals() failed: ${decimals.error}` }
  if (decimals.value !== expected.stablecoinDecimals) {
    return { what: 'stablecoin', address: expected.stablecoin, found: `decimals() is ${decimals.value}, the daemon assumes ${expected.stablecoinDecimals}` }
  }

  const tokens = observed.ethUsdPoolTokens
  if (!tokens.ok) return { what: 'ethUsdPool', address: expected.ethUsdPool, found: `token0()/token1() failed: ${tokens.error}` }
  const pair = [expected.weth, expected.stablecoin] as const
  const isPair =
    (isAddressEqual(tokens.value[0], pair[0]) && isAddressEqual(tokens.value[1], pair[1])) ||
    (isAddressEqual(tokens.value[0], pair[1]) && isAddressEqual(tokens.value[1], pair[0]))
  if (!isPair) {
    return {
      what: 'ethUsdPool',
      address: expected.ethUsdPool,
      found: `a pool of ${tokens.value[0]} and ${tokens.value[1]}, not of weth ${expected.weth} and stablecoin ${expected.stablecoin}`,
    }
  }

  if (expected.account) {
    const { factory, owner, expected: computed, derivation } = expected.account
    const what = derivation?.name ?? 'accountFactory'
    const derived = observed.derivedAccount
    if (!derived) return { what, address: factory, found: 'not asked for its wallet derivation' }
    if (!derived.ok) return { what, address: factory, found: `${derivation?.describe ?? `getAddress(${owner}, 0)`} failed: ${derived.error}` }
    if (!isAddressEqual(derived.value, computed)) {
      return {
        what,
        address: factory,
        found: `derives wallet ${derived.value} for owner ${owner}, the daemon computes ${computed} (${derivation?.hint ?? 'not the canonical SimpleAccountFactory v0.7?'})`,
      }
    }
  }

  return nodeMismatch(expected, observed)
}

/** The node's side: state and block overrides on eth_call, the gas the daemon passes, the batch size it sends. */
function nodeMismatch(expected: ChainExpectation, observed: ChainObservation): ChainMismatch | undefined {
  const { callGas, batchSize } = expected.node
  const gas = observed.gasProbe
  if (!gas.ok) return { what: 'node', found: `eth_call with a state override and ${callGas} gas refused: ${gas.error}` }
  if (!probeAnswered(gas.value)) return { what: 'node', found: `eth_call ignored the state override (the probe returned ${gas.value.slice(0, 20)})` }
  const gasSeen = word(gas.value, 0)
  if (gasSeen + PROBE_GAS_OVERHEAD < callGas) {
    return { what: 'node', found: `eth_call ran with ${gasSeen + 21_002n} gas, the daemon passes ${callGas} (the node caps eth_call gas lower)` }
  }

  const block = observed.blockProbe
  if (!block.ok) return { what: 'node', found: `eth_call with block overrides refused: ${block.error}` }
  if (!probeAnswered(block.value.data)) return { what: 'node', found: 'eth_call with block overrides ignored the state override' }
  const [number, time] = [word(block.value.data, 1), word(block.value.data, 2)]
  if (number !== block.value.asked.number || time !== block.value.asked.time) {
    return {
      what: 'node',
      found: `eth_call ignored block overrides (asked block ${block.value.asked.number} at ${block.value.asked.time}, ran in block ${number} at ${time})`,
    }
  }

  const batch = observed.batchAnswers
  if (!batch.ok) return { what: 'node', found: `a JSON-RPC batch of ${batchSize} requests refused: ${batch.error}` }
  if (batch.value !== batchSize) return { what: 'node', found: `a JSON-RPC batch of ${batchSize} requests got ${batch.value} answers` }
  return undefined
}
