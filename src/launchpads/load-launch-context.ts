import type { Log, PublicClient } from 'viem'
import { PrebuyError } from '../common/errors.ts'
import type { LaunchContext } from './launchpad-adapter.ts'
import { readLaunchAttribution } from './read-launch-attribution.ts'

/**
 * Reads what decodeLaunch needs about a launch log's transaction: its receipt (all logs, sender) and its block's time.
 * Two round trips (three when the sender's code must be read for EIP-7702); the indexer may build the context itself when it already holds the block.
 */
export async function loadLaunchContext(client: PublicClient, log: Log): Promise<LaunchContext> {
  if (log.transactionHash === null || log.blockNumber === null || log.blockHash === null) {
    throw new PrebuyError('pending_launch_log', 'A launch log without a block cannot be decoded yet.')
  }
  const [receipt, block] = await Promise.all([client.getTransactionReceipt({ hash: log.transactionHash }), client.getBlock({ blockHash: log.blockHash })])
  return {
    client,
    txHash: log.transactionHash,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    blockTimestamp: Number(block.timestamp),
    txFrom: receipt.from,
    attribution: await readLaunchAttribution(client, receipt, log),
    txLogs: receipt.logs,
  }
}
