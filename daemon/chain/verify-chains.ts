import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { verifyChain } from '../../src/chain/verify-chain.ts'
import { chainExpectation, type ExpectationOptions } from './chain-expectation.ts'

/**
 * Start-up's chain check, on every enabled chain at once: resolves when each chain is the one configured, otherwise
 * rejects with the ChainCheckError of the first chain (in the order given) that is not.
 */
export async function verifyChains(chains: readonly ChainConfig[], options: ExpectationOptions): Promise<void> {
  const results = await Promise.allSettled(chains.map((chain) => verifyChain(chain, chainExpectation(chain, options))))
  const failed = results.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
}
