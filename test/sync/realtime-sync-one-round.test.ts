import { createPublicClient, createTestClient, custom, type Hash, type Hex, http, type PublicClient, type TestClient } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/common/logger.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import { createRealtimeSync, MAX_POLLS_IN_FLIGHT, type RealtimeSync } from '../../src/sync/realtime-sync.ts'
import type { BlockEvent, SyncEvent } from '../../src/sync/sync-types.ts'
import { type AnvilProcess, startAnvil } from './anvil-process.ts'

/**
 * Detection in one round trip (issue 23 item 3): the head and the logs of the number after our tip are asked at once,
 * so a new block in the steady state is delivered one round trip after the poll that finds it (it was two: the head,
 * then its logs by hash). Counted, not timed: the client holds every answer until the test releases it, a round at a
 * time (as test/indexer/launch-round-trips.test.ts does); requests released together are one round trip, one asked
 * only after an answer came back is in a later round. The logs read by number are evidence only: an answer that belongs
 * to another block than the header (another fork's view of that height) or an empty one the header's bloom contradicts
 * is never delivered as that block's logs.
 */
const SENDER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
// A contract creation whose init code is LOG0(0, 0): one log emitted by the new contract's address.
const EMIT_LOG: Hex = '0x60006000a000'

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

interface Asked {
  /** The method, eth_getLogs told apart by how it selects its block: `eth_getLogs(number)` or `eth_getLogs(hash)`. */
  kind: string
  params: unknown
  /** What the node answered (after any rewrite): for a head read its number. */
  result?: unknown
}

/** Answers a request itself instead of the node (a forged or lagging provider), or undefined to forward it. */
type Rewrite = (method: string, params: unknown) => Promise<unknown> | undefined

function gatedSync(options: {
  readAhead?: boolean
  logsWithHead?: boolean
  overlapPolls?: boolean
  rewrite?: Rewrite
  startBlock: bigint
  pollingIntervalMs?: number
}) {
  const inner = http(anvil.rpcUrl)({ retryCount: 0 })
  const held: Array<{ asked: Asked; answer: Promise<unknown>; release: () => void }> = []
  const gated = createPublicClient({
    transport: custom({
      async request({ method, params }) {
        const answer = options.rewrite?.(method, params) ?? (inner.request({ method, params } as never) as Promise<unknown>)
        answer.catch(() => undefined)
        const first = Array.isArray(params) ? (params[0] as { blockHash?: Hash } | undefined) : undefined
        const kind = method === 'eth_getLogs' ? (first?.blockHash ? 'eth_getLogs(hash)' : 'eth_getLogs(number)') : method
        const gate = withResolvers<void>()
        held.push({ asked: { kind, params }, answer, release: () => gate.resolve() })
        await gate.promise
        return answer
      },
    }),
  }) as PublicClient
  const sync = createRealtimeSync({
    client: gated,
    confirmations: 8,
    pollingIntervalMs: options.pollingIntervalMs ?? 10,
    startBlock: options.startBlock,
    readAhead: options.readAhead,
    logsWithHead: options.logsWithHead,
    overlapPolls: options.overlapPolls,
    logger: silentLogger,
  })
  syncs.push(sync)
  const iterator = sync.events()
  const flush = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
  }

  /**
   * Pulls the next event, releasing the held answers a round at a time (waiting, with a deadline, for the sync to ask:
   * its poll waits on a timer between rounds); returns it with the rounds released until it came.
   */
  async function pull(timeoutMs = 15_000): Promise<{ event: SyncEvent; rounds: Asked[][] }> {
    let finished: { event: SyncEvent } | { error: unknown } | undefined
    iterator.next().then(
      (next) => (finished = next.done ? { error: new Error('stream ended') } : { event: next.value }),
      (error: unknown) => (finished = { error }),
    )
    const rounds: Asked[][] = []
    const deadline = Date.now() + timeoutMs
    for (;;) {
      await flush()
      if (finished) break
      if (held.length === 0) {
        if (Date.now() > deadline) throw new Error('timed out waiting for the sync to ask')
        await new Promise((resolve) => setTimeout(resolve, 2))
        continue
      }
      const round = held.splice(0)
      const results = await Promise.allSettled(round.map((r) => r.answer))
      for (const [i, r] of round.entries()) {
        const settled = results[i]!
        if (settled.status === 'fulfilled')
          r.asked.result = r.asked.kind === 'eth_getBlockByNumber' ? BigInt((settled.value as { number: Hex }).number) : settled.value
      }
      rounds.push(round.map((r) => r.asked))
      for (const r of round) r.release()
    }
    if ('error' in finished) throw finished.error
    return { event: finished.event, rounds }
  }
  async function pullBlock(): Promise<{ event: BlockEvent; rounds: Asked[][] }> {
    const all: Asked[][] = []
    for (;;) {
      const { event, rounds } = await pull()
      all.push(...rounds)
      if (event.type === 'block') return { event, rounds: all }
    }
  }
  /** Head reads asked and not answered yet (held since the last pull). */
  const heldHeads = () => held.filter((h) => h.asked.kind === 'eth_getBlockByNumber').length
  /** Answers everything held now (a round read ahead while the consumer holds a block), waiting until it is answered. */
  const releaseHeld = async () => {
    const round = held.splice(0)
    for (const r of round) r.release()
    await Promise.allSettled(round.map((r) => r.answer))
    await flush()
  }
  return { sync, pullBlock, inner, heldHeads, releaseHeld, flush }
}

