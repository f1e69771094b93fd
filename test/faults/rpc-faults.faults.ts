import { createPublicClient, http, parseAbiItem, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReadClient } from '../../src/chain/clients.ts'
import { type Buyer, startFlowHarness, type FlowHarness } from '../executor/flow-harness.ts'
import { recordFigures } from './report.ts'
import { startFaultProxy, type FaultProxy } from './rpc-fault-proxy.ts'

/**
 * A bad RPC provider in front of the chain for the indexer and for the wallet layer (bundler sends, receipts,
 * simulations): a fifth of the requests dropped, delayed, answered with an error or a 502, or with a stale head.
 * Launches come one after another while blocks are mined: every launch is seen, every order bought exactly once.
 */
const LAUNCHES = Number(process.env.FAULT_RPC_LAUNCHES ?? 5)
const BUYERS = Number(process.env.FAULT_RPC_BUYERS ?? 5)
const RATE = Number(process.env.FAULT_RPC_RATE ?? 0.2)
const PREBUY_BUY = parseAbiItem(
  'event PrebuyBuy(address indexed buyer, bytes32 indexed orderId, address indexed token, uint256 amountIn, uint256 tokensReceived, uint256 fee, address feeRecipient)',
)

let h: FlowHarness
let proxy: FaultProxy

beforeAll(async () => {
  proxy = await startFaultProxy({ rate: 0, seed: Number(process.env.FAULT_RPC_SEED ?? 7) })
  h = await startFlowHarness({
    walletClient: (rpcUrl) => {
      proxy.target = rpcUrl
      return createPublicClient({ transport: http(proxy.url, { retryCount: 2, batch: { batchSize: 1_000, wait: 0 } }), pollingInterval: 50 })
    },
  })
  await h.restartIndexer(createReadClient({ ...h.chain, rpcUrl: proxy.url }, { pollingInterval: 50 }))
})
afterAll(async () => {
  await h?.stopMining()
  await h?.stop()
  await proxy?.close()
})

describe('RPC faults (drops, delays, errors, 502s, stale heads) under the indexer and the wallet layer', () => {
  it(`${LAUNCHES} launches with ${BUYERS} buyers each: every launch seen, every order bought exactly once`, async () => {
    proxy.rate = RATE
    h.startMining(250)
    const results: Array<{ slug: string; fills: number; doubleBuys: number; ms: number }> = []
    for (let n = 0; n < LAUNCHES; n++) {
      const { slug, creator } = await h.newProject(`rpc-${n}`, 'doppler')
      const buyers: Buyer[] = []
      for (let i = 0; i < BUYERS; i++) buyers.push(await h.newBuyer(`rpc-${n}-${i}`, '20'))
      for (const buyer of buyers) await h.order(buyer, slug, '10', null)
      const started = Date.now()
      const launched = await h.launch(slug, 'doppler', creator)
      await h.waitFor(`${slug} filled`, async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'), 180_000)
      const logs = await h.client.getLogs({ event: PREBUY_BUY, args: { token: launched.token as Address }, fromBlock: 0n })
      const perOrder = new Map<string, number>()
      for (const log of logs) perOrder.set(log.args.orderId!, (perOrder.get(log.args.orderId!) ?? 0) + 1)
      results.push({ slug, fills: logs.length, doubleBuys: [...perOrder.values()].filter((c) => c > 1).length, ms: Date.now() - started })
    }
    proxy.rate = 0
    recordFigures('rpc', { rate: RATE, faults: proxy.counts(), launches: results })
    for (const result of results) expect(result).toMatchObject({ fills: BUYERS, doubleBuys: 0 })
  }, 1_800_000)
})
