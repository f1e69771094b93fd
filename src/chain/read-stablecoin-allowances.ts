import type { Address, PublicClient } from 'viem'
import { ALLOWANCE, addressCalls, readWords } from './read-words-multicall.ts'

/**
 * What each wallet allows `spender` to take of the stablecoin, through Multicall3 (read-words-multicall.ts): by
 * lower-cased wallet; at `blockNumber` when given (default latest).
 */
export async function readStablecoinAllowances(
  client: Pick<PublicClient, 'call'>,
  multicall3: Address,
  stablecoin: Address,
  spender: Address,
  wallets: readonly Address[],
  blockNumber?: bigint,
): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>()
  if (wallets.length === 0) return out
  const words = await readWords(client, multicall3, stablecoin, addressCalls(ALLOWANCE, wallets, spender), blockNumber)
  for (let i = 0; i < wallets.length; i++) out.set(wallets[i]!.toLowerCase(), words[i]!)
  return out
}
