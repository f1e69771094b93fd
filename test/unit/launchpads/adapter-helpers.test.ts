import {
  decodeAbiParameters,
  encodeDeployData,
  encodeEventTopics,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  keccak256,
  type Address,
  type Hex,
  type Log,
} from 'viem'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadLaunchpadArtifact } from '../../../devnet/launchpads/devnet-artifacts.ts'
import { BEFORE_SWAP_FLAG, BEFORE_SWAP_RETURNS_DELTA_FLAG, HOOK_FLAG_MASK, mineHookSalt } from '../../../devnet/launchpads/mine-hook-salt.ts'
import { encodeStablecoinToTokenSwap } from '../../../src/launchpads/universal-router-swap.ts'
import { creatorList, findInitializedPools, POOL_MANAGER_EVENTS } from '../../../src/launchpads/v4-events.ts'

const POOL_MANAGER: Address = '0x498581fF718922c3f8e6A244956aF099B2652b2b'
const A: Address = '0x1111111111111111111111111111111111111111'
const B: Address = '0x2222222222222222222222222222222222222222'
const HOOK: Address = '0x00000000000000000000000000000000000000C8'

function initializeLog(address: Address, id: Hex): Log {
  const event = POOL_MANAGER_EVENTS.find((e) => e.name === 'Initialize')!
  return {
    address,
    topics: encodeEventTopics({ abi: [event], eventName: 'Initialize', args: { id, currency0: A, currency1: B } }) as [Hex, ...Hex[]],
    data: encodeAbiParameters(
      [{ type: 'uint24' }, { type: 'int24' }, { type: 'address' }, { type: 'uint160' }, { type: 'int24' }],
      [0x800000, 200, HOOK, 79228162514264337593543950336n, 0],
    ),
    blockHash: null,
    blockNumber: null,
    logIndex: null,
    transactionHash: null,
    transactionIndex: null,
    removed: false,
  }
}

describe('findInitializedPools', () => {
  it('decodes the PoolManager Initialize logs of a transaction, only from the given PoolManager', () => {
    const id = `0x${'12'.repeat(32)}` as Hex
    const pools = findInitializedPools([initializeLog(POOL_MANAGER, id), initializeLog(A, id)], POOL_MANAGER)
    expect(pools).toEqual([
      { poolId: id, poolKey: { currency0: A, currency1: B, fee: 0x800000, tickSpacing: 200, hooks: getAddress(HOOK) }, sqrtPriceX96: 2n ** 96n, tick: 0 },
    ])
  })

  it("skips the PoolManager's other events (a Swap of the same transaction) and reads its Initialize", () => {
    const id = `0x${'34'.repeat(32)}` as Hex
    const swap = POOL_MANAGER_EVENTS.find((e) => e.name === 'Swap')!
    const swapLog: Log = {
      ...initializeLog(POOL_MANAGER, id),
      topics: encodeEventTopics({ abi: [swap], eventName: 'Swap', args: { id, sender: A } }) as [Hex, ...Hex[]],
      data: encodeAbiParameters(
        [{ type: 'int128' }, { type: 'int128' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }, { type: 'uint24' }],
        [-5n, 7n, 2n ** 96n, 10n, 0, 3000],
      ),
    }
    expect(findInitializedPools([swapLog, initializeLog(POOL_MANAGER, id), swapLog], POOL_MANAGER).map((p) => p.poolId)).toEqual([id])
  })
})

describe('creatorList', () => {
  it('checksums, de-duplicates and drops the zero and dead addresses', () => {
    expect(
      creatorList(A.toLowerCase(), A, null, undefined, '0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD', B),
    ).toEqual([A, B])
  })
})

