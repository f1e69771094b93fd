import { type Address, createPublicClient, createTestClient, getContractAddress, type Hex, http, type PublicClient, type TestClient } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/common/logger.ts'
import { bloomMayHoldLogsOf } from '../../src/sync/logs-bloom.ts'
import { createRealtimeSync, type RealtimeSync } from '../../src/sync/realtime-sync.ts'
import type { BlockEvent, SyncEvent } from '../../src/sync/sync-types.ts'
import { startFaultProxy, type FaultProxy } from '../faults/rpc-fault-proxy.ts'
import { type AnvilProcess, startAnvil } from './anvil-process.ts'

/**
 * Catching up in ranges (issue 23 item 3: detection keeps up with 200 ms blocks at 50 ms per request): a sync that
 * fell N blocks behind reads their headers at once and their logs in one eth_getLogs, and misses no log of the range.
 * The reads are counted by method through the fault proxy (no timing): the consumer stops pulling while the blocks are
 * mined, so the next round sees all of them at once.
 */
const SENDER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
// A contract creation whose init code is LOG0(0, 0): one log emitted by the new contract's address.
const EMIT_LOG: Hex = '0x60006000a000'

let anvil: AnvilProcess
let proxy: FaultProxy
let client: PublicClient
let testClient: TestClient
const syncs: RealtimeSync[] = []

beforeAll(async () => {
  anvil = await startAnvil(['--no-mining'])
  proxy = await startFaultProxy({ rate: 0, target: anvil.rpcUrl })
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) }) as PublicClient
  testClient = createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) })
})
afterAll(async () => {
  for (const sync of syncs) await sync.stop()
  await proxy?.close()
  await anvil?.stop()
})

async function pullUntil(iterator: AsyncGenerator<SyncEvent>, last: bigint, timeoutMs = 20_000): Promise<SyncEvent[]> {
  const events: SyncEvent[] = []
  const deadline = Date.now() + timeoutMs
  while (!events.some((e) => e.type === 'block' && e.block.number === last)) {
    const next = await Promise.race([iterator.next(), new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), Math.max(1, deadline - Date.now())))])
    if (next === 'timeout') throw new Error(`timed out waiting for block ${last}`)
    if (next.done) break
    events.push(next.value)
  }
  return events
}

const delta = (before: Record<string, number>, after: Record<string, number>, method: string) => (after[method] ?? 0) - (before[method] ?? 0)

/**
 * Mines `count` blocks; in the blocks at `withLog` (offsets) one creation emits a log. Returns the emitting addresses by
 * block offset, in creation order (the first ones are watched, the rest are logs of other contracts).
 */
async function mineWithLogs(count: number, withLog: readonly number[]): Promise<Map<number, Address>> {
  const emitters = new Map<number, Address>()
  for (let i = 0; i < count; i++) {
    if (withLog.includes(i)) {
      const nonce = await client.getTransactionCount({ address: SENDER, blockTag: 'pending' })
      await testClient.sendUnsignedTransaction({ from: SENDER, data: EMIT_LOG })
      emitters.set(i, getContractAddress({ from: SENDER, nonce: BigInt(nonce) }))
    }
    await testClient.mine({ blocks: 1 })
  }
  return emitters
}

function start(options: { startBlock: bigint; addresses?: Address[]; maxRangeBlocks?: number; readAhead?: boolean; logsWithHead?: boolean }) {
  const sync = createRealtimeSync({
    readAhead: options.readAhead,
    logsWithHead: options.logsWithHead,
    client: createPublicClient({ chain: foundry, transport: http(proxy.url) }) as PublicClient,
    confirmations: 8,
    pollingIntervalMs: 30,
    startBlock: options.startBlock,
    addresses: options.addresses,
    maxRangeBlocks: options.maxRangeBlocks,
    logger: silentLogger,
  })
  syncs.push(sync)
  return sync.events()
}

