import fc from 'fast-check'
import { type Address, encodeAbiParameters, getAddress, type Hex, type Log, pad, toEventSelector } from 'viem'
import { entryPoint06Address, entryPoint07Address, entryPoint08Address, entryPoint09Address } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { attributeLaunch, deployerFields, ENTRY_POINTS, factoryCallerAttribution } from '../../../src/launchpads/launch-deployer.ts'

const address = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`)
const USER_OPERATION_EVENT = toEventSelector(
  'UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)
const BEFORE_EXECUTION = toEventSelector('BeforeExecution()')
const ACCOUNT_DEPLOYED = toEventSelector('AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster)')
const BUNDLER = address(0xb0)
const ATTACKER = address(0xba)
const ACCOUNT = address(0xa1)
const OTHER_ACCOUNT = address(0xa2)
const FACTORY = address(0xfac)
const [V06, V07, V08, V09] = [entryPoint06Address, entryPoint07Address, entryPoint08Address, entryPoint09Address].map((a) => getAddress(a)) as [
  Address,
  Address,
  Address,
  Address,
]

/** A transaction's logs as the receipt has them, flat, logIndex in order: build them with the helpers below. */
type Entry = { emitter: Address; topics: Hex[]; data?: Hex }
const foreign = (emitter: Address = address(0x99)): Entry => ({ emitter, topics: [`0x${'11'.repeat(32)}`] })
const launch = (): Entry => ({ emitter: FACTORY, topics: [`0x${'fa'.repeat(32)}`] })
const beforeExecution = (entryPoint: Address): Entry => ({ emitter: entryPoint, topics: [BEFORE_EXECUTION] })
const accountDeployed = (entryPoint: Address, sender: Address): Entry => ({
  emitter: entryPoint,
  topics: [ACCOUNT_DEPLOYED, `0x${'33'.repeat(32)}`, pad(sender)],
})
const operationEvent = (entryPoint: Address, sender: Address, success = true): Entry => ({
  emitter: entryPoint,
  topics: [USER_OPERATION_EVENT, `0x${'22'.repeat(32)}`, pad(sender), pad(address(0))],
  data: encodeAbiParameters([{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }], [7n, success, 1n, 1n]),
})
/** The receipt's logs (starting at a block-level index, as a receipt's do) and the launch log among them. */
const receiptOf = (entries: Entry[], firstIndex = 40) => {
  const logs = entries.map((e, i) => ({ logIndex: firstIndex + i, address: e.emitter, topics: e.topics, data: e.data ?? '0x' }) as unknown as Log)
  const launchLog = logs.find((l) => getAddress(l.address) === FACTORY)!
  return { logs, launchLog }
}
const attribute = (entries: Entry[], tx: { from?: Address; type?: string; fromCode?: Hex } = {}) => {
  const { logs, launchLog } = receiptOf(entries)
  return attributeLaunch({ from: tx.from ?? BUNDLER, type: tx.type ?? 'eip1559', logs, ...(tx.fromCode ? { fromCode: tx.fromCode } : {}) }, launchLog)
}

describe('attributeLaunch', () => {
  it("uses viem's EntryPoint constants, v0.6 to v0.9", () => {
    expect(ENTRY_POINTS.map((a) => getAddress(a))).toEqual([
      '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
      '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
      '0x433709009B8330FDa32311DF1C2AFA402eD8D009',
    ])
  })

  it('is the transaction sender, not shared, for a plain transaction', () => {
    const attributed = attribute([foreign(), launch(), foreign()], { from: address(0xc1) })
    expect(attributed).toEqual({ deployer: address(0xc1), shared: null, txFrom: address(0xc1), txFromShared: null, otherOperations: [] })
  })

  it('is the smart account whose operation executed the launch, on every EntryPoint v0.6 to v0.9', () => {
    for (const ep of [V06, V07, V08, V09]) {
      const attributed = attribute([accountDeployed(ep, ACCOUNT), beforeExecution(ep), foreign(), launch(), foreign(), operationEvent(ep, ACCOUNT)])
      expect(attributed).toMatchObject({ deployer: ACCOUNT, shared: null, txFrom: BUNDLER, otherOperations: [] })
      expect(attributed.txFromShared).toMatch(/bundler, shared by everyone/)
    }
  })

  it('the forgery: a launch before handleOps of a valid operation of the account (Multicall3 aggregate3) is the sender, shared', () => {
    const attributed = attribute([launch(), accountDeployed(V07, ACCOUNT), beforeExecution(V07), foreign(), operationEvent(V07, ACCOUNT)], {
      from: ATTACKER,
    })
    expect(attributed).toMatchObject({ deployer: ATTACKER, otherOperations: [ACCOUNT] })
    expect(attributed.shared).toMatch(/not emitted by any ERC-4337 operation's execution/)
    expect(attributed.shared).toMatch(/outside every operation execution/)
  })

  it('a launch in the validation phase (before BeforeExecution) is not the operation’s', () => {
    for (const ep of [V06, V07, V08, V09]) {
      const attributed = attribute([accountDeployed(ep, ACCOUNT), launch(), beforeExecution(ep), operationEvent(ep, ACCOUNT)])
      expect(attributed).toMatchObject({ deployer: BUNDLER, otherOperations: [ACCOUNT] })
      expect(attributed.shared).not.toBeNull()
    }
  })

  it('several operations in one handleOps: the launch is the operation whose event follows it, after the previous one', () => {
    const first = attribute([beforeExecution(V07), launch(), operationEvent(V07, ACCOUNT), foreign(), operationEvent(V07, OTHER_ACCOUNT)])
    expect(first).toMatchObject({ deployer: ACCOUNT, shared: null, otherOperations: [OTHER_ACCOUNT] })
    const second = attribute([beforeExecution(V07), foreign(), operationEvent(V07, OTHER_ACCOUNT), launch(), operationEvent(V07, ACCOUNT)])
    expect(second).toMatchObject({ deployer: ACCOUNT, shared: null, otherOperations: [OTHER_ACCOUNT] })
  })

  it('a launch after the last operation (the beneficiary’s payout) or after handleOps returned is the sender, shared', () => {
    for (const entries of [
      [beforeExecution(V07), operationEvent(V07, ACCOUNT), launch()],
      [beforeExecution(V07), operationEvent(V07, ACCOUNT), foreign(), launch(), foreign()],
    ]) {
      expect(attribute(entries, { from: ATTACKER })).toMatchObject({ deployer: ATTACKER, otherOperations: [ACCOUNT] })
      expect(attribute(entries, { from: ATTACKER }).shared).not.toBeNull()
    }
  })

  it('two handleOps in one transaction: a BeforeExecution between the launch and the operation event breaks the span', () => {
    // The first call's payout (or a handleOps with no operations at all, whose payout still calls the beneficiary)
    // emits the launch; the second call validates and executes the account's operation.
    const afterPayout = attribute([beforeExecution(V07), operationEvent(V07, OTHER_ACCOUNT), launch(), beforeExecution(V07), operationEvent(V07, ACCOUNT)])
    expect(afterPayout).toMatchObject({ deployer: BUNDLER, otherOperations: [OTHER_ACCOUNT, ACCOUNT] })
    const emptyFirst = attribute([beforeExecution(V07), launch(), accountDeployed(V07, ACCOUNT), beforeExecution(V07), operationEvent(V07, ACCOUNT)])
    expect(emptyFirst).toMatchObject({ deployer: BUNDLER, otherOperations: [ACCOUNT] })
    // The second call's own operation launching is still the account's.
    const inSecond = attribute([beforeExecution(V07), operationEvent(V07, OTHER_ACCOUNT), beforeExecution(V07), launch(), operationEvent(V07, ACCOUNT)])
    expect(inSecond).toMatchObject({ deployer: ACCOUNT, shared: null, otherOperations: [OTHER_ACCOUNT] })
  })

  it('nested EntryPoints: the innermost operation whose execution holds the launch', () => {
    // Operation i of v0.7 runs a v0.6 handleOps whose operation j launches: j's account.
    const inInner = attribute([beforeExecution(V07), beforeExecution(V06), launch(), operationEvent(V06, OTHER_ACCOUNT), operationEvent(V07, ACCOUNT)])
    expect(inInner).toMatchObject({ deployer: OTHER_ACCOUNT, shared: null, otherOperations: [ACCOUNT] })
    // i launches itself after the nested bundle, or in the nested bundle's validation or payout: i's account.
    for (const entries of [
      [beforeExecution(V07), beforeExecution(V06), operationEvent(V06, OTHER_ACCOUNT), launch(), operationEvent(V07, ACCOUNT)],
      [beforeExecution(V07), launch(), beforeExecution(V06), operationEvent(V06, OTHER_ACCOUNT), operationEvent(V07, ACCOUNT)],
    ]) {
      expect(attribute(entries)).toMatchObject({ deployer: ACCOUNT, shared: null, otherOperations: [OTHER_ACCOUNT] })
    }
  })

  it('an operation whose execution reverted emitted nothing itself: a launch in its span is the sender, shared', () => {
    const attributed = attribute([beforeExecution(V07), launch(), operationEvent(V07, ACCOUNT, false)], { from: ATTACKER })
    expect(attributed).toMatchObject({ deployer: ATTACKER, otherOperations: [ACCOUNT] })
    expect(attributed.shared).toMatch(/execution reverted/)
  })

  it('ignores BeforeExecution and UserOperationEvent look-alikes from any other contract', () => {
    const attributed = attribute([beforeExecution(address(0xbad)), launch(), operationEvent(address(0xbad), ACCOUNT)], { from: address(0xc1) })
    expect(attributed).toEqual({ deployer: address(0xc1), shared: null, txFrom: address(0xc1), txFromShared: null, otherOperations: [] })
  })

  it('an EntryPoint’s events around the launch must be the same EntryPoint’s', () => {
    const attributed = attribute([beforeExecution(V06), launch(), operationEvent(V07, ACCOUNT)])
    expect(attributed).toMatchObject({ deployer: BUNDLER, otherOperations: [ACCOUNT] })
  })

  it('an EIP-7702 transaction (type 4) or a sender with a delegation designator is a shared sender', () => {
    const sponsored = attribute([launch()], { from: address(0xc1), type: 'eip7702' })
    expect(sponsored).toMatchObject({ deployer: address(0xc1), otherOperations: [] })
    expect(sponsored.shared).toMatch(/EIP-7702 \(type 4\)/)
    const delegated = attribute([launch()], { from: address(0xc1), fromCode: `0xef0100${'ab'.repeat(20)}` })
    expect(delegated.shared).toMatch(/EIP-7702-delegated/)
    // Any other code (none for an EOA) leaves a plain sender.
    expect(attribute([launch()], { from: address(0xc1), fromCode: '0x6080' }).shared).toBeNull()
  })

  it('known limit: a launch from a successful operation’s paymaster postOp lies in its span and is attributed to the operation', () => {
    // postOp runs after the execution and before UserOperationEvent; flat logs cannot tell it apart (docs/launch-authenticity.md).
    expect(attribute([beforeExecution(V07), foreign(), launch(), operationEvent(V07, ACCOUNT)])).toMatchObject({ deployer: ACCOUNT, shared: null })
  })

  it('property: on any transaction of nested and sequential handleOps, the launch is the innermost operation that executed it', () => {
    const seen = { operation: 0, sender: 0, nested: 0 }
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const { entries, truth } = randomTransaction(seed)
        const attributed = attribute(entries, { from: ATTACKER })
        seen[truth === null ? 'sender' : 'operation']++
        if (new Set(entries.filter((e) => e.topics[0] === BEFORE_EXECUTION).map((e) => e.emitter)).size > 1) seen.nested++
        if (truth === null) {
          expect(attributed.deployer).toBe(ATTACKER)
          // Shared exactly when the transaction ran an EntryPoint at all.
          expect(attributed.shared !== null).toBe(entries.some((e) => ENTRY_POINTS.includes(e.emitter)))
        } else {
          expect(attributed).toMatchObject({ deployer: truth, shared: null })
        }
        expect(attributed.otherOperations).not.toContain(attributed.deployer)
      }),
      { numRuns: 500 },
    )
    // The generator reaches every shape: launches by operations, by no operation, and transactions of several EntryPoints.
    expect(Math.min(seen.operation, seen.sender, seen.nested)).toBeGreaterThan(50)
  })
})

describe('factoryCallerAttribution (Clanker msgSender, Zora caller)', () => {
  const plain = attributeLaunch({ from: address(0xc1), type: 'eip1559', logs: receiptOf([launch()]).logs }, { logIndex: 40 })
  const bundled = attributeLaunch(
    { from: ATTACKER, type: 'eip1559', logs: receiptOf([launch(), beforeExecution(V07), operationEvent(V07, ACCOUNT)]).logs },
    { logIndex: 40 },
  )

  it('the event’s caller is the deployer, shared only when it is the transaction’s own shared sender', () => {
    expect(factoryCallerAttribution(plain, address(0xc1))).toMatchObject({ deployer: address(0xc1), shared: null })
    const sponsored = attributeLaunch({ from: address(0xc1), type: 'eip7702', logs: receiptOf([launch()]).logs }, { logIndex: 40 })
    expect(factoryCallerAttribution(sponsored, address(0xc1)).shared).toMatch(/EIP-7702/)
    expect(factoryCallerAttribution(sponsored, address(0xd1))).toMatchObject({ deployer: address(0xd1), shared: null })
  })

  it('keeps the operations that ran beside the launch, except the caller’s own', () => {
    expect(factoryCallerAttribution(bundled, address(0x3c))).toMatchObject({ deployer: address(0x3c), shared: null, otherOperations: [ACCOUNT] })
    const own = attributeLaunch(
      { from: BUNDLER, type: 'eip1559', logs: receiptOf([beforeExecution(V07), launch(), operationEvent(V07, ACCOUNT)]).logs },
      { logIndex: 41 },
    )
    expect(factoryCallerAttribution(own, ACCOUNT)).toMatchObject({ deployer: ACCOUNT, shared: null, otherOperations: [] })
  })

  it('deployerFields carries the shared reason and the other operations only when there are some', () => {
    expect(deployerFields(plain)).toEqual({ deployer: address(0xc1) })
    expect(deployerFields(bundled)).toEqual({ deployer: ATTACKER, sharedSender: bundled.shared, operationSenders: [ACCOUNT] })
  })
})

/**
 * A random transaction as a call tree, flattened into its logs the way the EntryPoints emit them (validation, then
 * BeforeExecution, then each operation's execution, its paymaster's postOp and its UserOperationEvent, then the
 * beneficiary's payout), with one launch log somewhere, and who truly executed it: the innermost successful operation
 * whose execution contains it (nested handleOps use another EntryPoint: each is reentrancy-guarded), else null.
 */
function randomTransaction(seed: number): { entries: Entry[]; truth: Address | null } {
  let state = seed >>> 0
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const accounts = [ACCOUNT, OTHER_ACCOUNT, address(0xa3), address(0xa4)]
  const entryPoints = [V06, V07, V08, V09]

  type Node = { kind: 'foreign' } | { kind: 'launch' } | { kind: 'handleOps'; ep: Address; validation: Node[]; ops: Op[]; payout: Node[] }
  type Op = { sender: Address; success: boolean; exec: Node[] }
  // Lists the launch may be inserted in, with who executes there (a reverted execution leaves no logs: not a slot).
  const slots: { list: Node[]; executor: Address | null }[] = []
  const nodes = (depth: number, open: Address[], executor: Address | null): Node[] => {
    const list: Node[] = []
    slots.push({ list, executor })
    const count = Math.floor(random() * (depth === 0 ? 4 : 3))
    for (let i = 0; i < count; i++) {
      const free = entryPoints.filter((ep) => !open.includes(ep))
      if (depth >= 3 || free.length === 0 || random() < 0.4) {
        list.push({ kind: 'foreign' })
        continue
      }
      const ep = pick(free)
      const inner = [...open, ep]
      // Validation and payout run inside this call, so inside whatever operation executes the call.
      const validation = nodes(depth + 1, inner, executor)
      const ops: Op[] = []
      const opCount = Math.floor(random() * 4)
      for (let j = 0; j < opCount; j++) {
        const sender = pick(accounts)
        const success = random() < 0.8
        const exec = success ? nodes(depth + 1, inner, sender) : []
        ops.push({ sender, success, exec })
      }
      list.push({ kind: 'handleOps', ep, validation, ops, payout: nodes(depth + 1, inner, executor) })
    }
    return list
  }
  const root = nodes(0, [], null)
  const slot = pick(slots)
  slot.list.splice(Math.floor(random() * (slot.list.length + 1)), 0, { kind: 'launch' })

  const entries: Entry[] = []
  const emit = (list: Node[]) => {
    for (const node of list) {
      if (node.kind === 'foreign') entries.push(foreign())
      else if (node.kind === 'launch') entries.push(launch())
      else {
        emit(node.validation)
        entries.push(beforeExecution(node.ep))
        for (const op of node.ops) {
          emit(op.exec)
          entries.push(operationEvent(node.ep, op.sender, op.success))
        }
        emit(node.payout)
      }
    }
  }
  emit(root)
  return { entries, truth: slot.executor }
}
