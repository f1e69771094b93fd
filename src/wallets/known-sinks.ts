import { type Address, getAddress } from 'viem'
import { entryPoint06Address, entryPoint07Address, entryPoint08Address, entryPoint09Address } from 'viem/account-abstraction'
import type { ChainAddresses } from '../chain/chain-keys.ts'

/**
 * Why a withdrawal destination is a known sink on this chain, or undefined. A transfer to these succeeds and nothing
 * gets it back: a token sent to a protocol contract (USDC to the EntryPoint, WETH or the PoolManager) stays there, ETH
 * sent to an EntryPoint becomes a deposit in the wallet's name that no API of ours withdraws, and precompiles and the
 * OP-stack predeploys hold whatever they receive. The simulation of the transfer cannot tell: it succeeds.
 */
export function knownSinkReason(to: Address, addresses: Partial<ChainAddresses>): string | undefined {
  const target = getAddress(to)
  for (const [name, address] of Object.entries(addresses)) {
    if (typeof address === 'string' && getAddress(address) === target) return `the chain's ${name} contract`
  }
  for (const [version, address] of ENTRY_POINTS) if (address === target) return `the ERC-4337 EntryPoint ${version}`
  const value = BigInt(target)
  // Precompiles: 0x01-0x11 (Ethereum up to Prague's BLS12-381 set) and 0x100 (RIP-7212 P256VERIFY, live on Base).
  // Source: evm.codes/precompiled; docs.base.org (RIP-7212 since Fjord).
  if ((value >= 1n && value <= 0x11n) || value === 0x100n) return 'a precompile'
  // OP-stack predeploys live in 0x4200…0000-0x4200…07ff (Optimism specs, "Predeploys"): WETH, the L1 attributes, BaseTime.
  if (value >= PREDEPLOY_START && value <= PREDEPLOY_START + 0x7ffn) return 'an OP-stack predeploy'
  return undefined
}

const ENTRY_POINTS: ReadonlyArray<[string, Address]> = [
  ['v0.6', getAddress(entryPoint06Address)],
  ['v0.7', getAddress(entryPoint07Address)],
  ['v0.8', getAddress(entryPoint08Address)],
  ['v0.9', getAddress(entryPoint09Address)],
]
const PREDEPLOY_START = BigInt('0x4200000000000000000000000000000000000000')
