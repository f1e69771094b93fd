import { parseEventLogs, type Address, type Hash, type PublicClient } from 'viem'
import { buyRouterAbi } from './buy-router-abi.ts'
import { getLogsInChunks } from '../../src/chain/get-logs-in-chunks.ts'

export interface BuyOutcome {
  txHash: Hash
  blockNumber: bigint
  amountIn: bigint
  /** Gross tokens out of the pool, before the platform fee. */
  tokensReceived: bigint
  fee: bigint
}

interface PrebuyBuyArgs {
  buyer: Address
  orderId: Hash
  token: Address
  amountIn: bigint
  tokensReceived: bigint
  fee: bigint
}

const toOutcome = (log: { args: unknown; transactionHash: Hash | null; blockNumber: bigint | null }): BuyOutcome => {
  const args = log.args as PrebuyBuyArgs
  return { txHash: log.transactionHash!, blockNumber: log.blockNumber!, amountIn: args.amountIn, tokensReceived: args.tokensReceived, fee: args.fee }
}

export const buyKey = (buyer: Address, orderId: Hash): string => `${buyer.toLowerCase()}!${orderId}`

/** Every PrebuyBuy of one transaction (a handleOps carrying many buys), by buyer and order id. */
export async function findBuysInTransaction(client: PublicClient, router: Address, txHash: Hash): Promise<Map<string, BuyOutcome>> {
  const receipt = await client.getTransactionReceipt({ hash: txHash })
  const out = new Map<string, BuyOutcome>()
  for (const log of parseEventLogs({ abi: buyRouterAbi, logs: receipt.logs, eventName: 'PrebuyBuy' })) {
    if (log.address.toLowerCase() !== router.toLowerCase()) continue
    const args = log.args as unknown as PrebuyBuyArgs
    out.set(buyKey(args.buyer, args.orderId), toOutcome(log as never))
  }
  return out
}

/**
 * The chain's answer to "did this order buy?", independent of any transaction hash we may have lost in a crash: the
 * router's `executed` flag, and the PrebuyBuy log (indexed by buyer and order id) for the amounts.
 */
export async function findBuyOnChain(
  client: PublicClient,
  router: Address,
  buyer: Address,
  orderId: Hash,
  fromBlock: bigint,
  /** Widest getLogs range per request (the chain's getLogsMaxBlocks): after downtime the search spans many blocks. */
  maxBlocks?: number,
): Promise<BuyOutcome | undefined> {
  const executed = (await client.readContract({ address: router, abi: buyRouterAbi, functionName: 'executed', args: [buyer, orderId] })) as boolean
  if (!executed) return undefined
  const logs = await getLogsInChunks(
    client,
    { fromBlock, toBlock: 'latest' },
    (from, to) =>
      client.getContractEvents({ address: router, abi: buyRouterAbi, eventName: 'PrebuyBuy', args: { buyer, orderId }, fromBlock: from, toBlock: to }),
    { maxBlocks, firstOnly: true },
  )
  const log = logs[0]
  if (!log) return undefined
  return toOutcome(log as never)
}
