import { concatHex, encodeAbiParameters, encodePacked, zeroAddress, type Address, type Hex } from 'viem'
import type { PoolKey } from './launchpad-adapter.ts'

/** Universal Router commands and v4 router actions used by the buy route (Commands.sol, Actions.sol). */
const V3_SWAP_EXACT_IN = '0x00'
const V4_SWAP = '0x10'
const UNWRAP_WETH = '0x0c'
const ACTION_SWAP_EXACT_IN_SINGLE = '0x06'
const ACTION_SETTLE = '0x0b'
const ACTION_TAKE_ALL = '0x0f'
/** ActionConstants: the router itself as recipient, "the router's whole balance", "the whole open delta". */
const ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002'
const CONTRACT_BALANCE = 1n << 255n
const OPEN_DELTA = 0n

const POOL_KEY_TUPLE = {
  type: 'tuple',
  components: [
    { name: 'currency0', type: 'address' },
    { name: 'currency1', type: 'address' },
    { name: 'fee', type: 'uint24' },
    { name: 'tickSpacing', type: 'int24' },
    { name: 'hooks', type: 'address' },
  ],
} as const

export interface StablecoinToTokenRoute {
  stablecoin: Address
  weth: Address
  /** Fee tier of the v3 WETH/stablecoin pool (500 on Base). */
  v3Fee: number
  poolKey: PoolKey
  token: Address
  amountIn: bigint
  /** Fewest tokens accepted (the buyer's limit); 0 for none. */
  minTokensOut: bigint
  /** Passed to the pool's hook with the swap; empty when omitted. */
  hookData?: Hex
}

/**
 * Universal Router `execute` commands for stablecoin -> WETH (v3 pool) -> token (v4 pool), exact input: the v3 leg
 * leaves WETH in the router, the v4 leg settles the router's whole WETH balance, swaps all of it and takes every token
 * to the caller, reverting below `minTokensOut`. A pool paired with native ETH (currency0 = address 0) gets an
 * UNWRAP_WETH in between and settles ETH. The caller pays the stablecoin through Permit2.
 */
export function encodeStablecoinToTokenSwap(route: StablecoinToTokenRoute): { commands: Hex; inputs: Hex[] } {
  const v3Input = encodeAbiParameters(
    [{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes' }, { type: 'bool' }],
    [ADDRESS_THIS, route.amountIn, 0n, encodePacked(['address', 'uint24', 'address'], [route.stablecoin, route.v3Fee, route.weth]), true],
  )
  const native = route.poolKey.currency0.toLowerCase() === zeroAddress
  const paid = native ? zeroAddress : route.weth
  const zeroForOne = route.poolKey.currency0.toLowerCase() === paid.toLowerCase()
  const actions = concatHex([ACTION_SETTLE, ACTION_SWAP_EXACT_IN_SINGLE, ACTION_TAKE_ALL])
  const params = [
    encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'bool' }], [paid, CONTRACT_BALANCE, false]),
    encodeAbiParameters(
      [
        {
          type: 'tuple',
          components: [
            { name: 'poolKey', ...POOL_KEY_TUPLE },
            { name: 'zeroForOne', type: 'bool' },
            { name: 'amountIn', type: 'uint128' },
            { name: 'amountOutMinimum', type: 'uint128' },
            { name: 'hookData', type: 'bytes' },
          ],
        },
      ],
      [{ poolKey: route.poolKey, zeroForOne, amountIn: OPEN_DELTA, amountOutMinimum: route.minTokensOut, hookData: route.hookData ?? '0x' }],
    ),
    encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [route.token, route.minTokensOut]),
  ]
  const v4Input = encodeAbiParameters([{ type: 'bytes' }, { type: 'bytes[]' }], [actions, params])
  if (!native) return { commands: concatHex([V3_SWAP_EXACT_IN, V4_SWAP]), inputs: [v3Input, v4Input] }
  const unwrapInput = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [ADDRESS_THIS, 0n])
  return { commands: concatHex([V3_SWAP_EXACT_IN, UNWRAP_WETH, V4_SWAP]), inputs: [v3Input, unwrapInput, v4Input] }
}
