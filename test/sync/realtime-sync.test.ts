import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createTestClient, http, webSocket } from 'viem'
import type { PublicClient, TestClient } from 'viem'
import { foundry } from 'viem/chains'
import { silentLogger } from '../../src/common/logger.ts'
import { createRealtimeSync } from '../../src/sync/realtime-sync.ts'
import type { RealtimeSync } from '../../src/sync/realtime-sync.ts'
import type { SyncCheckpoint, SyncEvent } from '../../src/sync/sync-types.ts'
import { startAnvil } from './anvil-process.ts'
import type { AnvilProcess } from './anvil-process.ts'

/** Pulls events from a sync until `until` holds (or fails after a timeout). */
async function collect(iterator: AsyncGenerator<SyncEvent>, until: (events: SyncEvent[]) => boolean, timeoutMs = 15_000) {
  const events: SyncEvent[] = []
  const deadline = Date.now() + timeoutMs
  while (!until(events)) {
    const next = await Promise.race([
      iterator.next(),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), Math.max(1, deadline - Date.now()))),
    ])
    if (next === 'timeout') throw new Error(`timed out; got ${events.map((e) => `${e.type}`).join(',')}`)
    if (next.done) break
    events.push(next.value)
  }
  return events
}

/**
 * Pulls events into `events`, mining a block whenever none came for 300 ms, until a block at or past `target` is
 * delivered (15 s at most). A pull that the pause outlasted stays pending and is awaited next, so no event is lost.
 */
function pullWhileMining(iterator: AsyncGenerator<SyncEvent>, events: SyncEvent[], mineOne: () => Promise<void>) {
  let pending: Promise<IteratorResult<SyncEvent>> | undefined
  return async (target: bigint): Promise<void> => {
    const deadline = Date.now() + 15_000
    while (!blocksOf(events).some((b) => b.number >= target)) {
      pending ??= iterator.next()
      const result = await Promise.race([pending, new Promise<'none'>((resolve) => setTimeout(() => resolve('none'), 300))])
      if (result === 'none') {
        const got = blocksOf(events).map((b) => b.number)
        if (Date.now() > deadline) throw new Error(`timed out waiting for block ${target}; got ${got.join(',')}`)
        await mineOne()
        continue
      }
      pending = undefined
      if (result.done) throw new Error('the sync ended')
      events.push(result.value)
    }
  }
}

const blocksOf = (events: SyncEvent[]) => events.flatMap((e) => (e.type === 'block' ? [e.block] : []))
const lastBlockIs = (n: bigint) => (events: SyncEvent[]) => blocksOf(events).at(-1)?.number === n

