import type { Log, PublicClient, TransactionReceipt } from 'viem'
import { attributeLaunch, type LaunchAttribution } from './launch-deployer.ts'

/**
 * attributeLaunch over a launch log's receipt, reading the sender's code (at the launch block) only when the receipt
 * alone does not already make the sender shared: an EIP-7702 delegation designator there makes it shared too.
 */
export async function readLaunchAttribution(
  client: Pick<PublicClient, 'getCode'>,
  receipt: Pick<TransactionReceipt, 'from' | 'type' | 'logs' | 'blockNumber'>,
  launchLog: Pick<Log, 'logIndex'>,
): Promise<LaunchAttribution> {
  const tx = { from: receipt.from, type: receipt.type, logs: receipt.logs }
  const fromReceipt = attributeLaunch(tx, launchLog)
  if (fromReceipt.txFromShared !== null) return fromReceipt
  const fromCode = await client.getCode({ address: receipt.from, blockNumber: receipt.blockNumber })
  return fromCode ? attributeLaunch({ ...tx, fromCode }, launchLog) : fromReceipt
}