describe('mineHookSalt', () => {
  it.each([BEFORE_SWAP_FLAG, BEFORE_SWAP_FLAG | BEFORE_SWAP_RETURNS_DELTA_FLAG])('finds a CREATE2 address whose low 14 bits are exactly %i', async (flags) => {
    const { abi, bytecode } = loadLaunchpadArtifact('DevnetZoraHook')
    const initCode = encodeDeployData({ abi, bytecode, args: [POOL_MANAGER, A] })
    const { salt, address } = await mineHookSalt(B, initCode, flags, undefined, null)
    expect(Number(BigInt(address) & BigInt(HOOK_FLAG_MASK))).toBe(flags)
    expect(getAddress(address)).toBe(getContractAddress({ opcode: 'CREATE2', from: B, salt, bytecodeHash: keccak256(initCode) }))
  })

  it('keeps found salts in a file for the next start, and mines again when an entry there is wrong', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'prebuy-hook-salts-'))
    try {
      const cacheFile = join(dir, 'salts.json')
      const { abi, bytecode } = loadLaunchpadArtifact('DevnetZoraHook')
      const initCode = encodeDeployData({ abi, bytecode, args: [POOL_MANAGER, A] })
      const mined = await mineHookSalt(B, initCode, BEFORE_SWAP_FLAG, undefined, cacheFile)
      const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as Record<string, string>
      expect(Object.values(cache)).toEqual([mined.salt])
      // Read back: the same salt, without mining (a limit of zero tries would otherwise fail).
      expect(await mineHookSalt(B, initCode, BEFORE_SWAP_FLAG, 0, cacheFile)).toEqual(mined)
      // A damaged entry is not trusted: the salt is mined again and the entry repaired.
      const key = Object.keys(cache)[0]!
      await writeFile(cacheFile, JSON.stringify({ [key]: `0x${'0'.repeat(63)}1` }))
      await expect(mineHookSalt(B, initCode, BEFORE_SWAP_FLAG, 0, cacheFile)).rejects.toThrow('no hook salt found')
      expect(await mineHookSalt(B, initCode, BEFORE_SWAP_FLAG, undefined, cacheFile)).toEqual(mined)
      expect(JSON.parse(await readFile(cacheFile, 'utf8'))).toEqual({ [key]: mined.salt })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('lets timers run while it mines (a start-up deployment on the other chain has JSON-RPC timeouts running)', async () => {
    const { abi, bytecode } = loadLaunchpadArtifact('DevnetDopplerHook')
    const initCode = encodeDeployData({ abi, bytecode, args: [POOL_MANAGER, B] })
    let ticks = 0
    const timer = setInterval(() => ticks++, 0)
    try {
      const found = await mineHookSalt(A, initCode, HOOK_FLAG_MASK, undefined, null)
      // All 14 bits set: past 2,000 tries, so at least one slice ended with a turn of the event loop.
      expect(BigInt(found.salt)).toBeGreaterThan(2_000n)
      expect(ticks).toBeGreaterThan(0)
    } finally {
      clearInterval(timer)
    }
  })
})

describe('encodeStablecoinToTokenSwap', () => {
  it('v3 leg into the router, then settle the router balance, swap the open delta, take all with the minimum', () => {
    const poolKey = { currency0: A, currency1: B, fee: 0x800000, tickSpacing: 200, hooks: HOOK }
    const { commands, inputs } = encodeStablecoinToTokenSwap({ stablecoin: HOOK, weth: A, v3Fee: 500, poolKey, token: B, amountIn: 10n, minTokensOut: 77n })
    expect(commands).toBe('0x0010')
    const [recipient, amountIn, , , payerIsUser] = decodeAbiParameters(
      [{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes' }, { type: 'bool' }],
      inputs[0]!,
    )
    expect([recipient, amountIn, payerIsUser]).toEqual(['0x0000000000000000000000000000000000000002', 10n, true])
    const [actions, params] = decodeAbiParameters([{ type: 'bytes' }, { type: 'bytes[]' }], inputs[1]!)
    expect(actions).toBe('0x0b060f')
    const [swap] = decodeAbiParameters(
      [
        {
          type: 'tuple',
          components: [
            {
              name: 'poolKey',
              type: 'tuple',
              components: [
                { name: 'currency0', type: 'address' },
                { name: 'currency1', type: 'address' },
                { name: 'fee', type: 'uint24' },
                { name: 'tickSpacing', type: 'int24' },
                { name: 'hooks', type: 'address' },
              ],
            },
            { name: 'zeroForOne', type: 'bool' },
            { name: 'amountIn', type: 'uint128' },
            { name: 'amountOutMinimum', type: 'uint128' },
            { name: 'hookData', type: 'bytes' },
          ],
        },
      ],
      params[1]!,
    )
    expect(swap.zeroForOne).toBe(true) // WETH (A) is currency0
    expect(swap.amountIn).toBe(0n)
    expect(swap.amountOutMinimum).toBe(77n)
    expect(decodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], params[2]!)).toEqual([B, 77n])
  })
})

