import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, custom, http, keccak256, parseAbi, stringToHex, toHex, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEVNET_LAUNCH_DEFAULTS } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { loadLaunchpadArtifact } from '../../devnet/launchpads/devnet-artifacts.ts'
import { devnetClankerConfig } from '../../devnet/launchpads/launch-token.ts'
import { impersonate, sendDevnetCall } from '../../devnet/launchpads/send-devnet-tx.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { startFlowHarness, type FlowHarness } from '../executor/flow-harness.ts'

describe('launch indexer (real devnet, launchpads, store)', () => {
  let h: FlowHarness
  const noBuys: Pick<WalletService, 'walletAddress' | 'submitUserOperations'> = {
    walletAddress: () => Promise.reject(new Error('unused')),
    submitUserOperations: () => Promise.reject(new Error('unused')),
  }
  beforeAll(async () => {
    h = await startFlowHarness()
    // These tests look at indexing only: an executor without orders to fill.
    await h.restartExecutor(noBuys)
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('matches a Clanker launch to the project by tokenAdmin, records it with its fee schedule and marks the project, atomically', async () => {
    const { slug, creator } = await h.newProject('idx-clanker', 'clanker')
    const other = await h.newProject('idx-other', 'clanker')
    const launched = await h.launch(slug, 'clanker', creator)
    await h.indexer.caughtUp('base', launched.blockNumber)
    const launch = await h.journal.getLaunchBySlug(slug)
    expect(launch).toMatchObject({
      slug,
      chain: 'base',
      launchpad: 'clanker',
      token: launched.token,
      poolId: launched.poolId,
      blockNumber: launched.blockNumber.toString(),
    })
    expect(launch?.feeSchedule).toMatchObject({ kind: 'clanker_auction' })
    const project = await h.services.projects.getProject(slug)
    expect(project?.launch).toMatchObject({ chain: 'base', tokenAddress: launched.token, decimals: 18, launchedAt: launch!.launchedAt })
    expect((await h.services.projects.getProject(other.slug))?.launch).toBeNull()
    // A tick at launch carries the pool state and the price for the next block.
    const tick = await h.journal.latestTick(slug)
    expect(tick?.reason).toBe('launch')
    expect(BigInt(tick!.sqrtPriceX96)).toBeGreaterThan(0n)
    // Active liquidity as the PoolManager reports it (0 when the single-sided range starts exactly at the price).
    const liquidity = await h.client.readContract({
      address: h.chain.addresses.stateView,
      abi: parseAbi(['function getLiquidity(bytes32 poolId) view returns (uint128)']),
      functionName: 'getLiquidity',
      args: [launched.poolId],
      blockNumber: launched.blockNumber,
    })
    expect(tick!.liquidity).toBe(liquidity.toString())
    expect(BigInt(tick!.fdvUsdAtoms)).toBeGreaterThan(0n)
    expect(BigInt(tick!.effectiveCapAtoms!)).toBeGreaterThan(BigInt(tick!.fdvUsdAtoms))
  })

  it('matches a Clanker launch by msgSender too (a deployer bot sends, someone else is the token admin)', async () => {
    const bot = privateKeyToAccount(generatePrivateKey()).address
    const admin = privateKeyToAccount(generatePrivateKey()).address
    const { slug } = await h.newProject('idx-bot', 'clanker', bot, { expectedSymbol: 'BOT' })
    await impersonate(h.chain, bot)
    const d = DEVNET_LAUNCH_DEFAULTS.clanker
    const receipt = await sendDevnetCall(h.chain, bot, {
      address: h.launchpads.clanker.factory,
      abi: loadLaunchpadArtifact('DevnetClankerFactory').abi,
      functionName: 'deployToken',
      // The real DeploymentConfig naming `admin` as the token admin (and LP reward recipient), sent by the bot.
      args: [
        devnetClankerConfig(
          { chain: h.chain, addresses: h.launchpads, creator: admin, name: 'Bot', symbol: 'BOT' },
          d.startFee,
          d.endFee,
          d.decaySeconds,
          keccak256(stringToHex(slug)),
        ),
      ],
    })
    await h.indexer.caughtUp('base', receipt.blockNumber)
    const launch = await h.journal.getLaunchBySlug(slug)
    expect(launch?.launchpad).toBe('clanker')
    expect(launch?.blockNumber).toBe(receipt.blockNumber.toString())
    expect((await h.services.projects.getProject(slug))?.launch?.tokenAddress).toBe(launch?.token)
  })

  it('ticks on every block while the fee decays, and on swaps only once it is at its floor', async () => {
    const { slug, creator } = await h.newProject('idx-ticks', 'doppler')
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 500_000, endFee: 10_000, decaySeconds: 6 })
    // One block at a time, the indexer at the head each time: a block the chain is already past when it is read has
    // its ticks coalesced into the head block (the test above that falls behind checks that).
    const mineOneByOne = async (count: number) => {
      await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
      for (let i = 0; i < count; i++) {
        await h.mine()
        await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
      }
    }
    await mineOneByOne(6)
    const ticks = await h.journal.ticksOf(slug)
    const blockTicks = ticks.filter((t) => t.reason === 'block')
    // Launch at t0; block ticks while the next block's fee is above the floor: next = t0+4, t0+6 (floor reached at t0+6).
    expect(blockTicks.map((t) => t.nextBlockTimestamp - ticks[0]!.nextBlockTimestamp)).toEqual([2, 4])
    for (let i = 1; i < blockTicks.length; i++) expect(BigInt(blockTicks[i]!.effectiveCapAtoms!)).toBeLessThan(BigInt(blockTicks[i - 1]!.effectiveCapAtoms!))
    await h.thirdPartyBuy(launched.token, launched.poolKey, '1000')
    await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
    const swapTick = (await h.journal.ticksOf(slug)).at(-1)!
    expect(swapTick.reason).toBe('swap')
    expect(BigInt(swapTick.fdvUsdAtoms)).toBeGreaterThan(BigInt(ticks[0]!.fdvUsdAtoms))
    // A quiet pool at its fee floor still gets a heartbeat tick every 30 blocks.
    await mineOneByOne(31)
    const heartbeat = (await h.journal.ticksOf(slug)).filter((t) => BigInt(t.blockNumber) > BigInt(swapTick.blockNumber))
    expect(heartbeat.map((t) => [t.reason, BigInt(t.blockNumber) - BigInt(swapTick.blockNumber)])).toEqual([['block', 30n]])
  })

  it('a tick the executor asks for (after a reorg reopened orders) comes on the next processed block of a quiet pool, once', async () => {
    const { slug, creator } = await h.newProject('idx-asked', 'doppler')
    const launched = await h.launch(slug, 'doppler', creator, { startFee: 10_000, endFee: 10_000, decaySeconds: 1 })
    const mineOneByOne = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await h.mine()
        await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
      }
    }
    await h.indexer.caughtUp('base', launched.blockNumber)
    await mineOneByOne(2)
    // Quiet at its floor: the launch tick only.
    expect((await h.journal.ticksOf(slug)).map((t) => t.reason)).toEqual(['launch'])
    const asked = await h.client.getBlockNumber({ cacheTime: 0 })
    h.bus.request({ chain: 'base', slugs: [slug, 'no-such-launch'] })
    await mineOneByOne(3)
    const after = (await h.journal.ticksOf(slug)).filter((t) => BigInt(t.blockNumber) > asked)
    expect(after.map((t) => [t.reason, BigInt(t.blockNumber) - asked])).toEqual([['block', 1n]])
  })

  it('a launch while the indexer was down is found on restart (resume from the checkpoint)', async () => {
    const { slug, creator } = await h.newProject('idx-down', 'doppler')
    await h.indexer.stop()
    const launched = await h.launch(slug, 'doppler', creator)
    await h.mine(2)
    await h.restartIndexer()
    await h.indexer.caughtUp('base', launched.blockNumber + 2n)
    expect((await h.journal.getLaunchBySlug(slug))?.token).toBe(launched.token)
    expect((await h.services.projects.getProject(slug))?.launch?.tokenAddress).toBe(launched.token)
  })

  it('after falling N blocks behind, catches up in ranges (counted reads, not time): the launch in the skipped range is recorded and ticked once, at the head', async () => {
    const { slug, creator } = await h.newProject('idx-behind', 'clanker')
    await h.indexer.stop()
    const launched = await h.launch(slug, 'clanker', creator)
    const N = 20
    await h.mine(N)
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    expect(head).toBeGreaterThanOrEqual(launched.blockNumber + BigInt(N))
    // The restarted indexer reads through a transport that counts its requests by method.
    const calls: Record<string, number> = {}
    const inner = http(h.chain.rpcUrl)({ retryCount: 0 })
    const counting = createPublicClient({
      transport: custom({
        request({ method, params }) {
          // The head polls ('latest': the sync reads ahead while a block is processed, as often as it polls) apart, and
          // the logs of the number after the tip asked with each of them (one block by number: logsWithHead).
          const first = Array.isArray(params) ? (params[0] as { fromBlock?: unknown; toBlock?: unknown } | undefined) : undefined
          const key =
            method === 'eth_getBlockByNumber' && first === ('latest' as unknown)
              ? 'head'
              : method === 'eth_getLogs' && first?.fromBlock !== undefined && first.fromBlock === first.toBlock
                ? 'next-logs'
                : method
          calls[key] = (calls[key] ?? 0) + 1
          return inner.request({ method, params } as never)
        },
      }),
    }) as PublicClient
    const signalsBefore = h.signals.length
    await h.restartIndexer(counting)
    await h.indexer.caughtUp('base', head)
    expect((await h.journal.getLaunchBySlug(slug))?.token).toBe(launched.token)
    expect((await h.services.projects.getProject(slug))?.launch?.tokenAddress).toBe(launched.token)
    // Block by block this was 2 reads per block (the header, then its logs by hash) plus the head and our tip per round;
    // in ranges: one eth_getLogs for every block behind (a block whose bloom admits our addresses but had no log in the
    // answer is read again by hash: allowed a few), each header once.
    const behind = Number(head - launched.blockNumber) + 1
    expect(calls.eth_getLogs ?? 0).toBeLessThanOrEqual(3)
    expect(calls.eth_getBlockByNumber ?? 0).toBeLessThan(behind + 5)
    // The launch's ticks are at the head block, reason 'launch': one ahead, published with the launch record (from the
    // launch block's state), and the head block's own; the skipped blocks published no other tick, and the only
    // 'block' signal is the head's (the executor's per-block reads are for the head only; given early for the launch).
    const ticks = await h.journal.ticksOf(slug)
    expect(ticks[0]?.reason).toBe('launch')
    expect(BigInt(ticks[0]!.blockNumber)).toBe(head)
    const signals = h.signals.slice(signalsBefore)
    const blockSignals = signals.flatMap((s) => (s.type === 'block' && s.blockNumber <= head ? [s.blockNumber] : []))
    expect(blockSignals).toEqual([head])
    const launchTicks = signals.flatMap((s) => (s.type === 'tick' && s.launch.slug === slug && BigInt(s.tick.blockNumber) <= head ? [s.tick] : []))
    expect(launchTicks.map((t) => [t.reason, BigInt(t.blockNumber), t.stateBlock])).toEqual([
      ['launch', head, launched.blockNumber.toString()],
      ['launch', head, undefined],
    ])
    const processed = signals.find((s) => s.type === 'processed' && s.blockNumber === head)
    expect(processed?.type === 'processed' && processed.launched).toContain(slug)
  })

  it('a launch log whose receipt cannot be read (RPC error mid-launch) is quarantined and decoded again a block later; the launch is not lost', async () => {
    const { slug, creator } = await h.newProject('idx-flaky', 'zora')
    let failures = 0
    const inner = http(h.chain.rpcUrl)({ retryCount: 0 })
    const flaky = createPublicClient({
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_getTransactionReceipt' && failures === 0) {
            failures++
            throw new Error('injected RPC failure')
          }
          return inner.request({ method, params } as never)
        },
      }),
    }) as PublicClient
    await h.restartIndexer(flaky)
    const launched = await h.launch(slug, 'zora', creator)
    await h.mine()
    await h.indexer.caughtUp('base', launched.blockNumber + 1n)
    expect(failures).toBe(1)
    // The block itself went on (its checkpoint moved); the log was decoded again at the next block and bound then.
    expect((await h.journal.getCheckpoint('base'))?.unfinalized.at(-1)?.number).toBe((launched.blockNumber + 1n).toString())
    expect(await h.journal.quarantinedLogs('base')).toEqual([])
    expect((await h.journal.getLaunchBySlug(slug))?.token).toBe(launched.token)
    expect((await h.services.projects.getProject(slug))?.launch?.tokenAddress).toBe(launched.token)
    await h.restartIndexer()
  })

  it('skips launches on a launchpad with no project waiting to launch, without fetching their receipts', async () => {
    const calls: string[] = []
    const inner = http(h.chain.rpcUrl)({ retryCount: 0 })
    const counting = createPublicClient({
      transport: custom({
        request({ method, params }) {
          calls.push(method)
          return inner.request({ method, params } as never)
        },
      }),
    }) as PublicClient
    await h.restartIndexer(counting)
    // Every zora project of this file has launched: a stranger's zora launch is not ours.
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    const launched = await h.launch('stranger', 'zora', stranger)
    await h.mine()
    await h.indexer.caughtUp('base', launched.blockNumber + 1n)
    expect(calls.filter((m) => m === 'eth_getTransactionReceipt')).toEqual([])
    expect(await h.journal.launchesAbove('base', launched.blockNumber - 1n)).toEqual([])
    await h.restartIndexer()
  })

  it('a reorg that removes the launch block reverts the launch record, the project mark and its ticks in one write', async () => {
    const { slug, creator } = await h.newProject('idx-reorg', 'clanker')
    const launched = await h.launch(slug, 'clanker', creator)
    await h.mine(2)
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await h.indexer.caughtUp('base', head)
    expect(await h.journal.getLaunchBySlug(slug)).toBeDefined()
    expect((await h.journal.ticksOf(slug)).length).toBeGreaterThan(0)

    // Replace the launch block and everything after it with empty blocks.
    const depth = Number(head - launched.blockNumber) + 1
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [depth, []])
    await h.mine()
    await h.waitFor('reverted', async () => h.signals.some((s) => s.type === 'launch_reverted' && s.launch.slug === slug))
    expect(await h.journal.getLaunchBySlug(slug)).toBeUndefined()
    expect((await h.services.projects.getProject(slug))?.launch).toBeNull()
    expect(await h.journal.ticksOf(slug)).toEqual([])
    const checkpoint = await h.journal.getCheckpoint('base')
    expect(checkpoint?.unfinalized.every((b) => BigInt(b.number) < launched.blockNumber || b.hash !== launched.launch.blockHash)).toBe(true)
  })

  it('after kill -9 of its chain, catches up through blocks whose state the restarted node cannot serve, and sees the next launch', async () => {
    const a = await h.newProject('idx-crash-a', 'clanker')
    const first = await h.launch(a.slug, 'clanker', a.creator)
    await h.indexer.caughtUp('base', first.blockNumber)
    // The indexer falls behind the chain (three blocks it has not processed)...
    await h.indexer.stop()
    await h.mine(3)
    const gapEnd = await h.client.getBlockNumber({ cacheTime: 0 })
    // ...which are in anvil's state dump when it is killed: the restarted node has those blocks, but only the newest's state.
    await h.chainDumped()
    await h.crashChain()
    expect(await h.client.getBlockNumber({ cacheTime: 0 })).toBe(gapEnd)
    await expect(jsonRpc(h.chain.rpcUrl, 'eth_getBalance', [h.feeRecipient, toHex(first.blockNumber + 1n)])).rejects.toThrow(/BlockOutOfRange/)
    await h.restartIndexer()
    await h.indexer.caughtUp('base', gapEnd)
    // The gap was priced (from the latest state) instead of being retried for ever: the first block after the restart
    // re-prices every launched pool.
    const ticks = await h.journal.ticksOf(a.slug)
    expect(ticks.some((t) => BigInt(t.blockNumber) > first.blockNumber && BigInt(t.blockNumber) <= gapEnd)).toBe(true)
    // And the next launch is seen.
    const b = await h.newProject('idx-crash-b', 'clanker')
    const next = await h.launch(b.slug, 'clanker', b.creator)
    await h.indexer.caughtUp('base', next.blockNumber)
    expect((await h.journal.getLaunchBySlug(b.slug))?.token).toBe(next.token)
  })
})
