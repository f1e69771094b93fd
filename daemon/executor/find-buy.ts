import { parseEventLogs, type Address, type Hash, type PublicClient } from 'viem'
import { buyRouterAbi } from './buy-router-abi.ts'

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

/** The router's PrebuyBuy event of one order in a known transaction (the normal path, right after the receipt). */
export async function findBuyInTransaction(client: PublicClient, router: Address, txHash: Hash, buyer: Address, orderId: Hash): Promise<BuyOutcome | undefined> {
  const receipt = await client.getTransactionReceipt({ hash: txHash })
  const logs = parseEventLogs({ abi: buyRouterAbi, logs: receipt.logs, eventName: 'PrebuyBuy' }).filter(
    (log) => log.address.toLowerCase() === router.toLowerCase(),
  )
  const match = logs.find((log) => {
    const args = log.args as unknown as PrebuyBuyArgs
    return args.buyer.toLowerCase() === buyer.toLowerCase() && args.orderId === orderId
  })
  return match ? toOutcome(match as never) : undefined
}

/**
 * The chain's answer to "did this order buy?", independent of any transaction hash we may have lost in a crash: the
 * router's `executed` flag, and the PrebuyBuy log (indexed by buyer and order id) for the amounts.
 */
export async function findBuyOnChain(client: PublicClient, router: Address, buyer: Address, orderId: Hash, fromBlock: bigint): Promise<BuyOutcome | undefined> {
  const executed = (await client.readContract({ address: router, abi: buyRouterAbi, functionName: 'executed', args: [buyer, orderId] })) as boolean
  if (!executed) return undefined
  const logs = await client.getContractEvents({
    address: router,
    abi: buyRouterAbi,
    eventName: 'PrebuyBuy',
    args: { buyer, orderId },
    fromBlock,
    toBlock: 'latest',
  })
  const log = logs[0]
  if (!log) return undefined
  return toOutcome(log as never)
}
