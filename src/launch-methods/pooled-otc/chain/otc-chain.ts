import { erc20Abi, type Address, type Hash, type Hex, type PublicClient } from 'viem'
import type { ChainKey } from '../../../chain/chain-keys.ts'
import type { OnChainOffer } from './otc-settlement-contract.ts'
import { readOffer, settlingTransaction } from './settle-offer.ts'

/** What the OTC service reads from the chains: the port the daemon fills with its clients and settlement addresses. */
export interface OtcChain {
  /** The settlement contract on a chain; null when this deployment has none there (OTC refused on that chain). */
  settlement(chain: ChainKey): Address | null
  /** The vesting contract locked offers put buyers' tokens in (the settlement's constructor argument); null: none. */
  vesting(chain: ChainKey): Address | null
  readToken(chain: ChainKey, token: Address): Promise<{ symbol: string; decimals: number; totalSupply: bigint }>
  tokenBalance(chain: ChainKey, token: Address, owner: Address): Promise<bigint>
  /** The offer stored under `key` (`otcOfferKey(depositing wallet, offerId)`: an id alone names no offer). */
  readOffer(chain: ChainKey, key: Hex): Promise<OnChainOffer>
  /** The transaction that settled the closed offer `key`, searched from `fromBlock`; null: cancelled (or out of reach). */
  settledIn(chain: ChainKey, key: Hex, fromBlock: bigint): Promise<Hash | null>
  /** The chain's latest block time, unix seconds (settlement times are checked against it, not the host clock). */
  now(chain: ChainKey): Promise<bigint>
  client(chain: ChainKey): PublicClient
}

export function createOtcChain(deps: {
  clients: Record<ChainKey, PublicClient>
  settlements: Partial<Record<ChainKey, Address>>
  vesting?: Partial<Record<ChainKey, Address>>
}): OtcChain {
  const { clients, settlements } = deps
  const mustSettlement = (chain: ChainKey): Address => {
    const address = settlements[chain]
    if (!address) throw new Error(`no OTC settlement contract on ${chain}`)
    return address
  }
  return {
    settlement: (chain) => settlements[chain] ?? null,
    vesting: (chain) => deps.vesting?.[chain] ?? null,
    async readToken(chain, token) {
      const client = clients[chain]
      const [symbol, decimals, totalSupply] = await Promise.all([
        client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }),
        client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }),
        client.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' }),
      ])
      return { symbol, decimals, totalSupply }
    },
    tokenBalance: (chain, token, owner) => clients[chain].readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
    readOffer: (chain, key) => readOffer(clients[chain], mustSettlement(chain), key),
    settledIn: (chain, key, fromBlock) => settlingTransaction(clients[chain], mustSettlement(chain), key, fromBlock),
    now: async (chain) => (await clients[chain].getBlock()).timestamp,
    client: (chain) => clients[chain],
  }
}
