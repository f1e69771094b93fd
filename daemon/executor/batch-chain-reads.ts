import { type Address, type Hash, type Log, parseEventLogs, type PublicClient, type TransactionReceipt } from 'viem'
import { readStablecoinAllowances } from '../../src/chain/read-stablecoin-allowances.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { getLogsInChunks } from '../../src/chain/get-logs-in-chunks.ts'
import type { BatchExecutionRecord } from '../../src/journal/batch-records.ts'
import { nodeKnowsTransaction } from '../../src/wallets/bundler/poll-receipt.ts'
import { batchBuyerAbi } from './batch-buyer-abi.ts'

/** A batch as PrebuyBatchBuyer stores it (`batches(batchId)`). */
export interface BatchOnChain {
  executed: boolean
  allocationHash: Hash
  /** The sweep cursor: buyers credited so far. */
  swept: number
}

/** The chain reads of the batch path, behind one interface (the executor's parts are tested with fakes of it). */
export interface BatchChainReads {
  /** Each wallet's stablecoin allowance to `spender` at a block, in one multicall, by lower-cased address. */
  allowances(chain: ChainKey, spender: Address, wallets: readonly Address[], blockNumber: bigint): Promise<Map<string, bigint>>
  batch(chain: ChainKey, batchBuyer: Address, batchId: Hash): Promise<BatchOnChain>
  /**
   * Whether a batch pulled or may still pull from its open collection (PrebuyBatchBuyer `pulled`: executed, or a split
   * batch collecting): a released batch that did came back (superseded-batches.ts). Optional for the unit tests' fakes.
   */
  pulled?(chain: ChainKey, batchBuyer: Address, batchId: Hash): Promise<boolean>
  /** BatchExecuted and BuyerSkipped of a batch in a receipt (undefined: not in it). */
  executionIn(batchBuyer: Address, batchId: Hash, receipt: TransactionReceipt): BatchExecutionRecord | undefined
  /** The same searched in the logs from `fromBlock` (after a crash: the hash may be unknown). */
  executionOf(chain: ChainKey, batchBuyer: Address, batchId: Hash, fromBlock: bigint): Promise<BatchExecutionRecord | undefined>
  /** The receipt of a transaction, or whether the node still holds it unmined. */
  landing(chain: ChainKey, txHash: Hash): Promise<{ receipt: TransactionReceipt | undefined; pending: boolean }>
  /** Whether the account has no transaction waiting in the node's pool (its pending nonce is its mined nonce). */
  idle(chain: ChainKey, account: Address): Promise<boolean>
  /** The chain's head block number, read now (whether a batch's last block is final yet). */
  head(chain: ChainKey): Promise<bigint>
}

type Parsed = { eventName: string; args: Record<string, unknown>; address: Address; transactionHash: Hash | null; blockNumber: bigint | null }

/** BatchExecuted and its BuyerSkipped among some logs (of one transaction). */
function executionFrom(batchBuyer: Address, batchId: Hash, logs: readonly Log[]): BatchExecutionRecord | undefined {
  const parsed = (parseEventLogs({ abi: batchBuyerAbi, logs: [...logs] }) as unknown as Parsed[]).filter(
    (l) => l.address.toLowerCase() === batchBuyer.toLowerCase() && (l.args.batchId as Hash) === batchId,
  )
  const executed = parsed.find((l) => l.eventName === 'BatchExecuted')
  if (!executed) return undefined
  return {
    txHash: executed.transactionHash!,
    blockNumber: executed.blockNumber!.toString(),
    totalIn: (executed.args.totalIn as bigint).toString(),
    tokensOut: (executed.args.tokensOut as bigint).toString(),
    skipped: parsed.filter((l) => l.eventName === 'BuyerSkipped').map((l) => Number(l.args.index as bigint)),
    allocationHash: executed.args.allocationHash as Hash,
  }
}

export function createBatchChainReads(deps: {
  chains: Partial<Record<ChainKey, ChainConfig>>
  clients: Partial<Record<ChainKey, PublicClient>>
}): BatchChainReads {
  const clientOf = (chain: ChainKey): PublicClient => {
    const client = deps.clients[chain]
    if (!client) throw new Error(`no client on ${chain}`)
    return client
  }
  return {
    async allowances(chain, spender, wallets, blockNumber) {
      const { multicall3, stablecoin } = deps.chains[chain]!.addresses
      return readStablecoinAllowances(clientOf(chain), multicall3, stablecoin, spender, wallets, blockNumber)
    },
    async batch(chain, batchBuyer, batchId) {
      const b = (await clientOf(chain).readContract({
        address: batchBuyer,
        abi: batchBuyerAbi,
        functionName: 'batches',
        args: [batchId],
      })) as readonly unknown[]
      return { allocationHash: b[0] as Hash, executed: b[6] as boolean, swept: Number(b[7] as number | bigint) }
    },
    async pulled(chain, batchBuyer, batchId) {
      return (await clientOf(chain).readContract({ address: batchBuyer, abi: batchBuyerAbi, functionName: 'pulled', args: [batchId] })) as boolean
    },
    executionIn: (batchBuyer, batchId, receipt) => executionFrom(batchBuyer, batchId, receipt.logs),
    async executionOf(chain, batchBuyer, batchId, fromBlock) {
      const client = clientOf(chain)
      const found = await getLogsInChunks(
        client,
        { fromBlock, toBlock: 'latest' },
        (from, to) =>
          client.getContractEvents({ address: batchBuyer, abi: batchBuyerAbi, eventName: 'BatchExecuted', args: { batchId }, fromBlock: from, toBlock: to }),
        { maxBlocks: deps.chains[chain]?.getLogsMaxBlocks, firstOnly: true },
      )
      const hash = found[0]?.transactionHash
      if (!hash) return undefined
      return executionFrom(batchBuyer, batchId, (await client.getTransactionReceipt({ hash })).logs)
    },
    async landing(chain, txHash) {
      const client = clientOf(chain)
      const receipt = await client.getTransactionReceipt({ hash: txHash }).catch(() => undefined)
      if (receipt) return { receipt, pending: false }
      return { receipt: undefined, pending: await nodeKnowsTransaction(client, txHash) }
    },
    async idle(chain, account) {
      const client = clientOf(chain)
      const [pending, mined] = await Promise.all([
        client.getTransactionCount({ address: account, blockTag: 'pending' }),
        client.getTransactionCount({ address: account, blockTag: 'latest' }),
      ])
      return pending <= mined
    },
    head: (chain) => clientOf(chain).getBlockNumber({ cacheTime: 0 }),
  }
}