describe('clanker fee schedule without an MEV module', () => {
  it('has no sniper fee and reads only the LP fee', async () => {
    const { createClankerAdapter } = await import('../../../src/launchpads/clanker/clanker-adapter.ts')
    const { feeAt } = await import('../../../src/pricing/fee-schedule.ts')
    const { ContractFunctionExecutionError, ContractFunctionRevertedError } = await import('viem')
    const calls: string[] = []
    const client = {
      readContract: async ({ functionName }: { functionName: string }) => {
        calls.push(functionName)
        // The static hook has no dynamic configuration.
        if (functionName === 'poolConfigVars')
          throw new ContractFunctionExecutionError(new ContractFunctionRevertedError({ abi: [], functionName }), { abi: [], functionName })
        return 20_000
      },
    } as unknown as import('viem').PublicClient
    const adapter = createClankerAdapter({ factory: A, poolManager: POOL_MANAGER, weth: B })
    const schedule = await adapter.loadFeeSchedule(client, {
      launchpad: 'clanker',
      token: A,
      deployer: A,
      claimedCreators: [],
      poolKey: { currency0: A, currency1: B, fee: 0x800000, tickSpacing: 200, hooks: HOOK },
      poolId: `0x${'00'.repeat(32)}`,
      paired: { kind: 'weth', address: B },
      tokenIsCurrency0: true,
      name: null,
      symbol: null,
      txHash: `0x${'00'.repeat(32)}`,
      blockNumber: 1n,
      blockHash: `0x${'00'.repeat(32)}`,
      launchedAt: 1_000,
      logIndex: 0,
      feeSources: { hook: HOOK, mevModule: '0x0000000000000000000000000000000000000000' },
    })
    // Both LP fee getters, asked at once (read-lp-fee.ts), and nothing else.
    expect([...calls].sort()).toEqual(['pairedFee', 'poolConfigVars'])
    expect(schedule).toEqual({ kind: 'clanker', startTime: 1_000, startingFee: 0, endingFee: 0, secondsToDecay: 0, lpFee: 20_000 })
    expect(feeAt(schedule, { timestamp: 1_001, number: 0n })).toMatchObject({ lpFee: 20_000, sniperFee: 0, swapsAllowed: true })
  })
})

