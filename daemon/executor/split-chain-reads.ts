import type { Address, Hash, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { getLogsInChunks } from '../../src/chain/get-logs-in-chunks.ts'
import { batchBuyerAbi } from './batch-buyer-abi.ts'

/** PrebuyBatchBuyer's Collection status (collections(batchId).status). */
export const COLLECTION_NONE = 0
export const COLLECTION_COLLECTING = 1
export const COLLECTION_SETTLED = 2
export const COLLECTION_CANCELLED = 3

/** A split batch's state on chain (`collections(batchId)`) and the chain's current block. */
export interface CollectionOnChain {
  status: number
  /** The last block settle may land in; after it (still collecting) anyone may refund. */
  settleBy: bigint
  collected: bigint
  chunks: number
  chunksDone: number
  /** The block the read was made at. */
  blockNumber: bigint
}

/** One chunk as ChunkCollected and its CollectSkipped say (indexes within the chunk). */
export interface CollectedChunk {
  chunk: number
  amount: bigint
  paidHash: Hash
  skipped: number[]
}

export interface SettledOnChain {
  txHash: Hash
  blockNumber: bigint
  totalIn: bigint
  tokensOut: bigint
}

/** The split batch's chain reads, behind one interface. */
export interface SplitChainReads {
  collection(chain: ChainKey, batchBuyer: Address, batchId: Hash): Promise<CollectionOnChain>
  /** collectedChunks(batchId, chunk): its size and cursor (buyers swept or refunded so far); size 0: not collected. */
  chunk(chain: ChainKey, batchBuyer: Address, batchId: Hash, chunk: number): Promise<{ size: number; cursor: number }>
  /** Every ChunkCollected of the batch since `fromBlock`, with their CollectSkipped, by chunk id. */
  collected(chain: ChainKey, batchBuyer: Address, batchId: Hash, fromBlock: bigint): Promise<Map<number, CollectedChunk>>
  /** BatchSettled of the batch since `fromBlock`. */
  settled(chain: ChainKey, batchBuyer: Address, batchId: Hash, fromBlock: bigint): Promise<SettledOnChain | undefined>
}

export function createSplitChainReads(deps: {
  chains: Partial<Record<ChainKey, ChainConfig>>
  clients: Partial<Record<ChainKey, PublicClient>>
}): SplitChainReads {
  const clientOf = (chain: ChainKey): PublicClient => {
    const client = deps.clients[chain]
    if (!client) throw new Error(`no client on ${chain}`)
    return client
  }
  const events = async (chain: ChainKey, batchBuyer: Address, batchId: Hash, eventName: string, fromBlock: bigint, firstOnly = false) => {
    const client = clientOf(chain)
    return getLogsInChunks(
      client,
      { fromBlock, toBlock: 'latest' },
      (from, to) => client.getContractEvents({ address: batchBuyer, abi: batchBuyerAbi, eventName, args: { batchId }, fromBlock: from, toBlock: to }),
      { maxBlocks: deps.chains[chain]?.getLogsMaxBlocks, firstOnly },
    ) as Promise<Array<{ args: Record<string, unknown>; transactionHash: Hash | null; blockNumber: bigint | null }>>
  }
  return {
    async collection(chain, batchBuyer, batchId) {
      const client = clientOf(chain)
      const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
      const c = (await client.readContract({
        address: batchBuyer,
        abi: batchBuyerAbi,
        functionName: 'collections',
        args: [batchId],
        blockNumber,
      })) as readonly unknown[]
      // Collection: stablecoin, settleBy, status, buyers, collected, minPaid, chunks, chunksDone.
      return {
        settleBy: BigInt(c[1] as number | bigint),
        status: Number(c[2] as number | bigint),
        collected: BigInt(c[4] as number | bigint),
        chunks: Number(c[6] as number | bigint),
        chunksDone: Number(c[7] as number | bigint),
        blockNumber,
      }
    },
    async chunk(chain, batchBuyer, batchId, chunk) {
      const k = (await clientOf(chain).readContract({
        address: batchBuyer,
        abi: batchBuyerAbi,
        functionName: 'collectedChunks',
        args: [batchId, BigInt(chunk)],
      })) as readonly unknown[]
      return { size: Number(k[1] as number | bigint), cursor: Number(k[2] as number | bigint) }
    },
    async collected(chain, batchBuyer, batchId, fromBlock) {
      const [chunks, skips] = await Promise.all([
        events(chain, batchBuyer, batchId, 'ChunkCollected', fromBlock),
        events(chain, batchBuyer, batchId, 'CollectSkipped', fromBlock),
      ])
      const out = new Map<number, CollectedChunk>()
      for (const log of chunks) {
        const chunk = Number(log.args.chunk as bigint)
        out.set(chunk, { chunk, amount: log.args.amount as bigint, paidHash: log.args.paidHash as Hash, skipped: [] })
      }
      for (const log of skips) out.get(Number(log.args.chunk as bigint))?.skipped.push(Number(log.args.index as bigint))
      return out
    },
    async settled(chain, batchBuyer, batchId, fromBlock) {
      const [log] = await events(chain, batchBuyer, batchId, 'BatchSettled', fromBlock, true)
      if (!log) return undefined
      return { txHash: log.transactionHash!, blockNumber: log.blockNumber!, totalIn: log.args.totalIn as bigint, tokensOut: log.args.tokensOut as bigint }
    },
  }
}
