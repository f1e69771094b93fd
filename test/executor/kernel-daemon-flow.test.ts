import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, erc20Abi, getAddress, http, type Address } from 'viem'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import type { AdminClient } from '../../src/admin-client/admin-client.ts'
import { launchToken } from '../../devnet/launchpads/launch-token.ts'
import type { RunningDaemon } from '../../daemon/start-daemon.ts'
import { readDevnetLaunchpads } from '../../devnet/launchpads/devnet-launchpads.ts'
import { type InProcessDaemon, type PublicCall, startInProcessDaemon } from './in-process-daemon.ts'

/**
 * A daemon configured with `wallet.accountKind: "kernel"` on the 200 ms devnet (Kernel v3.1 at its canonical
 * addresses): a buyer's key shows a Kernel wallet the chain derives, the buyer's order fills on a launch, and the
 * buyer withdraws the token and the stablecoin over the API (daemon-flow.test.ts' first case, with Kernel wallets).
 */
describe('daemon with Kernel v3.1 wallets: order, fill, withdrawal over the API', () => {
  let dataDir: string
  let daemon: RunningDaemon
  let admin: AdminClient
  let call: PublicCall
  let started: InProcessDaemon | undefined

  beforeAll(async () => {
    started = await startInProcessDaemon({ prefix: 'prebuy-kernel-daemon-', config: { wallet: { accountKind: 'kernel' } } })
    ;({ dataDir, daemon, admin, call } = started)
    expect(started.config.wallet.accountKind).toBe('kernel')
  })
  afterAll(async () => {
    await started?.stop()
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
