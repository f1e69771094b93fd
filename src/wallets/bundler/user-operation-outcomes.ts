import { parseEventLogs, toEventSelector, type Hash, type Log } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import type { DecodedRevert } from '../wallet-service.ts'
import type { UserOperationOutcome } from './bundler.ts'
import { decodeRevertReason, revertWithoutReason } from './decode-revert-reason.ts'

const USER_OPERATION_EVENT = toEventSelector(
  'UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)
const USER_OPERATION_REVERT_REASON = toEventSelector(
  'UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason)',
)

/**
 * Reads what the EntryPoint says happened to each UserOperation: `UserOperationEvent` carries the success flag,
 * `UserOperationRevertReason` the revert data of a failed call. Logs from other contracts are ignored, so a receipt's
 * whole log list can be passed in.
 */
export function outcomesFromLogs(logs: readonly Log[], entryPoint: string): Map<Hash, UserOperationOutcome> {
  // Filter on address and topic before decoding: a big bundle's receipt is mostly token and account events.
  const target = entryPoint.toLowerCase()
  const ours = logs.filter((log) => {
    const topic = log.topics[0]
    return log.address.toLowerCase() === target && (topic === USER_OPERATION_EVENT || topic === USER_OPERATION_REVERT_REASON)
  })
  const parsed = parseEventLogs({ abi: entryPoint07Abi, logs: ours, eventName: ['UserOperationEvent', 'UserOperationRevertReason'] })
  const reasons = new Map<Hash, DecodedRevert>()
  for (const log of parsed) {
    if (log.eventName === 'UserOperationRevertReason') reasons.set(log.args.userOpHash, decodeRevertReason(log.args.revertReason))
  }
  const outcomes = new Map<Hash, UserOperationOutcome>()
  for (const log of parsed) {
    if (log.eventName !== 'UserOperationEvent' || log.transactionHash === null || log.blockNumber === null) continue
    const mined = { userOpHash: log.args.userOpHash, txHash: log.transactionHash, blockNumber: log.blockNumber }
    outcomes.set(
      log.args.userOpHash,
      log.args.success ? { status: 'included', ...mined } : { status: 'reverted', ...mined, revert: reasons.get(log.args.userOpHash) ?? revertWithoutReason() },
    )
  }
  return outcomes
}
