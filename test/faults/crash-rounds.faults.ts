import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, http, parseAbiItem, type Address, type Hex } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { createAdminClient, type AdminClient } from '../../src/admin-client/admin-client.ts'
import { locateDaemon } from '../../src/admin-client/locate-daemon.ts'
import { api, childPids, freePortPair, isAlive, startDaemonProcess, type SpawnedDaemon } from '../daemon/helpers.ts'
import { recordFigures } from './report.ts'

/**
 * Crash rounds: a real daemon process (its devnet chains as children), 20 buyers with an order each on a fresh
 * project per round; the project launches and the daemon, with its chains, is killed with SIGKILL at a random moment
 * of the execution (0-2.5 s after the launch block). It restarts on the same data dir (the chains from their last
 * dump, maybe without their last blocks) and must settle every order: no order bought twice on chain, none lost,
 * none stuck executing, every on-chain buy recorded as its order's fill, and the next launch detected and bought.
 */
const ROUNDS = Number(process.env.FAULT_CRASH_ROUNDS ?? 20)
/** The buyers' wallets (wallet.accountKind): FAULT_CRASH_ACCOUNT_KIND=kernel runs the rounds on Kernel v3.1. */
const ACCOUNT_KIND = process.env.FAULT_CRASH_ACCOUNT_KIND === 'kernel' ? 'kernel' : 'simple'
const BUYERS = Number(process.env.FAULT_CRASH_BUYERS ?? 20)
const PUBLIC = '/api/public/v1'
const PREBUY_BUY = parseAbiItem(
  'event PrebuyBuy(address indexed buyer, bytes32 indexed orderId, address indexed token, uint256 amountIn, uint256 tokensReceived, uint256 fee, address feeRecipient)',
)

let dataDir: string
let port: number
let daemon: SpawnedDaemon | undefined

