import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, erc20Abi, getAddress, http, type Address } from 'viem'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { createAdminClient, type AdminClient } from '../../src/admin-client/admin-client.ts'
import { silentLogger } from '../../src/common/logger.ts'
import { loadConfig } from '../../src/config/load-config.ts'
import { launchToken } from '../../devnet/launchpads/launch-token.ts'
import { startDaemon, type RunningDaemon } from '../../daemon/start-daemon.ts'
import { readDevnetLaunchpads } from '../../devnet/launchpads/devnet-launchpads.ts'
import { freePort } from '../sync/anvil-process.ts'

const PUBLIC = '/api/public/v1'

/**
 * A daemon configured with `wallet.accountKind: "kernel"` on the 200 ms devnet (Kernel v3.1 at its canonical
 * addresses): a buyer's key shows a Kernel wallet the chain derives, the buyer's order fills on a launch, and the
 * buyer withdraws the token and the stablecoin over the API (daemon-flow.test.ts' first case, with Kernel wallets).
 */
describe('daemon with Kernel v3.1 wallets: order, fill, withdrawal over the API', () => {
  let dataDir: string
  let daemon: RunningDaemon
  let admin: AdminClient
  const call = async (method: string, path: string, apiKey?: string, body?: unknown) => {
    const response = await fetch(`${daemon.url}${PUBLIC}${path}`, {
      method,
      headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'prebuy-kernel-daemon-'))
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ chains: { mode: 'devnet', blockTime: 0.2 }, wallet: { accountKind: 'kernel' } }))
    const port = await freePort()
    const config = await loadConfig({ flags: { dataDir, port: String(port) }, env: {} } as never)
    expect(config.wallet.accountKind).toBe('kernel')
    daemon = await startDaemon({ ...config, adminPort: await freePort() }, { logger: silentLogger })
    admin = createAdminClient({ adminUrl: daemon.adminUrl, operatorToken: (await readFile(join(dataDir, 'operator-token'), 'utf8')).trim() })
  })
  afterAll(async () => {
    await daemon?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('a buyer’s Kernel wallet buys on a launch and withdraws the token and the stablecoin', async () => {
    const creator = privateKeyToAccount(generatePrivateKey()).address
    await call('POST', '/projects', undefined, {
      projectName: 'Kernel Rocket',
      projectUrls: ['https://krocket.example'],
      projectInfo: 'Kernel Rocket launches a token.',
      contact: '@krocket',
      email: 'team@krocket.example',
    })
    const [registration] = await admin.listReviews('registration', 'pending')
    await admin.approveRegistration(registration!.id, { slug: 'krocket', creator, launchpad: 'clanker', chain: 'base', symbol: 'KRKT' })

    const created = await call('POST', '/api-keys', undefined, { label: 'kernel-buyer' })
    expect(created.status).toBe(201)
    const apiKey = created.body.apiKey as string
    const wallet = created.body.serviceWalletAddress as Address
    const client = createPublicClient({ transport: http(daemon.chains.base.rpcUrl) })
    // Counterfactual: no code until its first operation.
    expect(await client.getCode({ address: wallet })).toBeUndefined()
    await admin.devnetFund({ address: wallet, chain: 'base', usdc: '250' })
    const placed = await call('POST', '/orders', apiKey, { items: [{ slug: 'krocket', maxSpendUsdc: '200', maxFdvUsdc: null, expiresInMs: 600_000 }] })
    expect(placed.body.results).toEqual([{ slug: 'krocket', ok: true, status: 'created' }])

    const launchpads = await readDevnetLaunchpads(dataDir)
    const launched = await launchToken({
      chain: daemon.chains.base,
      addresses: launchpads.base!,
      launchpad: 'clanker',
      creator,
      name: 'KRocket',
      symbol: 'KRKT',
    })
    let order: Record<string, unknown> | undefined
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      order = ((await call('GET', '/orders', apiKey)).body.data as Array<Record<string, unknown>>)[0]
      if (order?.status === 'filled') break
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(order?.status).toBe('filled')
    // The wallet that bought is the Kernel account at the address shown, rooted in this key's owner.
    expect((await client.getCode({ address: wallet }))?.length).toBeGreaterThan(2)
    const tokens = await client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })
    expect(tokens).toBeGreaterThan(0n)

    const to = getAddress('0x00000000000000000000000000000000000d0e5e')
    const token = await call('POST', '/wallet/withdrawals', apiKey, { tokenAddress: launched.token, withdrawAddress: to, amount: 'max' })
    expect(token.status, JSON.stringify(token.body)).toBe(200)
    expect(await client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'balanceOf', args: [to] })).toBe(tokens)
    const usdc = daemon.chains.base.addresses.stablecoin
    const stable = await call('POST', '/wallet/withdrawals', apiKey, { tokenAddress: usdc, withdrawAddress: to, amount: '50' })
    expect(stable.status, JSON.stringify(stable.body)).toBe(200)
    expect(await client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [to] })).toBe(50_000_000n)
    expect(await client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })).toBe(0n)
    // Too much: refused with a typed error, nothing sent.
    const refused = await call('POST', '/wallet/withdrawals', apiKey, { tokenAddress: usdc, withdrawAddress: to, amount: '1' })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'insufficient_balance' })
  })
})
