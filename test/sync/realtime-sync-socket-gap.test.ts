import pino from 'pino'
import { createPublicClient, createTestClient, type Hash, http, type PublicClient, type TestClient } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRealtimeSync, type RealtimeSync, type SocketState } from '../../src/sync/realtime-sync.ts'
import type { SyncEvent } from '../../src/sync/sync-types.ts'
import { type AnvilProcess, startAnvil } from './anvil-process.ts'
import { until } from './until.ts'

/**
 * A socket that stops telling heads while the chain moves (a lagging provider, a socket that died quietly): with
 * `socketGapMs` the sync reads the head itself after the gap, so the blocks keep coming while the socket still counts
 * as up; before, every block waited for the silence bound (30 s by default: 150 Base blocks). The socket is a stand-in
 * whose heads the test hands over; the chain is a real anvil mined by the test. Conditions with deadlines, no timing.
 */
let anvil: AnvilProcess
let testClient: TestClient
const syncs: RealtimeSync[] = []

beforeAll(async () => {
  anvil = await startAnvil(['--no-mining'])
  testClient = createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) })
})
afterAll(async () => {
  for (const sync of syncs) await sync.stop()
  await anvil?.stop()
})

/** A websocket client whose newHeads subscription delivers only the heads the test tells. */
function standInSocket() {
  let deliver: ((data: { result?: { hash?: Hash } }) => void) | undefined
  const wsClient = {
    transport: {
      async subscribe(args: { onData: (data: { result?: { hash?: Hash } }) => void }) {
        deliver = args.onData
        return { unsubscribe: async () => undefined }
      },
    },
  } as unknown as PublicClient
  return { wsClient, tell: (hash: Hash) => deliver?.({ result: { hash } }), subscribed: () => deliver !== undefined }
}

describe('a socket that goes quiet while the chain moves', () => {
  it('with socketGapMs, the sync reads the head itself after the gap; the socket still counts as up', async () => {
    const socket = standInSocket()
    const states: SocketState[] = []
    const sync = createRealtimeSync({
      client: createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) }) as PublicClient,
      wsClient: socket.wsClient,
      confirmations: 4,
      pollingIntervalMs: 50,
      // Ten minutes: the test cannot outwait it, so only the gap can bring the quiet block.
      socketSilenceMs: 600_000,
      socketGapMs: 200,
      onSocket: (state) => states.push(state),
      logger: pino({ level: 'silent' }),
    })
    syncs.push(sync)
    const events: SyncEvent[] = []
    void (async () => {
      for await (const event of sync.events()) events.push(event)
    })().catch(() => undefined)
    const delivered = () => events.flatMap((e) => (e.type === 'block' ? [e.block.number] : []))

    // The socket up: a block mined and told over it.
    await until('the subscription', socket.subscribed)
    await testClient.mine({ blocks: 1 })
    const told = await testClient.request({ method: 'eth_getBlockByNumber', params: ['latest', false] } as never)
    socket.tell((told as { hash: Hash }).hash)
    await until('the socket up', () => states.includes('up'))
    const head = BigInt((told as { number: string }).number)
    await until('the told block delivered', () => delivered().includes(head))

    // The chain moves on, the socket tells nothing: the next blocks still come, by the sync's own head reads.
    await testClient.mine({ blocks: 1 })
    await until('the untold block delivered', () => delivered().includes(head + 1n))
    await testClient.mine({ blocks: 1 })
    await until('the next untold block delivered', () => delivered().includes(head + 2n))
    expect(states).toEqual(['up'])
    await sync.stop()
  })
})