afterAll(async () => {
  if (daemon) await killAll(daemon)
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** SIGKILL to the daemon and every process under it (the anvil chains): nothing gets to save anything. */
async function killAll(target: SpawnedDaemon): Promise<void> {
  const pid = target.process.pid!
  const children = childPids(pid)
  const grandchildren = children.flatMap(childPids)
  for (const p of [pid, ...children, ...grandchildren]) {
    try {
      process.kill(p, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  await target.exited
  const deadline = Date.now() + 10_000
  while ([...children, ...grandchildren].some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
}

async function start(): Promise<{ admin: AdminClient; url: string; rpcUrl: string }> {
  daemon = await startDaemonProcess(dataDir, port)
  const located = await locateDaemon(dataDir)
  const admin = createAdminClient({ adminUrl: located.adminUrl, operatorToken: located.operatorToken })
  const deployments = (await admin.devnetDeployments()) as { chains: { base: { rpcUrl: string } } }
  return { admin, url: `http://127.0.0.1:${port}`, rpcUrl: deployments.chains.base.rpcUrl }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

interface OrderView {
  slug: string
  status: string
  execution?: { txHash: string } | null
}

describe('crash rounds (kill -9 of the daemon and its chains during executions)', () => {
  it(`${ROUNDS} rounds with ${BUYERS} buyers (${ACCOUNT_KIND} wallets): no double buy, no lost or stuck order, every fill recorded, next launch bought`, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'prebuy-crash-'))
    port = await freePortPair()
    await writeFile(
      join(dataDir, 'config.json'),
      JSON.stringify({
        chains: { mode: 'devnet', blockTime: 1 },
        rateLimits: { perKeyPerMinute: 100_000, apiKeyCreationPerIpPerHour: 100_000, submissionsPerIpPerHour: 100_000 },
        wallet: { accountKind: ACCOUNT_KIND },
      }),
    )
    let { admin, url, rpcUrl } = await start()
    const keys: { apiKey: string; wallet: Address }[] = []
    for (let i = 0; i < BUYERS; i++) {
      const created = await api(url, 'POST', `${PUBLIC}/api-keys`, { body: { label: `crash-buyer-${i}` } })
      keys.push({ apiKey: created.body.apiKey as string, wallet: created.body.serviceWalletAddress as Address })
    }
    for (const key of keys) await admin.devnetFund({ address: key.wallet, usdc: String(10 * (ROUNDS + 2)), chain: 'base' })

    const figures = { rounds: 0, killedAfterMs: [] as number[], lostLaunches: 0, doubleBuys: 0, lostOrders: 0, stuckOrders: 0, unrecordedFills: 0, fills: 0 }
    const ordersOf = async (slug: string) =>
      Promise.all(
        keys.map(async (key) => {
          const listed = await api(url, 'GET', `${PUBLIC}/orders`, { key: key.apiKey })
          return ((listed.body.data ?? []) as OrderView[]).find((o) => o.slug === slug)
        }),
      )

    for (let round = 0; round <= ROUNDS; round++) {
      const slug = `crash-${round}`
      const creator = `0x${(0x1000 + round).toString(16).padStart(40, '0')}` as Address
      const submitted = await api(url, 'POST', `${PUBLIC}/projects`, {
        body: { projectName: slug, projectUrls: [`https://${slug}.example`], projectInfo: 'crash round', contact: `@${slug}`, email: `${slug}@example.com` },
      })
      expect(submitted.status).toBe(200)
      const pending = (await admin.listReviews('registration', 'pending')).find((r) => (r.submission as { projectName?: string }).projectName === slug)!
      await admin.approveRegistration(pending.id, { slug, creator, symbol: `C${round}`, launchpad: 'clanker', chain: 'base' })
      for (const key of keys) {
        const placed = await api(url, 'POST', `${PUBLIC}/orders`, {
          key: key.apiKey,
          body: { items: [{ slug, maxSpendUsdc: '10', maxFdvUsdc: null, expiresInMs: 3_600_000 }] },
        })
        expect(placed.status, JSON.stringify(placed.body)).toBeLessThan(300)
      }
      const launch = async () => admin.devnetLaunch({ launchpad: 'clanker', creator, name: `${slug} token`, symbol: `C${round}` })
      const launched = await launch()
      // The last round is the "next launch": no crash, it must be detected and bought.
      if (round < ROUNDS) {
        const delay = Math.floor(Math.random() * 2_500)
        figures.killedAfterMs.push(delay)
        await new Promise((resolve) => setTimeout(resolve, delay))
        await killAll(daemon!)
        ;({ admin, url, rpcUrl } = await start())
        // The chain may have lost the launch block with its last dump: once the daemon has undone that launch too,
        // the project launches again (a new token).
        const restarted = createPublicClient({ transport: http(rpcUrl) })
        const kept = await restarted.getTransactionReceipt({ hash: launched.txHash as Hex }).catch(() => undefined)
        if (!kept) {
          figures.lostLaunches++
          await waitFor('the lost launch undone', async () => ((await admin.listProjects()).find((p) => p.slug === slug)?.launch ? undefined : true))
          await launch()
        }
      }
      // Settled: every order filled by a transaction the chain has now. Right after a restart the records may still
      // show fills the restarted chain lost with its last blocks, until the daemon sees the chain differ and undoes them.
      const chainNow = createPublicClient({ transport: http(rpcUrl) })
      let last: (OrderView | undefined)[] = []
      const settled = await waitFor(`round ${round} settled`, async () => {
        last = await ordersOf(slug)
        if (!last.every((o) => o?.status === 'filled')) return undefined
        const receipts = await Promise.all(last.map((o) => chainNow.getTransactionReceipt({ hash: o!.execution!.txHash as Hex }).catch(() => undefined)))
        return receipts.every((r) => r?.status === 'success') ? last : undefined
      }).catch((error: unknown) => {
        // What the orders and the daemon say, to diagnose a stuck round.
        const statuses = last.map((o) => `${o?.status}${o?.execution ? ` ${JSON.stringify(o.execution)}` : ''}`)
        throw new Error(`${String(error)}\norders: ${statuses.join('\n')}\ndaemon: ${daemon?.output().split('\n').slice(-60).join('\n')}`)
      })
      figures.rounds++

      // The chain's view: every PrebuyBuy of this round's token, per order.
      const client = createPublicClient({ transport: http(rpcUrl) })
      const token = (await admin.listProjects()).find((p) => p.slug === slug)!.launch!.tokenAddress as Address
      const logs = await client.getLogs({ event: PREBUY_BUY, args: { token }, fromBlock: 0n })
      const buysPerOrder = new Map<Hex, Hex[]>()
      for (const log of logs) buysPerOrder.set(log.args.orderId!, [...(buysPerOrder.get(log.args.orderId!) ?? []), log.transactionHash])
      figures.doubleBuys += [...buysPerOrder.values()].filter((txs) => txs.length > 1).length
      figures.lostOrders += settled.filter((o) => o === undefined).length
      figures.stuckOrders += settled.filter((o) => o?.status === 'executing').length
      const recorded = new Set(settled.map((o) => o?.execution?.txHash?.toLowerCase()))
      figures.unrecordedFills += logs.filter((log) => !recorded.has(log.transactionHash.toLowerCase())).length
      figures.fills += logs.length
      expect(logs).toHaveLength(BUYERS)
    }
    recordFigures(ACCOUNT_KIND === 'kernel' ? 'crash-kernel' : 'crash', figures)
    expect(figures).toMatchObject({ doubleBuys: 0, lostOrders: 0, stuckOrders: 0, unrecordedFills: 0, rounds: ROUNDS + 1 })
  }, 3_600_000)
})
