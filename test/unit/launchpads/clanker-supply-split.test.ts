import { type Address, encodeAbiParameters, encodeEventTopics, getAddress, type Hex, type Log, type PublicClient, pad } from 'viem'
import { describe, expect, it } from 'vitest'
import { launchFacts } from '../../../daemon/indexer/launch-binding-facts.ts'
import { judgeLaunch } from '../../../src/domain/launches/judge-launch.ts'
import { unknownPoolReason } from '../../../src/domain/launches/known-launch-pools.ts'
import { type LaunchSupplySplit, supplySplitProblem } from '../../../src/domain/launches/supply-split.ts'
import { CLANKER_TOKEN_CREATED } from '../../../src/launchpads/clanker/clanker-abi.ts'
import { createClankerAdapter } from '../../../src/launchpads/clanker/clanker-adapter.ts'
import { CLANKER_EXTENSION_TRIGGERED, CLANKER_SUPPLY_RULES } from '../../../src/launchpads/clanker/clanker-supply-split.ts'
import { BASE_KNOWN_POOLS } from '../../../src/launchpads/known-launch-pools.ts'
import { POOL_MANAGER_EVENTS } from '../../../src/launchpads/v4-events.ts'

const address = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`)
const FACTORY = getAddress('0xE85A59c628F7d27878ACeB4bf3b35733630083a9')
const POOL_MANAGER = getAddress('0x498581fF718922c3f8e6A244956aF099B2652b2b')
const WETH = getAddress('0x4200000000000000000000000000000000000006')
const HOOK = getAddress('0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC')
const MEV = getAddress('0xebB25BB797D82CB78E1bc70406b13233c0854413')
const CREATOR = address(0xc0ffee)
const TOKEN = address(0x7777)
const VAULT = address(0x7a01)
const AIRDROP = address(0x7a02)
/** One basis point of Clanker's 100B supply. */
const BP = 10n ** 25n

const split = (extensionsSupply: bigint, supplies: bigint[], extensions = supplies.map((_, i) => address(0x7a00 + i))): LaunchSupplySplit => ({
  extensionsSupply: extensionsSupply.toString(),
  extensions,
  extensionSupplies: supplies.map(String),
})

describe("Clanker's supply split against its factory (Clanker.sol _prepareExtensions / _triggerExtensions)", () => {
  it('what the factory makes passes: no extension, a dev buy (0 bps), a vault and an airdrop up to 90%', () => {
    expect(supplySplitProblem(split(0n, []), CLANKER_SUPPLY_RULES)).toBeUndefined()
    expect(supplySplitProblem(split(0n, [0n]), CLANKER_SUPPLY_RULES)).toBeUndefined()
    expect(supplySplitProblem(split(9_000n * BP, [5_000n * BP, 4_000n * BP]), CLANKER_SUPPLY_RULES)).toBeUndefined()
  })

  it.each([
    ['more than 90% to the extensions', split(9_001n * BP, [9_001n * BP]), /above 9000 bps/],
    ['supply with no extension', split(BP, [], []), /with no extension/],
    ['a total that is no whole basis point', split(BP + 1n, [BP + 1n]), /not a whole number of basis points/],
    ['more than 10 extensions', split(0n, new Array(11).fill(0n)), /11 extensions, more than the 10/],
    ['a total the extensions did not receive', split(2n * BP, [BP]), /received 1\d+ in all/],
    ['an extension listed but never handed its share', split(BP, [], [VAULT]), /handed supply to 0/],
  ])('rejects %s, with the reason', (_what, claimed, reason) => {
    expect(supplySplitProblem(claimed, CLANKER_SUPPLY_RULES)).toMatch(reason)
    const pool = { hook: HOOK, paired: { kind: 'weth', address: WETH }, feeSources: { hook: HOOK, mevModule: MEV }, supplySplit: claimed }
    expect(unknownPoolReason('clanker', pool, BASE_KNOWN_POOLS)).toMatch(/impossible supply split/)
  })
})

/** A Clanker deployment's logs as its factory would emit them, with the split the test claims. */
function deploymentLogs(extensionsSupply: bigint, extensions: Address[], handed: Array<[Address, bigint]>): { launch: Log; txLogs: Log[] } {
  const poolId = pad('0x01', { size: 32 })
  const base = { blockNumber: 10n, blockHash: pad('0xb1', { size: 32 }), transactionHash: pad('0x71', { size: 32 }), transactionIndex: 0, removed: false }
  let logIndex = 0
  const init = {
    ...base,
    logIndex: logIndex++,
    address: POOL_MANAGER,
    topics: encodeEventTopics({ abi: POOL_MANAGER_EVENTS, eventName: 'Initialize', args: { id: poolId, currency0: TOKEN, currency1: WETH } }),
    data: encodeAbiParameters(
      [{ type: 'uint24' }, { type: 'int24' }, { type: 'address' }, { type: 'uint160' }, { type: 'int24' }],
      [0x800000, 200, HOOK, 2n ** 96n, 0],
    ),
  }
  const triggered = handed.map(([extension, supply]) => ({
    ...base,
    logIndex: logIndex++,
    address: FACTORY,
    topics: encodeEventTopics({ abi: [CLANKER_EXTENSION_TRIGGERED] }),
    data: encodeAbiParameters(CLANKER_EXTENSION_TRIGGERED.inputs, [extension, supply, 0n]),
  }))
  const inputs = CLANKER_TOKEN_CREATED.inputs.filter((input) => !('indexed' in input && input.indexed))
  const values: Record<string, unknown> = {
    msgSender: CREATOR,
    tokenImage: '',
    tokenName: 'Squat',
    tokenSymbol: 'SQT',
    tokenMetadata: '',
    tokenContext: '',
    startingTick: -230_400,
    poolHook: HOOK,
    poolId,
    pairedToken: WETH,
    locker: address(0x10c),
    mevModule: MEV,
    extensionsSupply,
    extensions,
  }
  const launch = {
    ...base,
    logIndex: logIndex++,
    address: FACTORY,
    topics: encodeEventTopics({ abi: [CLANKER_TOKEN_CREATED], args: { tokenAddress: TOKEN, tokenAdmin: CREATOR } }),
    data: encodeAbiParameters(
      inputs,
      inputs.map((input) => values[input.name!]),
    ),
  }
  return { launch: launch as unknown as Log, txLogs: [init, ...triggered, launch] as unknown as Log[] }
}

describe('adversarial: a Clanker launch at the expected address claiming an impossible supply split', () => {
  const adapter = createClankerAdapter({ factory: FACTORY, poolManager: POOL_MANAGER, weth: WETH })
  const decode = async (logs: { launch: Log; txLogs: Log[] }) => {
    const attribution = { deployer: CREATOR, shared: null, txFrom: CREATOR, txFromShared: null, otherOperations: [] }
    const ctx = {
      client: {} as PublicClient,
      txHash: pad('0x71', { size: 32 }) as Hex,
      blockNumber: 10n,
      blockHash: pad('0xb1', { size: 32 }) as Hex,
      blockTimestamp: 1_700_000_000,
      txFrom: CREATOR,
      attribution,
      txLogs: logs.txLogs,
    }
    return (await adapter.decodeLaunch(logs.launch, ctx))!
  }
  const binding = { deployer: CREATOR, expectedToken: TOKEN, expectedSymbol: 'SQT' }

  it('a split the factory makes binds; one it cannot make is rejected as unknown_pool, with why', async () => {
    // A vault with 30% and a dev buy with none: what the real factory emits.
    const genuine = await decode(
      deploymentLogs(
        3_000n * BP,
        [VAULT, AIRDROP],
        [
          [VAULT, 3_000n * BP],
          [AIRDROP, 0n],
        ],
      ),
    )
    expect(genuine.kind === 'launch' && genuine.candidate.supplySplit).toEqual({
      extensionsSupply: (3_000n * BP).toString(),
      extensions: [VAULT, AIRDROP],
      extensionSupplies: [(3_000n * BP).toString(), '0'],
    })
    expect(judgeLaunch(binding, launchFacts(genuine, BASE_KNOWN_POOLS), new Set())).toEqual({ verdict: 'bound' })

    for (const [extensionsSupply, extensions, handed, reason] of [
      // 95% to one extension: above MAX_EXTENSION_BPS.
      [9_500n * BP, [VAULT], [[VAULT, 9_500n * BP]], /above 9000 bps/],
      // An announced total the extensions never received (the pool holds less than the event says, or more).
      [3_000n * BP, [VAULT], [[VAULT, 1_000n * BP]], /received/],
      // Supply with no extension at all.
      [1_000n * BP, [], [], /with no extension/],
    ] as const) {
      const forged = await decode(
        deploymentLogs(
          extensionsSupply,
          [...extensions],
          handed.map(([a, s]) => [a, s] as [Address, bigint]),
        ),
      )
      const judged = judgeLaunch(binding, launchFacts(forged, BASE_KNOWN_POOLS), new Set())
      expect(judged).toMatchObject({ verdict: 'rejected', rule: 'unknown_pool' })
      expect(judged.verdict === 'rejected' && judged.reason).toMatch(/impossible supply split/)
      expect(judged.verdict === 'rejected' && judged.reason).toMatch(reason)
    }
  })

  it('only the ExtensionTriggered logs of its own deployment count (a contract deploying two tokens in one transaction)', async () => {
    const first = deploymentLogs(1_000n * BP, [VAULT], [[VAULT, 1_000n * BP]])
    const second = deploymentLogs(0n, [], [])
    // The second deployment's logs follow the first's in the same transaction.
    const offset = first.txLogs.length
    const shifted = second.txLogs.map((l) => ({ ...l, logIndex: (l.logIndex ?? 0) + offset }))
    const decoded = await decode({ launch: shifted[shifted.length - 1]!, txLogs: [...first.txLogs, ...shifted] })
    expect(decoded.kind === 'launch' && decoded.candidate.supplySplit).toEqual({ extensionsSupply: '0', extensions: [], extensionSupplies: [] })
  })
})
