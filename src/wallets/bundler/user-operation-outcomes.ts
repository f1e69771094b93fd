import { parseEventLogs, type Hash, type Log } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { decodeRevertReason } from './decode-revert-reason.ts'

export interface UserOperationOutcome {
  userOpHash: Hash
  txHash: Hash
  blockNumber: bigint
  success: boolean
  revertReason?: string
}

/**
 * Reads what the EntryPoint says happened to each UserOperation: `UserOperationEvent` carries the success flag,
 * `UserOperationRevertReason` the revert data of a failed call. Logs from other contracts are ignored, so a receipt's
 * whole log list can be passed in.
 */
export function outcomesFromLogs(logs: readonly Log[], entryPoint: string): Map<Hash, UserOperationOutcome> {
  const ours = logs.filter((log) => log.address.toLowerCase() === entryPoint.toLowerCase())
  const parsed = parseEventLogs({ abi: entryPoint07Abi, logs: ours, eventName: ['UserOperationEvent', 'UserOperationRevertReason'] })
  const reasons = new Map<Hash, string>()
  for (const log of parsed) {
    if (log.eventName === 'UserOperationRevertReason') reasons.set(log.args.userOpHash, decodeRevertReason(log.args.revertReason))
  }
  const outcomes = new Map<Hash, UserOperationOutcome>()
  for (const log of parsed) {
    if (log.eventName !== 'UserOperationEvent' || log.transactionHash === null || log.blockNumber === null) continue
    const outcome: UserOperationOutcome = {
      userOpHash: log.args.userOpHash,
      txHash: log.transactionHash,
      blockNumber: log.blockNumber,
      success: log.args.success,
    }
    const reason = reasons.get(log.args.userOpHash)
    if (!log.args.success) outcome.revertReason = reason ?? 'reverted without a reason'
    outcomes.set(log.args.userOpHash, outcome)
  }
  return outcomes
}
