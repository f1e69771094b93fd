import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, erc20Abi, http, parseAbiItem, type Address, type Hex } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { batchBuyerAddress, serviceBatchBuyerArgs } from '../../daemon/executor/batch-buyer-address.ts'
import { buyRouterAddress } from '../../daemon/executor/ensure-buy-router.ts'
import { createAdminClient } from '../../src/admin-client/admin-client.ts'
import { locateDaemon } from '../../src/admin-client/locate-daemon.ts'
import { api, freePortPair, startDaemonProcess, type SpawnedDaemon } from '../daemon/helpers.ts'
import { chainBatches } from './chain-batches.ts'
import { recordFigures } from './report.ts'

/**
 * Reorgs of depth 1 to 5 right after a launch's buys, on a real daemon process (interval-mined devnet): the blocks
 * holding the buys are replaced by empty ones. The daemon, without a restart, must notice, return the orders to
 * active and buy each once on the new chain, its records pointing at the canonical transactions. A buy is either a
 * PrebuyBuy of the order (the single-buy path) or a paid entry of an executeBatch (BatchExecuted, its calldata less its
 * BuyerSkipped; the entry's order from the journaled batch): a batch undone by the reorg holds its orders `executing`
 * until its fate is known (docs/execution.md §8 "A reorg that undoes a batch"), and is never counted as a buy.
 */
const BUYERS = Number(process.env.FAULT_REORG_BUYERS ?? 20)
const DEPTHS = [1, 2, 3, 4, 5]
const PUBLIC = '/api/public/v1'
const PREBUY_BUY = parseAbiItem(
  'event PrebuyBuy(address indexed buyer, bytes32 indexed orderId, address indexed token, uint256 amountIn, uint256 tokensReceived, uint256 fee, address feeRecipient)',
)

let dataDir: string
let daemon: SpawnedDaemon | undefined