const kinds = (rounds: Asked[][]) => rounds.map((round) => round.map((a) => a.kind).sort())

async function mineWithLog(): Promise<{ hash: Hash; number: bigint }> {
  await testClient.sendUnsignedTransaction({ from: SENDER, data: EMIT_LOG })
  await testClient.mine({ blocks: 1 })
  const block = await client.getBlock({ blockTag: 'latest' })
  return { hash: block.hash, number: block.number }
}

/** A synced stream delivered up to the current head + 1 (mined here), the consumer holding that block. */
async function started(options: Omit<Parameters<typeof gatedSync>[0], 'startBlock'>) {
  const first = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
  await testClient.mine({ blocks: 1 })
  const s = gatedSync({ ...options, startBlock: first })
  const { event, rounds } = await s.pullBlock()
  expect(event.block.number).toBe(first)
  // The block before the start (the checkpoint), then the start block with its logs in one round.
  expect(kinds(rounds)).toEqual([['eth_getBlockByNumber'], ['eth_getBlockByNumber', 'eth_getLogs(number)']])
  return { ...s, first }
}

describe('realtime sync: a new block in one round trip', () => {
  it('steady state: the poll that finds the head has its logs already (one round; the head then its logs by hash without)', async () => {
    const s = await started({ readAhead: false })
    const mined = await mineWithLog()
    const { event, rounds } = await s.pullBlock()
    expect(kinds(rounds)).toEqual([['eth_getBlockByNumber', 'eth_getLogs(number)']])
    expect(event.block.hash).toBe(mined.hash)
    expect(event.logs).toHaveLength(1)
    expect(event.logs[0]!.blockHash).toBe(mined.hash)
    expect(event.checkpoint.unfinalized.at(-1)?.hash).toBe(mined.hash)
  })

  it('without logsWithHead: the head, then its logs by hash, two rounds', async () => {
    const first = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    await testClient.mine({ blocks: 1 })
    const s = gatedSync({ readAhead: false, logsWithHead: false, startBlock: first })
    await s.pullBlock()
    const mined = await mineWithLog()
    const { event, rounds } = await s.pullBlock()
    expect(kinds(rounds)).toEqual([['eth_getBlockByNumber'], ['eth_getLogs(hash)']])
    expect(event.block.hash).toBe(mined.hash)
    expect(event.logs).toHaveLength(1)
  })

  it('polls slower than the chain (a head read found several new blocks): the next head is asked alone, until one finds at most one', async () => {
    const s = await started({ readAhead: false })
    await testClient.mine({ blocks: 3 })
    const caughtUp = await s.pullBlock()
    // The head 3 above: the next number's logs asked with it go unused, the range is read (headers and one eth_getLogs).
    expect(kinds(caughtUp.rounds)).toEqual([
      ['eth_getBlockByNumber', 'eth_getLogs(number)'],
      ['eth_getBlockByNumber', 'eth_getBlockByNumber', 'eth_getLogs(number)'],
    ])
    for (let i = 0; i < 2; i++) await s.pullBlock()
    // The next poll asks the head alone; it finds one block: its logs by hash, and the poll after carries the logs again.
    await mineWithLog()
    const alone = await s.pullBlock()
    expect(kinds(alone.rounds)).toEqual([['eth_getBlockByNumber'], ['eth_getLogs(hash)']])
    expect(alone.event.logs).toHaveLength(1)
    const mined = await mineWithLog()
    const again = await s.pullBlock()
    expect(kinds(again.rounds)).toEqual([['eth_getBlockByNumber', 'eth_getLogs(number)']])
    expect(again.event.block.hash).toBe(mined.hash)
  })

  it('read ahead while the consumer holds a block: the round whose head finds the new block delivers it, nothing asked after', async () => {
    const s = await started({})
    const mined = await mineWithLog()
    const { event, rounds } = await s.pullBlock()
    expect(event.block.hash).toBe(mined.hash)
    expect(event.logs).toHaveLength(1)
    // Idle polls (heads at our tip) may come first; the first head at the new block is in the last round, with the logs.
    const found = rounds.findIndex((round) => round.some((a) => a.kind === 'eth_getBlockByNumber' && a.result === mined.number))
    expect(found).toBe(rounds.length - 1)
    // Overlapped polls (overlapPolls, default): a round released at once may hold several polls, each a head read with
    // the next number's logs, and nothing else.
    for (const round of kinds(rounds)) {
      const heads = round.filter((k) => k === 'eth_getBlockByNumber').length
      expect(heads).toBeGreaterThan(0)
      expect(heads).toBeLessThanOrEqual(MAX_POLLS_IN_FLIGHT)
      expect(round).toEqual([...Array(heads).fill('eth_getBlockByNumber'), ...Array(heads).fill('eth_getLogs(number)')])
    }
  })

  it('a block delivered late (the consumer slow on the block before): the next round’s first head read goes at once, not an interval later', async () => {
    // An interval the test outwaits: the round read ahead after a block waits it before its first head read, unless the
    // head read that found the block answered that long ago already.
    const intervalMs = 1_000
    const s = await started({ pollingIntervalMs: intervalMs })
    const mined = await mineWithLog()
    // While the consumer still holds the first block, the round read ahead finds the new one (its poll an interval on).
    const deadline = Date.now() + 15_000
    while (s.heldHeads() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
    await s.releaseHeld()
    // The consumer is slow: it asks for the new block more than an interval after that head read answered.
    await new Promise((resolve) => setTimeout(resolve, intervalMs + 100))
    expect(s.heldHeads()).toBe(0)
    const { event, rounds } = await s.pullBlock()
    expect(event.block.hash).toBe(mined.hash)
    expect(rounds).toEqual([])
    // Delivered from the round read ahead; the next round's first head read is asked within the same turns, not after
    // another interval (no timer can have fired: only setImmediate turns passed since).
    await s.flush()
    expect(s.heldHeads()).toBe(1)
  })

  it('overlapped polls: while the node has not answered, a head read starts every interval, at most MAX_POLLS_IN_FLIGHT; without overlapPolls one', async () => {
    for (const overlapPolls of [true, false]) {
      const s = await started({ overlapPolls })
      // No answer released: the node is slow. The polls asked meanwhile, with a deadline (the timer of 10 ms on a busy machine).
      const deadline = Date.now() + 10_000
      const expected = overlapPolls ? MAX_POLLS_IN_FLIGHT : 1
      while (s.heldHeads() < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
      // Ten intervals more: no read above the cap.
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(s.heldHeads()).toBe(expected)
      const mined = await mineWithLog()
      const { event } = await s.pullBlock()
      expect(event.block.hash).toBe(mined.hash)
    }
  })

  it('a log answer for the next number that belongs to another block than the header is not delivered as its logs', async () => {
    let forged: unknown[] | undefined
    let at: bigint | undefined
    const rewrite: Rewrite = (method, params) => {
      const filter = Array.isArray(params) ? (params[0] as { fromBlock?: Hex; toBlock?: Hex }) : undefined
      if (method !== 'eth_getLogs' || forged === undefined || at === undefined || filter?.fromBlock === undefined) return undefined
      return BigInt(filter.fromBlock) === at ? Promise.resolve(forged) : undefined
    }
    const s = await started({ readAhead: false, rewrite })
    // Block A at the next number, with a log; then a reorg puts block B (no transaction, no log) in its place. The node
    // answers the next number's logs with A's (a provider behind a load balancer still on A's fork).
    const a = await mineWithLog()
    forged = (await s.inner.request({ method: 'eth_getLogs', params: [{ blockHash: a.hash }] } as never)) as unknown[]
    expect(forged).toHaveLength(1)
    await testClient.request({ method: 'anvil_reorg' as never, params: [1, []] as never })
    const b = await client.getBlock({ blockNumber: a.number })
    expect(b.hash).not.toBe(a.hash)
    at = a.number

    const { event, rounds } = await s.pullBlock()
    expect(event.block.hash).toBe(b.hash)
    expect(event.logs).toEqual([])
    // The forged answer came with the head (round 1) and was refused: B's logs were read by its hash.
    expect(kinds(rounds)).toEqual([['eth_getBlockByNumber', 'eth_getLogs(number)'], ['eth_getLogs(hash)']])
    expect((rounds[0]!.find((r) => r.kind === 'eth_getLogs(number)')!.result as unknown[]).length).toBe(1)
  })

  it('an empty answer for the next number whose header’s bloom admits a watched log is read again by hash (a log index behind)', async () => {
    let at: bigint | undefined
    const rewrite: Rewrite = (method, params) => {
      const filter = Array.isArray(params) ? (params[0] as { fromBlock?: Hex }) : undefined
      if (method !== 'eth_getLogs' || at === undefined || filter?.fromBlock === undefined) return undefined
      return BigInt(filter.fromBlock) === at ? Promise.resolve([]) : undefined
    }
    const s = await started({ readAhead: false, rewrite })
    at = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const mined = await mineWithLog()
    expect(mined.number).toBe(at)
    const { event, rounds } = await s.pullBlock()
    expect(event.block.hash).toBe(mined.hash)
    expect(event.logs).toHaveLength(1)
    expect(kinds(rounds)).toEqual([['eth_getBlockByNumber', 'eth_getLogs(number)'], ['eth_getLogs(hash)']])
  })
})
