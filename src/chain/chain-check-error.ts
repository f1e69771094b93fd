import type { Address } from 'viem'
import type { ChainKey } from './chain-keys.ts'

/**
 * The chain given at start-up is not the one the configuration describes: a wrong chain id, no code at an address the
 * daemon uses, a stablecoin with other decimals, a wallet factory that derives other addresses, a node that refuses
 * what the daemon relies on. `message` is the one line printed before the daemon exits; it names the chain, the
 * address (when one is at fault) and what was found, and never the RPC URL (provider URLs carry API keys).
 */
export class ChainCheckError extends Error {
  readonly chain: ChainKey
  readonly address: Address | undefined
  readonly found: string

  constructor(chain: ChainKey, what: string, address: Address | undefined, found: string) {
    super(`chain check failed: ${chain}: ${what}${address ? ` at ${address}` : ''}: ${found}`)
    this.name = 'ChainCheckError'
    this.chain = chain
    this.address = address
    this.found = found
  }
}

export const isChainCheckError = (error: unknown): error is ChainCheckError => error instanceof ChainCheckError
