import { erc20Abi, type Address, type PublicClient } from 'viem'

/** Every wallet's stablecoin balance in one multicall round trip (Multicall3 on every chain we run on). */
export async function readStablecoinBalances(
  client: PublicClient,
  multicall3: Address,
  stablecoin: Address,
  wallets: readonly Address[],
  /** Read at this block (default: latest). */
  blockNumber?: bigint,
): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>()
  if (wallets.length === 0) return out
  const results = await client.multicall({
    multicallAddress: multicall3,
    allowFailure: false,
    ...(blockNumber === undefined ? {} : { blockNumber }),
    contracts: wallets.map((wallet) => ({ address: stablecoin, abi: erc20Abi, functionName: 'balanceOf' as const, args: [wallet] as const })),
  })
  for (const [i, wallet] of wallets.entries()) out.set(wallet.toLowerCase(), results[i] as bigint)
  return out
}
