import { createPublicClient, custom, type Hex, http, isAddressEqual, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { submitLaunch } from '../../devnet/launchpads/launch-token.ts'
import { createLaunchpadAdapters, devnetAdapterOptions } from '../../src/launchpads/create-adapters.ts'
import { type FaultProxy, startFaultProxy } from '../faults/rpc-fault-proxy.ts'
import { type FlowHarness, startFlowHarness } from '../executor/flow-harness.ts'

/** The sync's reads of a block: the head (and blocks by number) and logs. Held while the gate is closed. */
const SYNC_METHODS = new Set(['eth_getBlockByNumber', 'eth_getBlockByHash', 'eth_getLogs', 'eth_blockNumber'])

/**
 * The daemon's client (indexer and executor), over HTTP to the node, with a gate: while it is closed the sync's block
 * reads (SYNC_METHODS) are not even sent, each waiting for the gate to open, so the sync cannot learn of a new block
 * however long the test takes; every other request goes through. Counts the receipts asked, by transaction hash, and
 * tells when one is asked while the gate is closed. Nothing here depends on timing.
 */
function gatedDaemonClient(rpcUrl: string) {
  const inner = http(rpcUrl)({ retryCount: 0 })
  let closed = false
  const held: Array<() => void> = []
  const receipts = new Map<string, number>()
  const whileClosed = new Map<string, () => void>()
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }) {
        if (method === 'eth_getTransactionReceipt') {
          const hash = String((params as unknown[])[0]).toLowerCase()
          receipts.set(hash, (receipts.get(hash) ?? 0) + 1)
          if (closed) whileClosed.get(hash)?.()
        }
        if (closed && SYNC_METHODS.has(method)) await new Promise<void>((resolve) => held.push(resolve))
        return inner.request({ method, params } as never)
      },
    }),
  }) as PublicClient
  return {
    client,
    close() {
      closed = true
    },
    open() {
      closed = false
      for (const release of held.splice(0)) release()
    },
    /** Sync reads waiting at the gate. */
    waiting: () => held.length,
    receipts: (hash: Hex) => receipts.get(hash.toLowerCase()) ?? 0,
    /** Resolves when the receipt of `hash` is asked while the gate is closed. */
    receiptAskedWhileClosed: (hash: Hex) => new Promise<void>((resolve) => whileClosed.set(hash.toLowerCase(), resolve)),
  }
}

/**
 * The launch log pushed over the socket (a `logs` subscription) as a hint (docs/execution.md §5 "The launch log
 * pushed"): a real devnet, the indexer's socket through the fault proxy's WebSocket side (no latency: the gate holds what
 * matters), its HTTP reads through a gate that keeps the sync from reading any block while the test looks.
 */
