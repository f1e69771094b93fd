import type { Log } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createWaitingProjects } from '../../daemon/indexer/waiting-projects.ts'
import { createChainIndexer } from '../../daemon/indexer/chain-indexer.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { silentLogger } from '../../src/common/logger.ts'
import { createLaunchpadAdapters, devnetAdapterOptions } from '../../src/launchpads/create-adapters.ts'
import { type BlockEvent, type BlockRef, toBlockRef } from '../../src/sync/sync-types.ts'
import { startFlowHarness, type FlowHarness } from '../executor/flow-harness.ts'

/**
 * A launch in a block the indexer reads behind the head (issue 23 item 3): its tick goes to the executor as soon as the
 * launch record is written, not when the head block has been processed. Driven block by block (the chain indexer fed
 * the sync's events by hand, the head's header in the launch block's event), so the order of what is published is
 * decided by the code alone, never by timing.
 */
describe('launch tick ahead of the head (real devnet launch, chain indexer driven block by block)', () => {
  let h: FlowHarness
  const noBuys: Pick<WalletService, 'walletAddress' | 'submitUserOperations'> = {
    walletAddress: () => Promise.reject(new Error('unused')),
    submitUserOperations: () => Promise.reject(new Error('unused')),
  }
  beforeAll(async () => {
    h = await startFlowHarness()
    // The signals are looked at, not the buys: an executor without orders to fill.
    await h.restartExecutor(noBuys)
    await h.indexer.stop()
  })
  afterAll(async () => {
    await h?.stop()
  })

  async function driven() {
    const adapters = Object.values(createLaunchpadAdapters(devnetAdapterOptions(h.chain.addresses, h.launchpads)))
    const indexer = await createChainIndexer({
      store: h.store,
      waiting: createWaitingProjects(h.store, h.chain.key),
      journal: h.journal,
      chain: h.chain,
      client: h.client,
      adapters,
      ticks: h.bus,
      log: silentLogger,
      now: Date.now,
      stage: () => undefined,
      blockTimeSeconds: 2,
      heartbeatBlocks: 30,
      sharedDeployers: new Set(),
    })
    const watched = new Set(indexer.addresses.map((a) => a.toLowerCase()))
    let processed: BlockRef[] = []
    /** The sync's event for block `n` read in a round whose head is `head`. */
    const eventOf = async (n: bigint, head: bigint): Promise<BlockEvent> => {
      const block = toBlockRef(await h.client.getBlock({ blockNumber: n }))
      const headBlock = toBlockRef(await h.client.getBlock({ blockNumber: head }))
      const logs: Log[] = (await h.client.getLogs({ blockHash: block.hash })).filter((l) => watched.has(l.address.toLowerCase()))
      const parent = processed.at(-1) ?? toBlockRef(await h.client.getBlock({ blockNumber: n - 1n }))
      processed = [...processed, block]
      return {
        type: 'block',
        block,
        logs,
        head,
        ...(n < head ? { headBlock } : {}),
        checkpoint: { finalized: parent, unfinalized: processed.filter((b) => b.number > parent.number), history: [] },
      }
    }
    return { indexer, eventOf }
  }

  it('a launch read behind the head is ticked at the head as soon as its record is written; the head block ticks it again', async () => {
    const { slug, creator } = await h.newProject('ahead-zora', 'zora')
    const launched = await h.launch(slug, 'zora', creator)
    // Two blocks on top: the launch block is read two behind the head, the block after it one behind.
    await h.mine(2)
    const head = launched.blockNumber + 2n
    const { indexer, eventOf } = await driven()
    const from = h.signals.length
    await indexer.onBlock(await eventOf(launched.blockNumber, head))
    // Nothing of the head block has been processed yet: the launch record is written and its tick published.
    expect((await h.journal.getLaunchBySlug(slug))?.token).toBe(launched.token)
    const afterLaunch = h.signals.slice(from)
    // The head's `block` signal first (the executor's warm reads of the head start while the launch is decoded), then
    // the launch tick, at the head, from the launch block's pool state.
    expect(afterLaunch.map((s) => s.type)).toEqual(['block', 'tick'])
    expect(afterLaunch[0]).toMatchObject({ type: 'block', blockNumber: head })
    const ahead = afterLaunch[1]
    if (ahead?.type !== 'tick') throw new Error('no tick')
    const headHeader = await h.client.getBlock({ blockNumber: head })
    expect(ahead.launch.slug).toBe(slug)
    expect(ahead.tick).toMatchObject({
      reason: 'launch',
      blockNumber: head.toString(),
      blockHash: headHeader.hash,
      stateBlock: launched.blockNumber.toString(),
    })
    expect(BigInt(ahead.tick.sqrtPriceX96)).toBeGreaterThan(0n)
    // Written with the launch record (the journal holds every tick the executor is given).
    expect(await h.journal.ticksOf(slug)).toEqual([ahead.tick])

    // A block behind the head without a launch: nothing published (its ticks are the head's, as before).
    await indexer.onBlock(await eventOf(launched.blockNumber + 1n, head))
    expect(h.signals.slice(from + afterLaunch.length)).toEqual([])

    // The head block: its `block` signal was already given; it ticks the launch again from its own state (the
    // launch stays owed), and lists it among the launched of the processed block (nothing readied for it).
    await indexer.onBlock(await eventOf(head, head))
    const atHead = h.signals.slice(from + afterLaunch.length)
    expect(atHead.map((s) => s.type)).toEqual(['tick', 'processed'])
    const owed = atHead[0]
    expect(owed?.type === 'tick' && owed.tick).toMatchObject({ reason: 'launch', blockNumber: head.toString() })
    expect(owed?.type === 'tick' && owed.tick.stateBlock).toBeUndefined()
    expect(atHead[1]?.type === 'processed' && atHead[1].launched).toContain(slug)
    // The head block's own tick replaces the one ahead in the journal (same block, same position).
    expect((await h.journal.ticksOf(slug)).map((t) => [t.blockNumber, t.stateBlock])).toEqual([[head.toString(), undefined]])
  })

  it('a launch read at the head is ticked at its own block, as before', async () => {
    const { slug, creator } = await h.newProject('at-head-zora', 'zora')
    const launched = await h.launch(slug, 'zora', creator)
    const { indexer, eventOf } = await driven()
    const from = h.signals.length
    // No candidate lookup between the launch's reads and its record (a bound launch's candidate is deleted unread).
    const candidateReads = vi.spyOn(h.journal, 'getCandidate')
    await indexer.onBlock(await eventOf(launched.blockNumber, launched.blockNumber))
    expect(candidateReads).not.toHaveBeenCalled()
    candidateReads.mockRestore()
    // (A fresh indexer's first head block also re-prices the launched pools of the test above: only this launch's.)
    const all = h.signals.slice(from)
    // The executor's reads ahead of the launch tick (launch_ahead): published with the record's round when a paired
    // price is already known (here the launch block's own may be, on a local node), always before the launch's tick.
    const hint = all.find((s) => s.type === 'launch_ahead')
    if (hint?.type === 'launch_ahead') {
      expect(hint).toMatchObject({ blockNumber: launched.blockNumber, launch: { token: launched.token } })
      expect(hint.slugs).toContain(slug)
      expect(all.indexOf(hint)).toBeLessThan(all.findIndex((s) => s.type === 'tick' && s.launch.slug === slug))
    }
    const signals = all.filter((s) => s.type !== 'launch_ahead' && (s.type !== 'tick' || s.launch.slug === slug))
    expect(signals.map((s) => s.type)).toEqual(['block', 'tick', 'processed'])
    const tick = signals[1]
    expect(tick?.type === 'tick' && tick.tick).toMatchObject({ reason: 'launch', blockNumber: launched.blockNumber.toString() })
    expect(tick?.type === 'tick' && tick.tick.stateBlock).toBeUndefined()
  })
})
