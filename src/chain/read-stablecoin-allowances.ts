import { erc20Abi, type Address, type PublicClient } from 'viem'

/** What each wallet allows `spender` to take of the stablecoin, in one multicall round trip: by lower-cased wallet. */
export async function readStablecoinAllowances(
  client: PublicClient,
  multicall3: Address,
  stablecoin: Address,
  spender: Address,
  wallets: readonly Address[],
): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>()
  if (wallets.length === 0) return out
  const results = await client.multicall({
    multicallAddress: multicall3,
    allowFailure: false,
    contracts: wallets.map((wallet) => ({ address: stablecoin, abi: erc20Abi, functionName: 'allowance' as const, args: [wallet, spender] as const })),
  })
  for (const [i, wallet] of wallets.entries()) out.set(wallet.toLowerCase(), results[i] as bigint)
  return out
}