describe('realtime sync on anvil', () => {
  let anvil: AnvilProcess
  let client: PublicClient
  let testClient: TestClient
  const syncs: RealtimeSync[] = []

  beforeAll(async () => {
    anvil = await startAnvil(['--no-mining'])
    client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) }) as PublicClient
    testClient = createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) })
  })
  afterAll(async () => {
    for (const sync of syncs) await sync.stop()
    await anvil?.stop()
  })

  const newSync = (options: { resume?: SyncCheckpoint; startBlock?: bigint; ws?: string; confirmations?: number; pollingIntervalMs?: number }) => {
    const sync = createRealtimeSync({
      client,
      wsClient: options.ws ? (createPublicClient({ chain: foundry, transport: webSocket(options.ws, { retryCount: 0 }) }) as PublicClient) : undefined,
      confirmations: options.confirmations ?? 4,
      pollingIntervalMs: options.pollingIntervalMs ?? 100,
      resume: options.resume,
      startBlock: options.startBlock,
      logger: silentLogger,
    })
    syncs.push(sync)
    return sync
  }

  it('delivers every block with its logs over the websocket, reverts on anvil_reorg and finalizes deep blocks', async () => {
    const start = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const sync = newSync({ startBlock: start, ws: anvil.wsUrl, confirmations: 4 })
    const iterator = sync.events()
    // A contract creation whose init code is LOG0(0, 0): one log from a fresh address.
    await testClient.sendUnsignedTransaction({ from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', data: '0x60006000a000' })
    await testClient.mine({ blocks: 6 })
    const first = await collect(iterator, lastBlockIs(start + 5n))
    const blocks = blocksOf(first)
    expect(blocks.map((b) => b.number)).toEqual([0n, 1n, 2n, 3n, 4n, 5n].map((i) => start + i))
    for (let i = 1; i < blocks.length; i++) expect(blocks[i]!.parentHash).toBe(blocks[i - 1]!.hash)
    const withLog = first.find((e) => e.type === 'block' && e.block.number === start)
    expect(withLog?.type === 'block' && withLog.logs.length).toBe(1)
    // Confirmation depth 4: blocks start..start+1 are final once start+5 is processed.
    const finalized = first.flatMap((e) => (e.type === 'finalize' ? [e.block.number] : []))
    expect(finalized).toEqual([start])
    const lastCheckpoint = first.at(-1)!.checkpoint
    expect(lastCheckpoint.finalized.number).toBe(start + 1n)
    expect(lastCheckpoint.unfinalized.map((b) => b.number)).toEqual([2n, 3n, 4n, 5n].map((i) => start + i))

    const oldHashes = new Map(blocks.map((b) => [b.number, b.hash]))
    await testClient.request({ method: 'anvil_reorg' as never, params: [3, []] as never })
    const afterReorg = await collect(iterator, (events) => events.some((e) => e.type === 'reorg') && lastBlockIs(start + 5n)(events))
    const reorg = afterReorg.find((e) => e.type === 'reorg')
    expect(reorg?.type === 'reorg' && reorg.ancestor.number).toBe(start + 2n)
    expect(reorg?.type === 'reorg' && reorg.reverted.map((b) => b.number)).toEqual([start + 3n, start + 4n, start + 5n])
    const replaced = blocksOf(afterReorg)
    expect(replaced.map((b) => b.number)).toEqual([start + 3n, start + 4n, start + 5n])
    for (const b of replaced) expect(b.hash).not.toBe(oldHashes.get(b.number))
    expect(replaced[0]!.parentHash).toBe(oldHashes.get(start + 2n))
    await sync.stop()
    const end = await iterator.next()
    expect(end.done).toBe(true)
  })

  it('is woken by the websocket newHeads subscription (polling slowed to a minute)', async () => {
    const start = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const sync = newSync({ startBlock: start, ws: anvil.wsUrl, pollingIntervalMs: 60_000 })
    const iterator = sync.events()
    // With polling a minute away, only the socket can wake the sync within the deadline. Its subscription is made at
    // start (connect, eth_subscribe) and a head mined before it exists is missed: a fixed pause before mining assumed
    // how long that takes on a busy machine. Blocks come one at a time until the sync delivers the one waited for.
    const events: SyncEvent[] = []
    const next = pullWhileMining(iterator, events, () => testClient.mine({ blocks: 1 }))
    await next(start)
    expect(blocksOf(events)[0]?.number).toBe(start)
    // Woken again by the next head (the subscription is up now): the blocks after `start`, in order, up to it.
    const head = await client.getBlockNumber({ cacheTime: 0 })
    await next(head + 1n)
    const numbers = blocksOf(events).map((b) => b.number)
    expect(numbers).toEqual(numbers.map((_n, i) => start + BigInt(i)))
    expect(numbers.at(-1)! >= head + 1n).toBe(true)
    await sync.stop()
  })

  it('resumes from a checkpoint: blocks mined while stopped are delivered, a reorg while stopped is reverted first', async () => {
    const start = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const first = newSync({ startBlock: start, confirmations: 10 })
    const firstIterator = first.events()
    await testClient.mine({ blocks: 4 })
    const seen = await collect(firstIterator, lastBlockIs(start + 3n))
    const checkpoint = seen.at(-1)!.checkpoint
    const stale = blocksOf(seen)
    await first.stop()

    // While the consumer is down: two blocks are replaced and three more arrive.
    await testClient.request({ method: 'anvil_reorg' as never, params: [2, []] as never })
    await testClient.mine({ blocks: 3 })

    const second = newSync({ resume: checkpoint, confirmations: 10 })
    const events = await collect(second.events(), lastBlockIs(start + 6n))
    expect(events[0]?.type).toBe('reorg')
    expect(events[0]?.type === 'reorg' && events[0].ancestor.hash).toBe(stale[1]!.hash)
    expect(blocksOf(events).map((b) => b.number)).toEqual([2n, 3n, 4n, 5n, 6n].map((i) => start + i))
    await second.stop()
  })

  it('follows a reorg below the finalized block (a confirmation depth too shallow for the chain) back to a remembered block', async () => {
    const start = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const sync = newSync({ startBlock: start, confirmations: 2 })
    const iterator = sync.events()
    await testClient.mine({ blocks: 8 })
    const seen = await collect(iterator, lastBlockIs(start + 7n))
    const checkpoint = seen.at(-1)!.checkpoint
    expect(checkpoint.finalized.number).toBe(start + 5n)
    // Older finalized blocks are remembered, one per power-of-two distance.
    // (start-1, the block before the first, was the first finalized one: 6 back, the oldest of the 4..7 bucket.)
    expect(checkpoint.history.map((b) => start + 5n - b.number)).toEqual([1n, 2n, 6n])
    // Five blocks replaced: start+3 .. start+7, three of them final by our depth.
    await testClient.request({ method: 'anvil_reorg' as never, params: [5, []] as never })
    await testClient.mine({ blocks: 1 })
    const events = await collect(iterator, lastBlockIs(start + 8n))
    const reorg = events.find((e) => e.type === 'reorg')
    // The newest remembered block the chain still has (start-1; the true ancestor is start+2): from there every block
    // is delivered again, the replaced ones with their new hashes.
    expect(reorg?.type === 'reorg' && reorg.ancestor.number).toBe(start - 1n)
    expect(reorg?.checkpoint.finalized.number).toBe(start - 1n)
    expect(blocksOf(events).map((b) => b.number)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n].map((i) => start + i))
    const replaced = blocksOf(events).find((b) => b.number === start + 3n)!
    expect(replaced.hash).not.toBe(blocksOf(seen).find((b) => b.number === start + 3n)!.hash)
    await sync.stop()
  })

  it('refuses a chain that has none of the blocks it remembers (another chain) with a typed error', async () => {
    const head = await client.getBlock({ blockTag: 'latest' })
    const foreign = (n: bigint) => ({
      number: n,
      hash: `0x${'ab'.repeat(31)}${n.toString(16).padStart(2, '0')}` as const,
      parentHash: head.hash,
      timestamp: 1n,
    })
    const sync = newSync({ resume: { finalized: foreign(head.number - 1n), unfinalized: [foreign(head.number)], history: [foreign(head.number - 2n)] } })
    await testClient.mine({ blocks: 1 })
    await expect(collect(sync.events(), () => false)).rejects.toMatchObject({ code: 'reorg_too_deep' })
    await sync.stop()
  })

  it('waits while the node is behind its tip with the same blocks; a different block at a processed number is a reorg', async () => {
    const start = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const snapshot = await testClient.snapshot()
    const sync = newSync({ startBlock: start, confirmations: 10 })
    const iterator = sync.events()
    await testClient.mine({ blocks: 4 })
    const seen = await collect(iterator, lastBlockIs(start + 3n))
    // The node loses its four newest blocks (as a chain restarted from an older state dump does): same blocks below.
    await testClient.revert({ id: snapshot })
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(start - 1n)
    // Polls go by (every 100 ms) with the node behind: nothing is reverted on its word alone. (A wrong sync would
    // emit within one poll; a slow machine can only make this pass, never fail.)
    const pending = iterator.next()
    const quiet = await Promise.race([pending.then(() => 'event' as const), new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), 800))])
    expect(quiet).toBe('quiet')
    // The node builds on its head: block `start` is now another block at a number we processed.
    await testClient.mine({ blocks: 2 })
    const first = await pending
    const events = [...(first.done ? [] : [first.value]), ...(await collect(iterator, lastBlockIs(start + 1n)))]
    const reorg = events.find((e) => e.type === 'reorg')
    expect(reorg?.type === 'reorg' && reorg.ancestor.number).toBe(start - 1n)
    expect(reorg?.type === 'reorg' && reorg.reverted.map((b) => b.hash)).toEqual(blocksOf(seen).map((b) => b.hash))
    await sync.stop()
  })

  it('falls back to polling when the websocket cannot connect', async () => {
    const start = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const sync = newSync({ startBlock: start, ws: 'ws://127.0.0.1:1' })
    const iterator = sync.events()
    await testClient.mine({ blocks: 2 })
    const events = await collect(iterator, lastBlockIs(start + 1n))
    expect(blocksOf(events).map((b) => b.number)).toEqual([start, start + 1n])
    await sync.stop()
  })
})
