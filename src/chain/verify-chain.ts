import { ChainCheckError } from './chain-check-error.ts'
import { chainMismatch, type ChainExpectation } from './chain-mismatch.ts'
import { observeChain } from './observe-chain.ts'

/**
 * Start-up's check that the chain at these URLs is the one `expected` describes (docs/chains.md, "What start-up
 * checks"). Throws a ChainCheckError naming the first thing that differs; resolves when nothing does.
 */
export async function verifyChain(urls: { rpcUrl: string; wsUrl: string }, expected: ChainExpectation): Promise<void> {
  const mismatch = chainMismatch(expected, await observeChain(urls, expected))
  if (mismatch) throw new ChainCheckError(expected.key, mismatch.what, mismatch.address, mismatch.found)
}