afterAll(async () => {
  daemon?.process.kill('SIGTERM')
  await daemon?.exited
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

interface OrderView {
  slug: string
  status: string
  execution?: { txHash: string } | null
}

describe('reorgs of depth 1 to 5 during launches (a real daemon, no restart)', () => {
  it('records follow the canonical chain: every order bought exactly once there, its record on the canonical transaction', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'prebuy-reorg-'))
    const port = await freePortPair()
    await writeFile(
      join(dataDir, 'config.json'),
      JSON.stringify({
        chains: { mode: 'devnet', blockTime: 1 },
        rateLimits: { perKeyPerMinute: 100_000, apiKeyCreationPerIpPerHour: 100_000, submissionsPerIpPerHour: 100_000 },
      }),
    )
    daemon = await startDaemonProcess(dataDir, port)
    const located = await locateDaemon(dataDir)
    const admin = createAdminClient({ adminUrl: located.adminUrl, operatorToken: located.operatorToken })
    const url = `http://127.0.0.1:${port}`
    const base = (
      (await admin.devnetDeployments()) as { chains: { base: { rpcUrl: string; bundler: Address; addresses: { poolManager: Address; stablecoin: Address } } } }
    ).chains.base
    const stablecoin = base.addresses.stablecoin
    const rpcUrl = base.rpcUrl
    // The service's batch buyer (batch-buyer-address.ts): its own swap is a PrebuyBuy too (its batch id as order id).
    const batchBuyer = batchBuyerAddress(serviceBatchBuyerArgs(buyRouterAddress(base.addresses.poolManager), base.bundler))
    const client = createPublicClient({ transport: http(rpcUrl) })

    const keys: { apiKey: string; wallet: Address }[] = []
    for (let i = 0; i < BUYERS; i++) {
      const created = await api(url, 'POST', `${PUBLIC}/api-keys`, { body: { label: `reorg-buyer-${i}` } })
      keys.push({ apiKey: created.body.apiKey as string, wallet: created.body.serviceWalletAddress as Address })
    }
    for (const key of keys) await admin.devnetFund({ address: key.wallet, usdc: '100', chain: 'base' })
    const ordersOf = async (slug: string) =>
      Promise.all(
        keys.map(async (key) => ((await api(url, 'GET', `${PUBLIC}/orders`, { key: key.apiKey })).body.data as OrderView[]).find((o) => o.slug === slug)),
      )
    const allFilled = (slug: string) => async () => {
      const orders = await ordersOf(slug)
      return orders.every((o) => o?.status === 'filled') ? orders : undefined
    }

    const rounds: Array<{
      throughBatch: boolean
      depth: number
      fillBlocks: number
      rebought: number
      batchBuys: number
      doubleBuys: number
      recordsOffCanonical: number
      recoverMs: number
    }> = []
    for (const depth of DEPTHS) {
      const slug = `reorg-${depth}`
      const creator = `0x${(0x2000 + depth).toString(16).padStart(40, '0')}` as Address
      await api(url, 'POST', `${PUBLIC}/projects`, {
        body: { projectName: slug, projectUrls: [`https://${slug}.example`], projectInfo: 'reorg round', contact: `@${slug}`, email: `${slug}@example.com` },
      })
      const pending = (await admin.listReviews('registration', 'pending')).find((r) => (r.submission as { projectName?: string }).projectName === slug)!
      await admin.approveRegistration(pending.id, { slug, creator, symbol: `R${depth}`, launchpad: 'doppler', chain: 'base' })
      for (const key of keys) {
        await api(url, 'POST', `${PUBLIC}/orders`, {
          key: key.apiKey,
          body: { items: [{ slug, maxSpendUsdc: '10', maxFdvUsdc: null, expiresInMs: 3_600_000 }] },
        })
      }
      // Odd depths go through the batch (every wallet approved the batch buyer ahead before the launch: approve-ahead);
      // even depths launch at once, so their buys take whichever path the approvals made ready by then.
      const throughBatch = depth % 2 === 1
      if (throughBatch)
        await waitFor('the wallets approved for the batch buyer ahead', async () => {
          const allowances = await Promise.all(
            keys.map((key) => client.readContract({ address: stablecoin, abi: erc20Abi, functionName: 'allowance', args: [key.wallet, batchBuyer] })),
          )
          return allowances.every((a) => a >= 10_000_000n)
        })
      const launched = await admin.devnetLaunch({ launchpad: 'doppler', creator, name: `${slug} token`, symbol: `R${depth}` })
      const first = await waitFor('first fills', allFilled(slug))
      // Stop the clock, make the buys exactly `depth` blocks deep (or deeper, if more were mined meanwhile), reorg.
      await jsonRpc(rpcUrl, 'evm_setIntervalMining', [0])
      const fillBlocks = await Promise.all(first.map(async (o) => (await client.getTransactionReceipt({ hash: o!.execution!.txHash as Hex })).blockNumber))
      const lowest = fillBlocks.reduce((a, b) => (a < b ? a : b))
      let head = await client.getBlockNumber({ cacheTime: 0 })
      while (head - lowest + 1n < BigInt(depth)) {
        await jsonRpc(rpcUrl, 'evm_mine')
        head = await client.getBlockNumber({ cacheTime: 0 })
      }
      const actualDepth = Number(head - lowest + 1n)
      expect(lowest).toBeGreaterThan(BigInt(launched.blockNumber))
      await jsonRpc(rpcUrl, 'anvil_reorg', [actualDepth, []])
      const reorgedAt = Date.now()
      await jsonRpc(rpcUrl, 'evm_setIntervalMining', [1])

      // The buys are gone from the chain; the daemon must buy every order again, once.
      // A batch undone by the reorg is held until its last block is final (§8 "A last block for every pull"): a longer wait.
      const again = await waitFor(
        'fills on the new chain',
        async () => {
          const orders = await allFilled(slug)()
          if (!orders) return undefined
          const canonical = await Promise.all(orders.map((o) => client.getTransactionReceipt({ hash: o!.execution!.txHash as Hex }).catch(() => undefined)))
          return canonical.every((r) => r?.status === 'success') ? orders : undefined
        },
        300_000,
      )
      const recoverMs = Date.now() - reorgedAt
      const token = (await admin.listProjects()).find((p) => p.slug === slug)!.launch!.tokenAddress as Address
      const single = (await client.getLogs({ event: PREBUY_BUY, args: { token }, fromBlock: 0n })).filter(
        (log) => log.args.buyer!.toLowerCase() !== batchBuyer.toLowerCase(),
      )
      const batches = await chainBatches(client, batchBuyer, token)
      const journaled = ((await admin.executionJournal(slug)).batches ?? []) as { batchId: string; included?: { orderId: string }[] }[]
      const journaledOrders = new Map(journaled.map((b) => [b.batchId.toLowerCase(), (b.included ?? []).map((e) => e.orderId.toLowerCase())]))
      // Every buy on the canonical chain by order id; a batch entry whose order the journal lacks counts by its wallet
      // (then a second buy of that wallet's order still shows as a double buy: one order per wallet per round).
      const buys: { key: string; txHash: string }[] = single.map((log) => ({ key: log.args.orderId!.toLowerCase(), txHash: log.transactionHash }))
      for (const batch of batches)
        for (const [i, entry] of batch.entries.entries())
          if (entry.amount > 0n) buys.push({ key: journaledOrders.get(batch.batchId.toLowerCase())?.[i] ?? entry.wallet.toLowerCase(), txHash: batch.txHash })
      const perOrder = new Map<string, number>()
      for (const buy of buys) perOrder.set(buy.key, (perOrder.get(buy.key) ?? 0) + 1)
      const recorded = new Set(again.map((o) => o!.execution!.txHash.toLowerCase()))
      const bought = new Set(buys.map((b) => b.txHash.toLowerCase()))
      rounds.push({
        throughBatch,
        depth: actualDepth,
        fillBlocks: new Set(fillBlocks).size,
        rebought: buys.length,
        batchBuys: buys.length - single.length,
        doubleBuys: [...perOrder.values()].filter((n) => n > 1).length,
        // A buy on chain no record names, or a record naming no buy on chain.
        recordsOffCanonical: buys.filter((b) => !recorded.has(b.txHash.toLowerCase())).length + [...recorded].filter((tx) => !bought.has(tx)).length,
        recoverMs,
      })
    }
    recordFigures('reorg', { buyers: BUYERS, rounds })
    for (const round of rounds) expect(round).toMatchObject({ rebought: BUYERS, doubleBuys: 0, recordsOffCanonical: 0 })
    // The rounds approved ahead re-bought through the batch (held until its last block was final, then bought once).
    for (const round of rounds.filter((r) => r.throughBatch)) expect(round.batchBuys).toBe(BUYERS)
  }, 3_600_000)
})
