import { type Address, getAddress, isAddressEqual, type Log, toEventSelector } from 'viem'

/** The canonical ERC-4337 EntryPoints (v0.7 and v0.6): a transaction they run is sent by a shared bundler. */
export const ENTRY_POINTS: readonly Address[] = ['0x0000000071727De22E5E9d8BAf0edAc6f37da032', '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789']

/** Same signature in v0.6 and v0.7; `sender` is the second indexed topic. */
const USER_OPERATION_EVENT = toEventSelector(
  'UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)

/**
 * Who sent a launch, as nobody else can forge it. A plain transaction: its sender. A transaction an EntryPoint ran
 * (`handleOps` from a bundler, shared by everyone): the smart account of the operation that emitted the launch log.
 * The EntryPoint emits each operation's UserOperationEvent after the logs of its execution, so that operation's event
 * is the first one after the launch log.
 */
export function launchDeployer(txFrom: Address, txLogs: readonly Log[], launchLog: Pick<Log, 'logIndex'>): Address {
  const at = launchLog.logIndex ?? -1
  for (const log of txLogs) {
    if ((log.logIndex ?? -1) <= at || log.topics[0] !== USER_OPERATION_EVENT) continue
    if (!ENTRY_POINTS.some((entryPoint) => isAddressEqual(entryPoint, log.address))) continue
    const sender = log.topics[2]
    if (sender) return getAddress(`0x${sender.slice(26)}`)
  }
  return getAddress(txFrom)
}
