import type { Address, PublicClient } from 'viem'
import { addressCalls, BALANCE_OF, readWords } from './read-words-multicall.ts'

/**
 * Every wallet's stablecoin balance through Multicall3 (on every chain we run on), by lower-cased address: its
 * aggregate3 calls written by hand and asked at once (read-words-multicall.ts: viem's multicall cost ~200 ms of CPU
 * for 5,000 wallets' reads around a launch).
 */
export async function readStablecoinBalances(
  client: Pick<PublicClient, 'call'>,
  multicall3: Address,
  stablecoin: Address,
  wallets: readonly Address[],
  /** Read at this block (default: latest). */
  blockNumber?: bigint,
): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>()
  if (wallets.length === 0) return out
  const words = await readWords(client, multicall3, stablecoin, addressCalls(BALANCE_OF, wallets), blockNumber)
  for (let i = 0; i < wallets.length; i++) out.set(wallets[i]!.toLowerCase(), words[i]!)
  return out
}