describe('clanker LP fee: static hook exact, dynamic hook at its maximum, anything else refused', () => {
  const reverted = async (functionName: string) => {
    const { ContractFunctionExecutionError, ContractFunctionRevertedError } = await import('viem')
    return new ContractFunctionExecutionError(new ContractFunctionRevertedError({ abi: [], functionName }), { abi: [], functionName })
  }
  const clientAnswering = (answers: Record<string, unknown>) =>
    ({
      readContract: async ({ functionName }: { functionName: string }) => {
        const answer = answers[functionName]
        if (answer instanceof Error) throw answer
        if (answer === undefined) throw await reverted(functionName)
        return answer
      },
    }) as unknown as import('viem').PublicClient
  const poolId = `0x${'00'.repeat(32)}` as Hex

  it('reads pairedFee from a static hook and maxLpFee from a dynamic one (which has no pairedFee)', async () => {
    const { readClankerLpFee } = await import('../../../src/launchpads/clanker/read-lp-fee.ts')
    expect(await readClankerLpFee(clientAnswering({ pairedFee: 10_000 }), HOOK, poolId)).toEqual({ lpFee: 10_000, source: 'static' })
    const dynamic3 = {
      baseFee: 10_000,
      maxLpFee: 30_000,
      referenceTickFilterPeriod: 30n,
      resetPeriod: 120n,
      resetTickFilter: 200,
      feeControlNumerator: 250_000_000n,
      decayFilterBps: 7_500,
    }
    expect(await readClankerLpFee(clientAnswering({ poolConfigVars: dynamic3 }), HOOK, poolId)).toEqual({ lpFee: 30_000, source: 'dynamic' })
  })

  it('refuses a hook that answers neither (quarantined, never a guessed fee) and lets a failed RPC through', async () => {
    const { HttpRequestError } = await import('viem')
    const { readClankerLpFee } = await import('../../../src/launchpads/clanker/read-lp-fee.ts')
    await expect(readClankerLpFee(clientAnswering({}), HOOK, poolId)).rejects.toThrow(/answers neither pairedFee nor poolConfigVars/)
    const down = new HttpRequestError({ url: 'http://node', status: 502 })
    await expect(readClankerLpFee(clientAnswering({ poolConfigVars: down }), HOOK, poolId)).rejects.toBe(down)
    await expect(readClankerLpFee(clientAnswering({ pairedFee: down }), HOOK, poolId)).rejects.toBe(down)
  })
})

describe('clanker MEV module kinds', () => {
  const MODULE: Address = '0x4444444444444444444444444444444444444444'
  const candidate = {
    launchpad: 'clanker' as const,
    token: A,
    deployer: A,
    claimedCreators: [],
    poolKey: { currency0: A, currency1: B, fee: 0x800000, tickSpacing: 200, hooks: HOOK },
    poolId: `0x${'00'.repeat(32)}` as Hex,
    paired: { kind: 'weth' as const, address: B },
    tokenIsCurrency0: true,
    name: null,
    symbol: null,
    txHash: `0x${'00'.repeat(32)}` as Hex,
    blockNumber: 10n,
    blockHash: `0x${'00'.repeat(32)}` as Hex,
    launchedAt: 1_000,
    logIndex: 0,
    feeSources: { hook: HOOK, mevModule: MODULE },
  }
  /** A client whose module answers `feeConfig` and `pairedFee`; `nextAuctionBlock` as `auction` says. */
  async function scheduleWith(auction: 'missing' | 'rpc_down') {
    const { ContractFunctionExecutionError, ContractFunctionRevertedError, HttpRequestError } = await import('viem')
    const { createClankerAdapter } = await import('../../../src/launchpads/clanker/clanker-adapter.ts')
    const client = {
      readContract: async ({ functionName }: { functionName: string }) => {
        if (functionName === 'feeConfig') return [500_000, 50_000, 20n]
        if (functionName === 'pairedFee') return 10_000
        if (auction === 'rpc_down') throw new HttpRequestError({ url: 'http://node', status: 502 })
        throw new ContractFunctionExecutionError(new ContractFunctionRevertedError({ abi: [], functionName }), { abi: [], functionName })
      },
    } as unknown as import('viem').PublicClient
    return createClankerAdapter({ factory: A, poolManager: POOL_MANAGER, weth: B }).loadFeeSchedule(client, candidate)
  }

  it('a module without the auction getters is the descending-fee one (kind clanker, from the launch)', async () => {
    expect(await scheduleWith('missing')).toEqual({
      kind: 'clanker',
      startTime: 1_000,
      startingFee: 500_000,
      endingFee: 50_000,
      secondsToDecay: 20,
      lpFee: 10_000,
    })
  })

  it('a failed RPC read is not mistaken for a missing getter: it throws (the launch is quarantined and retried)', async () => {
    await expect(scheduleWith('rpc_down')).rejects.toThrow(/HTTP request failed/)
  })
})