describe('a pushed launch log starts its launch’s reads before its block is read (real devnet, real socket)', () => {
  let h: FlowHarness
  let proxy: FaultProxy
  let gate: ReturnType<typeof gatedDaemonClient>
  beforeAll(async () => {
    proxy = await startFaultProxy({ rate: 0 })
    h = await startFlowHarness({
      daemonClient: (rpcUrl) => {
        gate = gatedDaemonClient(rpcUrl)
        return gate.client
      },
      daemonWsUrl: (wsUrl) => {
        proxy.target = wsUrl.replace(/^ws/, 'http')
        return proxy.wsUrl
      },
      // Longer than the tests: a sync that waits on a broken socket (instead of polling) never sees the next launch.
      socketSilenceMs: 600_000,
    })
    // The socket's subscriptions are up (newHeads, and the two logs filters with the hints) once the node answered each.
    const asked = () => proxy.ws.methods().filter((m) => m === 'eth_subscribe').length
    await h.waitFor('subscriptions', async () => asked() > 0 && proxy.ws.subscriptions().length === asked())
  }, 60_000)
  afterAll(async () => {
    await h?.stop()
    await proxy?.close()
  })

  const launchpad = 'clanker' as const
  const launch = (slug: string, creator: Hex) =>
    submitLaunch({ chain: h.chain, addresses: h.launchpads, launchpad, creator, name: `${slug} token`, symbol: slug.slice(0, 5).toUpperCase() })
  const launched = (slug: string) => h.waitFor(`${slug} launched`, async () => (await h.store.sub.projects.get(slug))?.launch ?? undefined, 60_000)
  const head = async () => (await h.client.getBlockNumber({ cacheTime: 0 })) as bigint
  /** A block mined and processed: the indexer is at the head. */
  const settled = async () => {
    await h.mine()
    await h.indexer.caughtUp('base', await head())
  }

  it('asks the receipt while the sync has read nothing of the block, and the block’s intake reads it no second time', async () => {
    const { creator } = await h.newProject('hinta', launchpad)
    await settled()
    gate.close()
    const hash = await launch('hinta', creator)
    const asked = gate.receiptAskedWhileClosed(hash)
    await h.mine()
    // The block is mined; the sync cannot read it (its reads wait at the gate); the pushed launch log asks the receipt.
    await asked
    expect(gate.receipts(hash)).toBe(1)
    expect(await h.store.sub.projects.get('hinta')).toMatchObject({ launch: null })
    gate.open()
    const mark = await launched('hinta')
    expect(mark.txHash?.toLowerCase()).toBe(hash.toLowerCase())
    // The block's own intake (its logs read by the sync and checked) decoded the launch on the receipt the hint asked:
    // one request for both (the memo of the block's hash).
    expect(gate.receipts(hash)).toBe(1)
  }, 60_000)

  it('writes nothing for a hint whose block never comes (reorged out before the sync read it)', async () => {
    const { creator } = await h.newProject('hintb', launchpad)
    await settled()
    const snapshot = await jsonRpc(h.chain.rpcUrl, 'evm_snapshot')
    gate.close()
    const hash = await launch('hintb', creator)
    const asked = gate.receiptAskedWhileClosed(hash)
    await h.mine()
    await asked
    // The launch block leaves the chain before the sync read it; two empty blocks take its place.
    await jsonRpc(h.chain.rpcUrl, 'evm_revert', [snapshot])
    await jsonRpc(h.chain.rpcUrl, 'anvil_dropAllTransactions')
    await h.mine(2)
    gate.open()
    await h.indexer.caughtUp('base', await head())
    expect(await h.store.sub.projects.get('hintb')).toMatchObject({ launch: null })
    const candidates = await h.journal.candidates('base')
    expect(candidates.filter((c) => c.slug === 'hintb')).toEqual([])
    const launches = await h.journal.launchesAbove('base', 0n)
    expect(launches.filter((l) => l.slug === 'hintb')).toEqual([])
  }, 60_000)

  it('drops forged and malformed pushes: nothing written for them, and the next launch is recorded as before', async () => {
    const { creator } = await h.newProject('hintc', launchpad)
    await settled()
    // The first test's launch log, pushed again as if from another block (forged block hash, and a forged transaction).
    const adapters = createLaunchpadAdapters(devnetAdapterOptions(h.chain.addresses, h.launchpads))
    const mark = (await h.store.sub.projects.get('hinta'))!.launch!
    const receipt = await h.client.getTransactionReceipt({ hash: mark.txHash as Hex })
    const real = receipt.logs.find((l) => isAddressEqual(l.address, adapters[launchpad].launchEvent.address))!
    const next = `0x${((await head()) + 1n).toString(16)}`
    const forgedBlock = `0x${'ab'.repeat(32)}`
    const forgedTx = `0x${'cd'.repeat(32)}` as Hex
    const rawLog = {
      address: real.address,
      topics: real.topics,
      data: real.data,
      blockHash: forgedBlock,
      blockNumber: next,
      transactionHash: forgedTx,
      transactionIndex: '0x0',
      logIndex: '0x0',
      removed: false,
    }
    const pushes = [
      { ...rawLog },
      { ...rawLog, transactionHash: mark.txHash },
      { ...rawLog, topics: 'not topics' },
      { ...rawLog, blockNumber: 'next' },
      { ...rawLog, address: '0x12' },
      { ...rawLog, data: 7 },
      null,
      'a string',
      { ...rawLog, removed: true, transactionHash: `0x${'ef'.repeat(32)}` },
    ]
    for (const subscription of proxy.ws.subscriptions()) {
      for (const result of pushes) proxy.ws.inject(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result } }))
      proxy.ws.inject('not json at all')
      proxy.ws.inject(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription } }))
    }
    // The well-formed forged log was taken as a hint (its receipt asked: the node has none), the removed one was not.
    await h.waitFor('the forged hint’s receipt asked', async () => gate.receipts(forgedTx) > 0)
    expect(gate.receipts(`0x${'ef'.repeat(32)}`)).toBe(0)
    // The next real launch is recorded as before (the malformed messages broke the socket: the sync polls meanwhile),
    // and nothing else was.
    const hash = await launch('hintc', creator)
    await h.mine()
    const recorded = await launched('hintc')
    expect(recorded.txHash?.toLowerCase()).toBe(hash.toLowerCase())
    const launches = await h.journal.launchesAbove('base', 0n)
    expect(launches.filter((l) => l.txHash.toLowerCase() === forgedTx.toLowerCase())).toEqual([])
    expect((await h.journal.candidates('base')).filter((c) => c.slug === 'hintc')).toEqual([])
  }, 60_000)
})
