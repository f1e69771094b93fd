import { decodeFunctionData, parseAbiItem, type Address, type Hex, type PublicClient } from 'viem'
import { batchBuyerAbi, readBatchEntry } from '../../daemon/executor/batch-buyer-abi.ts'

/** The batch buyer's event of an executeBatch (PrebuyBatchBuyer.sol). */
export const BATCH_EXECUTED = parseAbiItem(
  'event BatchExecuted(bytes32 indexed batchId, address indexed token, uint256 totalIn, uint256 tokensOut, uint256 lowestLimitFdv, uint256 buyersPaid, uint256 buyersSkipped, bytes32 allocationHash)',
)
const BUYER_SKIPPED = parseAbiItem('event BuyerSkipped(bytes32 indexed batchId, address indexed buyer, uint256 index, uint256 amount)')

/** One executeBatch on chain: its paid entries (BuyerSkipped zeroed) as the contract committed them. */
export interface ChainBatch {
  batchId: Hex
  txHash: Hex
  token: Address
  tokensOut: bigint
  allocationHash: Hex
  entries: { wallet: Address; amount: bigint }[]
}

/** Every executeBatch of the batch buyer on the chain as it is now (optionally of one token), from its calldata and events. */
export async function chainBatches(client: PublicClient, batchBuyer: Address, token?: Address): Promise<ChainBatch[]> {
  const executed = await client.getLogs({ address: batchBuyer, event: BATCH_EXECUTED, ...(token ? { args: { token } } : {}), fromBlock: 0n })
  return Promise.all(
    executed.map(async (log) => {
      const tx = await client.getTransaction({ hash: log.transactionHash })
      const { args } = decodeFunctionData({ abi: batchBuyerAbi, data: tx.input })
      const skipped = await client.getLogs({
        address: batchBuyer,
        event: BUYER_SKIPPED,
        args: { batchId: log.args.batchId! },
        fromBlock: log.blockNumber,
        toBlock: log.blockNumber,
      })
      const skippedAt = new Set(skipped.map((s) => Number(s.args.index!)))
      const entries = (args![2] as readonly bigint[]).map((word, i) => {
        const entry = readBatchEntry(word)
        return { wallet: entry.wallet, amount: skippedAt.has(i) ? 0n : entry.amount }
      })
      return {
        batchId: log.args.batchId!,
        txHash: log.transactionHash,
        token: log.args.token!,
        tokensOut: log.args.tokensOut!,
        allocationHash: log.args.allocationHash!,
        entries,
      }
    }),
  )
}
