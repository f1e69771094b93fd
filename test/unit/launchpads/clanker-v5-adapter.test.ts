import { encodeAbiParameters, encodeEventTopics, erc20Abi, getAddress, type Address, type Hex, type Log, type PublicClient, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { createClankerV5Adapter, initializesWithHook } from '../../../src/launchpads/clanker-v5/clanker-v5-adapter.ts'
import { attributeLaunch } from '../../../src/launchpads/launch-deployer.ts'
import type { LaunchContext } from '../../../src/launchpads/launchpad-adapter.ts'
import { POOL_MANAGER_EVENTS } from '../../../src/launchpads/v4-events.ts'

const POOL_MANAGER: Address = '0x498581fF718922c3f8e6A244956aF099B2652b2b'
const HOOK: Address = '0x5E320eA6278107968C119942E57d876c5F922AcC'
const OTHER_HOOK: Address = '0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC'
const WETH: Address = '0x4200000000000000000000000000000000000006'
const USDC: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const TOKEN: Address = '0x1111111111111111111111111111111111111111'
const TOKEN_HIGH: Address = '0xF111111111111111111111111111111111111111'
const CREATOR: Address = getAddress('0xc0ffee0000000000000000000000000000000001')
const POOL_ID: Hex = `0x${'ab'.repeat(32)}`

const adapter = createClankerV5Adapter({
  factory: '0x572e88D3cD7f23E4241EB6ceDD96667271bF09A0',
  hook: HOOK,
  poolManager: POOL_MANAGER,
  weth: WETH,
  v4Quoter: '0x0d5e0F971ED27FBfF6c2837bf31316121532048D',
})

const base = { blockHash: `0x${'01'.repeat(32)}` as Hex, blockNumber: 7n, transactionHash: `0x${'02'.repeat(32)}` as Hex, transactionIndex: 0, removed: false }

function initializeLog(currency0: Address, currency1: Address, hooks: Address, logIndex = 3): Log {
  const event = POOL_MANAGER_EVENTS.find((e) => e.name === 'Initialize')!
  return {
    ...base,
    address: POOL_MANAGER,
    logIndex,
    topics: encodeEventTopics({ abi: [event], eventName: 'Initialize', args: { id: POOL_ID, currency0, currency1 } }) as [Hex, ...Hex[]],
    data: encodeAbiParameters(
      [{ type: 'uint24' }, { type: 'int24' }, { type: 'address' }, { type: 'uint160' }, { type: 'int24' }],
      [0, 200, hooks, 79228162514264337593543950336n, 0],
    ),
  }
}

const mintLog = (token: Address): Log => ({
  ...base,
  address: token,
  logIndex: 1,
  topics: encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from: zeroAddress, to: '0x572e88D3cD7f23E4241EB6ceDD96667271bF09A0' } }) as [
    Hex,
    ...Hex[],
  ],
  data: encodeAbiParameters([{ type: 'uint256' }], [10n ** 27n]),
})

function context(logs: Log[], launchLog: Log): LaunchContext {
  return {
    client: {} as PublicClient,
    txHash: base.transactionHash,
    blockNumber: 7n,
    blockHash: base.blockHash,
    blockTimestamp: 1_800_000_000,
    txFrom: CREATOR,
    attribution: attributeLaunch({ from: CREATOR, type: 'eip1559', logs }, launchLog),
    txLogs: logs,
  }
}

describe('Clanker v5 adapter (detection by the hook, no v5 ABI)', () => {
  it('isLaunchLog: an Initialize naming the v5 hook, nothing else (by topic and data, no decoding)', () => {
    expect(initializesWithHook(initializeLog(zeroAddress, TOKEN, HOOK), HOOK)).toBe(true)
    expect(adapter.isLaunchLog!(initializeLog(zeroAddress, TOKEN, OTHER_HOOK))).toBe(false)
    expect(adapter.isLaunchLog!({ topics: [`0x${'00'.repeat(32)}`], data: '0x' })).toBe(false)
  })

  it('a native-ETH pool: the token is the other currency, the deployer the sender, nothing claimed', async () => {
    const log = initializeLog(zeroAddress, TOKEN, HOOK)
    const decoded = await adapter.decodeLaunch(log, context([mintLog(TOKEN), log], log))
    expect(decoded).toMatchObject({
      kind: 'launch',
      candidate: {
        launchpad: 'clanker_v5',
        token: TOKEN,
        deployer: CREATOR,
        claimedCreators: [],
        paired: { kind: 'eth', address: zeroAddress },
        tokenIsCurrency0: false,
        poolId: POOL_ID,
        poolKey: { currency0: zeroAddress, currency1: TOKEN, fee: 0, tickSpacing: 200, hooks: HOOK },
        launchedAt: 1_800_000_000,
        feeSources: { hook: HOOK },
      },
    })
  })

  it('a WETH pool with the token as currency0', async () => {
    const log = initializeLog(TOKEN, WETH, HOOK)
    const decoded = await adapter.decodeLaunch(log, context([log], log))
    expect(decoded).toMatchObject({ kind: 'launch', candidate: { token: TOKEN, paired: { kind: 'weth', address: WETH }, tokenIsCurrency0: true } })
  })

  it('a stablecoin pair: unsupported with its pair, the token the one the transaction minted', async () => {
    const log = initializeLog(USDC, TOKEN_HIGH, HOOK)
    const decoded = await adapter.decodeLaunch(log, context([mintLog(TOKEN_HIGH), log], log))
    expect(decoded).toMatchObject({ kind: 'unsupported', launch: { launchpad: 'clanker_v5', token: TOKEN_HIGH, deployer: CREATOR } })
    expect(decoded?.kind === 'unsupported' && decoded.reason).toContain(USDC)
    // The token sorting first this time: still the minted one.
    const first = initializeLog(TOKEN, USDC, HOOK)
    const again = await adapter.decodeLaunch(first, context([mintLog(TOKEN), first], first))
    expect(again).toMatchObject({ kind: 'unsupported', launch: { token: TOKEN } })
  })

  it('another hook or another emitter: not a launch', async () => {
    const other = initializeLog(zeroAddress, TOKEN, OTHER_HOOK)
    expect(await adapter.decodeLaunch(other, context([other], other))).toBeNull()
    const elsewhere = { ...initializeLog(zeroAddress, TOKEN, HOOK), address: WETH }
    expect(await adapter.decodeLaunch(elsewhere, context([elsewhere], elsewhere))).toBeNull()
  })
})
