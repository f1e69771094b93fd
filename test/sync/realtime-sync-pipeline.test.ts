import { createPublicClient, createTestClient, custom, http, type PublicClient, type TestClient } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/common/logger.ts'
import { createRealtimeSync, type RealtimeSync } from '../../src/sync/realtime-sync.ts'
import type { BlockEvent, SyncEvent } from '../../src/sync/sync-types.ts'
import { type AnvilProcess, startAnvil } from './anvil-process.ts'

/**
 * The sync pipelined (issue 23 item 3): while the consumer processes the last block delivered, the next round (the
 * head, the new block's logs) is read, so the consumer gets the next block without a round trip of its own. The
 * consumer here holds a block (does not pull) while the next one is mined: the read ahead is waited for as a condition
 * (its requests seen), never timed; reorg handling and order stay those of a round read when asked.
 */
let anvil: AnvilProcess
let client: PublicClient
let testClient: TestClient
const syncs: RealtimeSync[] = []
const requests: Array<{ method: string; params: unknown; result?: unknown }> = []
let pending = 0

beforeAll(async () => {
  anvil = await startAnvil(['--no-mining'])
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) }) as PublicClient
  testClient = createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) })
})
afterAll(async () => {
  for (const sync of syncs) await sync.stop()
  await anvil?.stop()
})

function start(startBlock: bigint) {
  const inner = http(anvil.rpcUrl)({ retryCount: 0 })
  const sync = createRealtimeSync({
    client: createPublicClient({
      transport: custom({
        async request({ method, params }) {
          const entry: { method: string; params: unknown; result?: unknown } = { method, params }
          requests.push(entry)
          pending++
          try {
            entry.result = await inner.request({ method, params } as never)
            return entry.result
          } finally {
            pending--
          }
        },
      }),
    }) as PublicClient,
    confirmations: 8,
    pollingIntervalMs: 20,
    startBlock,
    logger: silentLogger,
  })
  syncs.push(sync)
  return { sync, iterator: sync.events() }
}

async function until(what: string, probe: () => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function pullBlock(iterator: AsyncGenerator<SyncEvent>): Promise<BlockEvent> {
  for (;;) {
    const next = await iterator.next()
    if (next.done) throw new Error('stream ended')
    if (next.value.type === 'block') return next.value
  }
}

/**
 * The round read ahead of block `block` is complete: its head was read and its logs answered (by hash, or by number
 * with the head: an answer for a number is only given once that block exists), and nothing is in flight.
 */
const readAheadOf = (block: { hash: string; number: bigint }) => () => {
  const hash = block.hash.toLowerCase()
  const head = requests.some((r) => r.method === 'eth_getBlockByNumber' && (r.result as { hash?: string } | undefined)?.hash?.toLowerCase() === hash)
  const logs = requests.some((r) => r.result !== undefined && asksLogsOf(block)(r))
  return head && logs && pending === 0
}

/** An eth_getLogs for `block`: by its hash, or by a range from its number. */
const asksLogsOf =
  (block: { hash: string; number: bigint }) =>
  (r: { method: string; params: unknown }): boolean => {
    if (r.method !== 'eth_getLogs') return false
    const filter = (r.params as Array<{ blockHash?: string; fromBlock?: string }>)[0]
    return filter?.blockHash?.toLowerCase() === block.hash.toLowerCase() || (filter?.fromBlock !== undefined && BigInt(filter.fromBlock) === block.number)
  }

describe('realtime sync, read ahead while the consumer processes', () => {
  it('reads the next head and its logs while the consumer holds the last block; delivers it with no request of its own', async () => {
    const first = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const { iterator } = start(first)
    // A block with a log (a creation whose init code is LOG0(0, 0)) then one without.
    await testClient.mine({ blocks: 1 })
    const held = await pullBlock(iterator)
    expect(held.block.number).toBe(first)
    // The consumer holds block `first` (does not pull) while the next block is mined: its logs are read meanwhile.
    await testClient.sendUnsignedTransaction({ from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', data: '0x60006000a000' })
    await testClient.mine({ blocks: 1 })
    const next = await client.getBlock({ blockNumber: first + 1n })
    await until('the next block’s logs read ahead', readAheadOf(next))
    const before = requests.length
    const event = await pullBlock(iterator)
    // Delivered from the read ahead: no eth_getLogs for it after the consumer asked. (The next round may start in the
    // same turn, with the next number's logs asked beside its head read: realtime-sync.ts `pollNow`, when the pull came
    // an interval or more after the last head answered, as on a loaded machine. Those are for `next + 1`, not counted.)
    expect(requests.slice(before).filter(asksLogsOf(next))).toEqual([])
    expect(requests.slice(before).filter((r) => r.method === 'eth_getLogs' && !asksLogsOf({ hash: '0x', number: next.number + 1n })(r))).toEqual([])
    expect(event.block.hash).toBe(next.hash)
    expect(event.block.parentHash).toBe(held.block.hash)
    expect(event.head).toBe(first + 1n)
    expect(event.logs).toHaveLength(1)
    expect(event.checkpoint.unfinalized.map((b) => b.number)).toEqual([first, first + 1n])
  })

  it('a block read ahead that a reorg then replaces is delivered, then reverted, and the new blocks follow in order', async () => {
    const first = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const { iterator } = start(first)
    await testClient.mine({ blocks: 1 })
    const held = await pullBlock(iterator)
    await testClient.mine({ blocks: 1 })
    const readAhead = await client.getBlock({ blockNumber: first + 1n })
    await until('the next block read ahead', readAheadOf(readAhead))
    // The block read ahead leaves the chain before the consumer asks for it; two others take its place and follow.
    await testClient.request({ method: 'anvil_reorg' as never, params: [1, []] as never })
    await testClient.mine({ blocks: 1 })
    const replaced = await client.getBlock({ blockNumber: first + 1n })
    const top = await client.getBlock({ blockNumber: first + 2n })
    expect(replaced.hash).not.toBe(readAhead.hash)

    const events: SyncEvent[] = []
    while (!events.some((e) => e.type === 'block' && e.block.hash === top.hash)) {
      const next = await iterator.next()
      if (next.done) throw new Error('stream ended')
      events.push(next.value)
    }
    const shape = events.map((e) =>
      e.type === 'reorg' ? ['reorg', e.ancestor.hash, e.reverted.map((b) => b.hash)] : [e.type, e.type === 'block' ? e.block.hash : ''],
    )
    expect(shape.filter((s) => s[0] !== 'finalize')).toEqual([
      ['block', readAhead.hash],
      ['reorg', held.block.hash, [readAhead.hash]],
      ['block', replaced.hash],
      ['block', top.hash],
    ])
  })
})
