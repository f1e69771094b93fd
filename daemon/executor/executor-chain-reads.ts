import type { Address, Hash, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { type BuyOutcome, findBuyOnChain, findBuysInTransaction } from './find-buy.ts'
import { readStablecoinBalances } from '../../src/chain/read-stablecoin-balances.ts'
import { notAnswered } from '../../src/chain/not-answered.ts'
import { TRANSFER_TOPIC, tokenLogsByTopic, topicAddress } from '../../src/chain/token-owner-logs.ts'
import { CLANKER_AUCTION_ABI } from '../../src/launchpads/clanker/clanker-abi.ts'

/** Every chain read the executor makes, behind one interface: its parts are tested with a fake of this. */
export interface ExecutorChainReads {
  /** Stablecoin balances of the wallets (at a block; default latest), by lower-cased address. */
  balances(chain: ChainKey, wallets: readonly Address[], blockNumber?: bigint): Promise<Map<string, bigint>>
  /**
   * Lower-cased addresses whose stablecoin balance may have changed in this block, or in blocks [fromBlock,
   * blockNumber] when given (the token's Transfer logs).
   */
  changedWallets(chain: ChainKey, blockNumber: bigint, fromBlock?: bigint): Promise<ReadonlySet<string>>
  /**
   * The chain's answer to "did this order buy?": the router's executed flag and its PrebuyBuy log, searched from
   * `fromBlock`; undefined when it did not buy.
   */
  buyOf(chain: ChainKey, wallet: Address, orderId: Hash, fromBlock: bigint): Promise<BuyOutcome | undefined>
  /** Every router buy in one transaction (a handleOps carrying many), by buyKey(wallet, orderId). */
  buysInTransaction(chain: ChainKey, txHash: Hash): Promise<Map<string, BuyOutcome>>
  /**
   * Whether `blockNumber` was (up to and including) the next auction block of a Clanker SniperAuctionV2 pool, from the
   * module's state at the block before it: a plain swap reverts there. False for a module without that getter.
   */
  auctionBlock(chain: ChainKey, mevModule: Address, poolId: Hash, blockNumber: bigint): Promise<boolean>
}

export function createExecutorChainReads(deps: {
  chains: Record<ChainKey, ChainConfig>
  clients: Record<ChainKey, PublicClient>
  buyRouters: Record<ChainKey, Address>
  stage: (name: string) => void
}): ExecutorChainReads {
  const { chains, clients, buyRouters, stage } = deps
  return {
    balances(chain, wallets, blockNumber) {
      stage(`balances.read${blockNumber === undefined ? '' : '.warm'}.${wallets.length}`)
      const { multicall3, stablecoin } = chains[chain].addresses
      return readStablecoinBalances(clients[chain], multicall3, stablecoin, wallets, blockNumber)
    },
    async changedWallets(chain, blockNumber, fromBlock = blockNumber) {
      // Undecoded: the two indexed addresses are all it needs (token-owner-logs.ts).
      const logs = await tokenLogsByTopic(clients[chain], chains[chain].addresses.stablecoin, [TRANSFER_TOPIC], fromBlock, blockNumber)
      stage('warm.transferLogs')
      const out = new Set<string>()
      for (const entry of logs) {
        const from = topicAddress(entry.topics[1])
        const to = topicAddress(entry.topics[2])
        if (from === undefined || to === undefined) continue
        out.add(from)
        out.add(to)
      }
      return out
    },
    buyOf: (chain, wallet, orderId, fromBlock) => findBuyOnChain(clients[chain], buyRouters[chain], wallet, orderId, fromBlock, chains[chain].getLogsMaxBlocks),
    buysInTransaction: (chain, txHash) => findBuysInTransaction(clients[chain], buyRouters[chain], txHash),
    async auctionBlock(chain, mevModule, poolId, blockNumber) {
      try {
        const next = await clients[chain].readContract({
          address: mevModule,
          abi: CLANKER_AUCTION_ABI,
          functionName: 'nextAuctionBlock',
          args: [poolId],
          blockNumber: blockNumber - 1n,
        })
        return next > 0n && blockNumber <= next
      } catch (error) {
        if (notAnswered(error)) return false
        throw error
      }
    },
  }
}
