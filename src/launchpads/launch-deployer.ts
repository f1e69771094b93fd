import { type Address, getAddress, type Hex, isAddressEqual, type Log, toEventSelector } from 'viem'
import { entryPoint06Address, entryPoint07Address, entryPoint08Address, entryPoint09Address } from 'viem/account-abstraction'

/**
 * The canonical ERC-4337 EntryPoints, v0.6 to v0.9 (viem's `entryPoint0xAddress` constants; eth-infinitism's
 * deployments). Every one emits `BeforeExecution()` once validation is over and `UserOperationEvent` after each
 * operation's execution, with the same signatures (viem's entryPoint06Abi ... entryPoint09Abi).
 */
export const ENTRY_POINTS: readonly Address[] = [entryPoint06Address, entryPoint07Address, entryPoint08Address, entryPoint09Address]

/** Same signature in v0.6 to v0.9; `sender` is the second indexed topic, `success` the second data word. */
const USER_OPERATION_EVENT = toEventSelector(
  'UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)
const BEFORE_EXECUTION = toEventSelector('BeforeExecution()')

/** EIP-7702: an EOA's code `0xef0100 || address` delegates it to that contract's code. */
const DELEGATION_DESIGNATOR = '0xef0100'

/** What the attribution needs of the launch's transaction. */
export interface LaunchTransaction {
  from: Address
  /** viem's receipt type: 'eip7702' is a type-4 transaction (EIP-7702 authorizations). */
  type: string
  /** Every log of the transaction (the receipt's), in order. */
  logs: readonly Log[]
  /** The sender's code at the launch block, when read: an EIP-7702 delegation designator makes it a shared sender. */
  fromCode?: Hex | undefined
}

/**
 * Who sent a launch, and whether that can be relied on alone. `deployer` is the smart account of the ERC-4337
 * operation whose execution emitted the launch log, else the transaction's sender. `shared` (null when the deployer
 * is nobody else's) says why the deployer acts for many people and so never binds a project alone.
 */
export interface LaunchAttribution {
  deployer: Address
  shared: string | null
  /** The transaction's sender, and why it is shared (a bundler, an EIP-7702 sponsor or delegated account), else null. */
  txFrom: Address
  txFromShared: string | null
  /**
   * Smart accounts whose operations the transaction ran, other than the deployer: none of them emitted the launch. A
   * registered one is told why the launch is not theirs (the forgery batches a fake launch next to their operation).
   */
  otherOperations: Address[]
}

interface Boundary {
  index: number
  entryPoint: Address
  kind: 'before_execution' | 'operation'
  sender?: Address
  success?: boolean
}

/** The EntryPoints' BeforeExecution and UserOperationEvent logs, in log order. */
function boundaries(logs: readonly Log[]): Boundary[] {
  const found: Boundary[] = []
  for (const log of logs) {
    const entryPoint = ENTRY_POINTS.find((candidate) => isAddressEqual(candidate, log.address))
    if (!entryPoint) continue
    const index = log.logIndex ?? -1
    if (log.topics[0] === BEFORE_EXECUTION) found.push({ index, entryPoint, kind: 'before_execution' })
    else if (log.topics[0] === USER_OPERATION_EVENT && log.topics[2]) {
      // data: nonce, success, actualGasCost, actualGasUsed (32 bytes each).
      const success = BigInt(`0x${log.data.slice(2 + 64, 2 + 128) || '0'}`) !== 0n
      found.push({ index, entryPoint, kind: 'operation', sender: getAddress(`0x${log.topics[2].slice(26)}`), success })
    }
  }
  return found.sort((a, b) => a.index - b.index)
}

/**
 * The operation whose execution emitted the log at `at`, by ../shared/facts/base-today.md "Who launched it (ERC-4337)":
 * handleOps (and handleAggregatedOps) validates every operation first, then emits BeforeExecution, then executes each
 * operation and emits its UserOperationEvent right after; the beneficiary is paid after the last event. So a log of
 * operation i's execution lies, for the same EntryPoint, after BeforeExecution or operation i-1's event and before
 * operation i's event, with no BeforeExecution between (a BeforeExecution starts another handleOps call, whose
 * validation or whose predecessor's payout emitted the log). Both neighbours come from one handleOps call, so the log
 * was emitted within that call. Operations of one EntryPoint nested in another's are told apart by taking the
 * innermost: the span opening last. An operation whose execution reverted (success false) left no logs of its own:
 * whatever lies in its span came from its paymaster's postOp, which is not the account.
 */
function emittingOperation(all: readonly Boundary[], at: number): { sender: Address; success: boolean; entryPoint: Address } | undefined {
  let best: { opensAt: number; closing: Boundary } | undefined
  for (const entryPoint of ENTRY_POINTS) {
    const mine = all.filter((b) => b.entryPoint === entryPoint)
    const opening = mine.findLast((b) => b.index < at)
    const closing = mine.find((b) => b.index > at)
    if (!opening || closing?.kind !== 'operation') continue
    if (!best || opening.index > best.opensAt) best = { opensAt: opening.index, closing }
  }
  return best && { sender: best.closing.sender!, success: best.closing.success!, entryPoint: best.closing.entryPoint }
}

/** Why the transaction's sender acts for others, or null. */
function txFromSharedBy(tx: LaunchTransaction, ranEntryPoint: Address | undefined): string | null {
  const from = getAddress(tx.from)
  if (tx.type === 'eip7702') return `the transaction is EIP-7702 (type 4): its sender ${from} sponsors calls of delegated accounts`
  if (tx.fromCode?.toLowerCase().startsWith(DELEGATION_DESIGNATOR)) {
    return `the transaction's sender ${from} is an EIP-7702-delegated account (code ${tx.fromCode.slice(0, 8)}…): its delegate code may act for others`
  }
  if (ranEntryPoint) return `the transaction ran ERC-4337 operations through EntryPoint ${ranEntryPoint}: its sender ${from} is a bundler, shared by everyone`
  return null
}

/**
 * Attributes a launch log to who sent it (pure; the logs are the receipt's, flat, no call trace). See emittingOperation
 * for the rule and docs/launch-authenticity.md for what it cannot see.
 */
export function attributeLaunch(tx: LaunchTransaction, launchLog: Pick<Log, 'logIndex'>): LaunchAttribution {
  const at = launchLog.logIndex ?? -1
  const all = boundaries(tx.logs)
  const txFrom = getAddress(tx.from)
  const txFromShared = txFromSharedBy(tx, all[0]?.entryPoint)
  const operationSenders = [...new Set(all.flatMap((b) => (b.sender ? [b.sender] : [])))]
  const op = emittingOperation(all, at)
  if (op?.success) {
    return { deployer: op.sender, shared: null, txFrom, txFromShared, otherOperations: operationSenders.filter((s) => !isAddressEqual(s, op.sender)) }
  }
  let shared = txFromShared
  if (all.length > 0) {
    const why = op
      ? `it lies in the span of ${op.sender}'s operation, whose execution reverted (only its paymaster's postOp can have emitted it)`
      : "it lies outside every operation execution (not between an EntryPoint's BeforeExecution or previous UserOperationEvent and the next UserOperationEvent)"
    shared = `the launch (log ${at}) was not emitted by any ERC-4337 operation's execution: ${why}; ${txFromShared}`
  }
  return { deployer: txFrom, shared, txFrom, txFromShared, otherOperations: operationSenders }
}

/**
 * The deployer a launch event names itself (Clanker `msgSender`, Zora `caller`: the factory's msg.sender, exact
 * whoever sent the transaction), with what the transaction says of it: shared when it is the transaction's own shared
 * sender (a bundler or a 7702-delegated account calling the factory itself).
 */
export function factoryCallerAttribution(attribution: LaunchAttribution, caller: Address): LaunchAttribution {
  const deployer = getAddress(caller)
  const shared = isAddressEqual(deployer, attribution.txFrom) ? attribution.txFromShared : null
  const operations = [...new Set([attribution.deployer, ...attribution.otherOperations])].filter(
    (s) => !isAddressEqual(s, deployer) && !isAddressEqual(s, attribution.txFrom),
  )
  return { ...attribution, deployer, shared, otherOperations: operations }
}

/** A launch identity's deployer fields from an attribution (the shared reason and other operations only when present). */
export function deployerFields(attribution: LaunchAttribution): { deployer: Address; sharedSender?: string; operationSenders?: Address[] } {
  return {
    deployer: attribution.deployer,
    ...(attribution.shared === null ? {} : { sharedSender: attribution.shared }),
    ...(attribution.otherOperations.length === 0 ? {} : { operationSenders: attribution.otherOperations }),
  }
}
