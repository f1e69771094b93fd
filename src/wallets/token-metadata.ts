import { erc20Abi, type Address } from 'viem'
import { NATIVE_ETH_ADDRESS } from '../chain/chain-keys.ts'
import type { TokenInfo } from './wallet-service.ts'

export const NATIVE_ETH: TokenInfo = { address: NATIVE_ETH_ADDRESS, symbol: 'ETH', name: 'Ether', decimals: 18 }

export const isNativeEth = (address: string): boolean => address.toLowerCase() === NATIVE_ETH_ADDRESS.toLowerCase()

/** The three reads that describe an ERC-20, as multicall contract calls. */
export const metadataCalls = (token: Address) =>
  [
    { address: token, abi: erc20Abi, functionName: 'symbol' },
    { address: token, abi: erc20Abi, functionName: 'name' },
    { address: token, abi: erc20Abi, functionName: 'decimals' },
  ] as const

type CallResult = { status: 'success'; result: unknown } | { status: 'failure'; error: Error }

/** Builds TokenInfo from metadataCalls' results; a token whose decimals cannot be read is unusable (undefined). */
export function tokenInfoFrom(token: Address, results: readonly CallResult[]): TokenInfo | undefined {
  const [symbol, name, decimals] = results
  if (decimals?.status !== 'success') return undefined
  return {
    address: token,
    symbol: symbol?.status === 'success' ? String(symbol.result) : '',
    name: name?.status === 'success' ? String(name.result) : '',
    decimals: Number(decimals.result),
  }
}
