import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, createPublicClient, erc20Abi, http } from 'viem'
import { batchBuyerAddress, serviceBatchBuyerArgs } from '../../daemon/executor/batch-buyer-address.ts'
import { buyRouterAddress } from '../../daemon/executor/ensure-buy-router.ts'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createAdminClient, type AdminClient } from '../../src/admin-client/admin-client.ts'
import { silentLogger } from '../../src/common/logger.ts'
import type { PrebuyConfig } from '../../src/config/config.ts'
import { loadConfig } from '../../src/config/load-config.ts'
import { startDaemon, type RunningDaemon } from '../../daemon/start-daemon.ts'
import { freePort } from '../support/free-port.ts'

const PUBLIC = '/api/public/v1'

/** An in-process daemon on its own devnet (1-s blocks) that can be stopped and started again on the same data dir. */
export class ConsoleHarness {
  daemon!: RunningDaemon
  admin!: AdminClient
  /** Each project's buyers' service wallets, as projectWithOrders created them. */
  readonly buyerWallets = new Map<string, Address[]>()
  private config!: PrebuyConfig

  private constructor(readonly dataDir: string) {}

  static async start(label: string): Promise<ConsoleHarness> {
    const harness = new ConsoleHarness(await mkdtemp(join(tmpdir(), `prebuy-${label}-`)))
    await writeFile(join(harness.dataDir, 'config.json'), JSON.stringify({ chains: { mode: 'devnet', blockTime: 0.2 } }))
    const config = await loadConfig({ flags: { dataDir: harness.dataDir, port: String(await freePort()) }, env: {} } as never)
    harness.config = { ...config, adminPort: await freePort() }
    await harness.restart()
    return harness
  }

  /** Starts the daemon (again, after stop). */
  async restart(): Promise<void> {
    this.daemon = await startDaemon(this.config, { logger: silentLogger })
    this.admin = createAdminClient({ adminUrl: this.daemon.adminUrl, operatorToken: (await readFile(join(this.dataDir, 'operator-token'), 'utf8')).trim() })
  }

  async stop(): Promise<void> {
    await this.daemon?.stop()
  }

  async remove(): Promise<void> {
    await this.stop()
    await rm(this.dataDir, { recursive: true, force: true })
  }

  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the public API answered
  async call(method: string, path: string, apiKey?: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${this.daemon.url}${PUBLIC}${path}`, {
      method,
      headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return { status: response.status, body: await response.json() }
  }

  /** Submits a registration (POST /projects) and returns its review id. */
  async submitRegistration(name: string): Promise<string> {
    const submitted = await this.call('POST', '/projects', undefined, {
      projectName: name,
      projectUrls: [`https://${name.toLowerCase()}.example`],
      projectInfo: `${name} launches a token.`,
      contact: `@${name.toLowerCase()}`,
      email: `team@${name.toLowerCase()}.example`,
    })
    if (submitted.status >= 300) throw new Error(`registration refused: ${JSON.stringify(submitted.body)}`)
    const pending = await this.admin.listReviews('registration', 'pending')
    return pending.find((item) => item.kind === 'registration' && item.submission.projectName === name)!.id
  }

  /**
   * An approved clanker project on base, bound by its creator and `symbol` (the second fact its launch must have), with
   * `buyers` funded buyers, each with one order; returns its creator.
   */
  async projectWithOrders(
    slug: string,
    buyers: number,
    order: (i: number) => { maxSpendUsdc: string; maxFdvUsdc: string | null },
    symbol: string,
  ): Promise<Address> {
    const creator = privateKeyToAccount(generatePrivateKey()).address
    const id = await this.submitRegistration(slug[0]!.toUpperCase() + slug.slice(1))
    await this.admin.approveRegistration(id, { slug, creator, symbol, launchpad: 'clanker', chain: 'base' })
    for (let i = 0; i < buyers; i++) {
      const created = await this.call('POST', '/api-keys', undefined, { label: `${slug}-buyer-${i}` })
      await this.admin.devnetFund({ address: created.body.serviceWalletAddress, chain: 'base', usdc: '1000' })
      this.buyerWallets.set(slug, [...(this.buyerWallets.get(slug) ?? []), created.body.serviceWalletAddress])
      const placed = await this.call('POST', '/orders', created.body.apiKey, { items: [{ slug, ...order(i), expiresInMs: 3_600_000 }] })
      if (placed.body.results?.[0]?.ok !== true) throw new Error(`order refused: ${JSON.stringify(placed.body)}`)
    }
    return creator
  }

  /**
   * Waits (deadline `ms`) until every buyer wallet of `slug` allows the daemon's batch buyer on base at least `usdc`:
   * the daemon approves it ahead of the launch (approve-ahead.ts), so the launch's buys then go through one batch. The
   * batch buyer's address is the daemon's own derivation (launch-workers.ts: CREATE2 of the router and the bundler).
   */
  async waitForBatchApprovals(slug: string, usdc: bigint, ms = 60_000): Promise<void> {
    const deployments = (await this.admin.devnetDeployments()) as {
      chains: Record<string, { rpcUrl: string; bundler: Address; addresses: { poolManager: Address; stablecoin: Address } }>
    }
    const base = deployments.chains.base!
    const spender = batchBuyerAddress(serviceBatchBuyerArgs(buyRouterAddress(base.addresses.poolManager), base.bundler))
    const client = createPublicClient({ transport: http(base.rpcUrl) })
    const wallets = this.buyerWallets.get(slug) ?? []
    const deadline = Date.now() + ms
    for (;;) {
      const allowances = await Promise.all(
        wallets.map((owner) => client.readContract({ address: base.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] })),
      )
      if (allowances.every((a) => a >= usdc * 1_000_000n)) return
      if (Date.now() > deadline) throw new Error(`the batch buyer approvals of ${slug} did not land within ${ms} ms: ${allowances.join(', ')}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}
