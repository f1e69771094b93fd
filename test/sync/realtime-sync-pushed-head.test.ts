import pino from 'pino'
import { createPublicClient, createTestClient, type Hash, http, type PublicClient, type TestClient } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRealtimeSync, type RealtimeSync } from '../../src/sync/realtime-sync.ts'
import type { SyncEvent } from '../../src/sync/sync-types.ts'
import { type FaultProxy, startFaultProxy } from '../faults/rpc-fault-proxy.ts'
import { type AnvilProcess, startAnvil } from './anvil-process.ts'

/**
 * The head pushed over the socket is the round's head (issue 23 item 3): `newHeads` carries the whole header, so a
 * round woken by the socket asks the node only for the head's logs, not for the head again (one round trip, not two).
 * Counted through a proxy in front of the node's HTTP endpoint; the socket is a stand-in that pushes the real headers
 * of a real anvil, raw as a node pushes them. Conditions with deadlines, no timing.
 */
let anvil: AnvilProcess
let proxy: FaultProxy
let testClient: TestClient
const syncs: RealtimeSync[] = []

beforeAll(async () => {
  anvil = await startAnvil(['--no-mining'])
  proxy = await startFaultProxy({ rate: 0, target: anvil.rpcUrl })
  testClient = createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) })
})
afterAll(async () => {
  for (const sync of syncs) await sync.stop()
  await proxy?.close()
  await anvil?.stop()
})

const until = async (what: string, probe: () => boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** The latest header as the node's JSON-RPC gives it (hex quantities), which is what a `newHeads` push carries. */
const rawLatest = async () => (await testClient.request({ method: 'eth_getBlockByNumber', params: ['latest', false] } as never)) as Record<string, unknown>

describe('the head pushed over the socket', () => {
  it('is the round’s head: the block is delivered with no head read over HTTP; a malformed push only wakes the sync', async () => {
    let push: ((data: { result?: unknown }) => void) | undefined
    const wsClient = {
      transport: {
        async subscribe(args: { params: unknown[]; onData: (data: { result?: unknown }) => void }) {
          if (args.params[0] === 'newHeads') push = args.onData
          return { unsubscribe: async () => undefined }
        },
      },
    } as unknown as PublicClient
    const sync = createRealtimeSync({
      client: createPublicClient({ chain: foundry, transport: http(proxy.url) }) as PublicClient,
      wsClient,
      confirmations: 4,
      // A minute: no timer poll within the test, so every head read counted below is the round's own.
      pollingIntervalMs: 60_000,
      socketSilenceMs: 600_000,
      logger: pino({ level: 'silent' }),
    })
    syncs.push(sync)
    const events: SyncEvent[] = []
    void (async () => {
      for await (const event of sync.events()) events.push(event)
    })().catch(() => undefined)
    const delivered = () => events.flatMap((e) => (e.type === 'block' ? [e.block.number] : []))
    const headReads = () => proxy.methods().eth_getBlockByNumber ?? 0
    await until('the subscription', () => push !== undefined)

    for (let i = 0; i < 3; i++) {
      await testClient.mine({ blocks: 1 })
      const header = await rawLatest()
      const before = headReads()
      push!({ result: header })
      await until(`block ${header.number} delivered`, () => delivered().includes(BigInt(header.number as string)))
      // Before: each woken round read the head over HTTP first (one eth_getBlockByNumber per block).
      expect(headReads() - before).toBe(0)
    }

    // A push without a usable header (here no parent hash) still wakes the sync, which then reads the head itself.
    await testClient.mine({ blocks: 1 })
    const header = await rawLatest()
    const before = headReads()
    push!({ result: { hash: header.hash as Hash, number: header.number } })
    await until(`block ${header.number} delivered`, () => delivered().includes(BigInt(header.number as string)))
    expect(headReads() - before).toBeGreaterThanOrEqual(1)
    await sync.stop()
  })
})