describe('realtime sync catching up in ranges', () => {
  it('reads N blocks behind with one eth_getLogs and their headers, each block once, and delivers every log of the range', async () => {
    const first = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    // The watched contracts are those created in the catch-up range below (their addresses follow from the nonce).
    const nonce = await client.getTransactionCount({ address: SENDER, blockTag: 'pending' })
    const watched = [0, 1, 2].map((i) => getContractAddress({ from: SENDER, nonce: BigInt(nonce + i) }))
    // No read ahead: the next round is read only when the consumer pulls, so it sees the whole range at once.
    const iterator = start({ startBlock: first, addresses: watched, readAhead: false })
    await testClient.mine({ blocks: 1 })
    await pullUntil(iterator, first)

    // The consumer does not pull while 30 blocks are mined: the sync is parked at its last delivery.
    const before = proxy.methods()
    const N = 30
    const launches = [3, 17, 29] // the "launch" logs in the skipped range, one the head's
    const emitters = await mineWithLogs(N, launches)
    expect([...emitters.values()]).toEqual(watched)

    const events = await pullUntil(iterator, first + BigInt(N))
    const after = proxy.methods()
    const blocks = events.filter((e): e is BlockEvent => e.type === 'block')
    expect(blocks.map((b) => b.block.number)).toEqual(Array.from({ length: N }, (_, i) => first + 1n + BigInt(i)))
    // Every block knows it was read N - i blocks behind the head: the consumer may coalesce its ticks.
    for (const b of blocks) expect(b.head).toBe(first + BigInt(N))
    for (let i = 1; i < blocks.length; i++) expect(blocks[i]!.block.parentHash).toBe(blocks[i - 1]!.block.hash)
    // No launch of the skipped range is missed: each watched log in its own block, nothing else.
    for (const [offset, emitter] of emitters) {
      const block = blocks[offset]!
      expect(block.logs.map((l) => l.address.toLowerCase())).toEqual([emitter.toLowerCase()])
      expect(block.logs[0]!.blockHash).toBe(block.block.hash)
    }
    expect(blocks.filter((b) => b.logs.length > 0)).toHaveLength(launches.length)

    // The reads: the head once (by tag), the other N - 1 headers by number once each, one eth_getLogs for all N, and
    // the eth_getLogs of the number after our tip asked with the head (logsWithHead; unused: the head is N above).
    expect(delta(before, after, 'eth_getLogs')).toBe(2)
    expect(delta(before, after, 'eth_getBlockByNumber')).toBe(N)
  })

  it('caps a catch-up at maxRangeBlocks per eth_getLogs; a block whose logs bloom admits none of ours costs no read by hash', async () => {
    const first = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const nonce = await client.getTransactionCount({ address: SENDER, blockTag: 'pending' })
    // One watched emitter (block 5) and two logs of contracts we do not watch (blocks 2 and 12).
    const watched = getContractAddress({ from: SENDER, nonce: BigInt(nonce + 1) })
    const iterator = start({ startBlock: first, addresses: [watched], maxRangeBlocks: 10, readAhead: false })
    await testClient.mine({ blocks: 1 })
    await pullUntil(iterator, first)

    const before = proxy.methods()
    const N = 25
    const emitters = await mineWithLogs(N, [2, 5, 12])
    expect(emitters.get(5)).toBe(watched)
    const events = await pullUntil(iterator, first + BigInt(N))
    const after = proxy.methods()
    const blocks = events.filter((e): e is BlockEvent => e.type === 'block')
    expect(blocks).toHaveLength(N)
    expect(blocks.flatMap((b) => b.logs.map((l) => [b.block.number, l.address.toLowerCase()]))).toEqual([[first + 6n, watched.toLowerCase()]])
    // 25 blocks in ranges of 10: three eth_getLogs (and the one asked with the head, unused); the blocks with another
    // contract's log are not read again by hash (their bloom, checked below, excludes the watched address).
    expect(delta(before, after, 'eth_getLogs')).toBe(4)
    const other = await client.getBlock({ blockNumber: first + 3n })
    expect(bloomMayHoldLogsOf(other.logsBloom, [emitters.get(2)!])).toBe(true)
    expect(bloomMayHoldLogsOf(other.logsBloom, [watched])).toBe(false)
  })

  it('delivers the steady state with two reads per block without logsWithHead: the head, then its logs by hash', async () => {
    // (with logsWithHead, the default, both in one round: test/sync/realtime-sync-one-round.test.ts)
    const first = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const iterator = start({ startBlock: first, logsWithHead: false })
    await testClient.mine({ blocks: 1 })
    await pullUntil(iterator, first)
    for (let i = 1; i <= 3; i++) {
      const before = proxy.methods()
      await testClient.mine({ blocks: 1 })
      const [event] = await pullUntil(iterator, first + BigInt(i))
      const after = proxy.methods()
      expect(event?.type === 'block' && event.head).toBe(first + BigInt(i))
      // The round that finds the new head: one head read and the logs by hash (earlier idle rounds read only the head).
      expect(delta(before, after, 'eth_getLogs')).toBe(1)
      expect(delta(before, after, 'eth_getBlockByNumber')).toBeGreaterThanOrEqual(1)
    }
  })
})
