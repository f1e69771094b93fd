import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import type { AdminClient } from '../../src/admin-client/admin-client.ts'
import { launchToken } from '../../devnet/launchpads/launch-token.ts'
import type { RunningDaemon } from '../../daemon/start-daemon.ts'
import { readDevnetLaunchpads } from '../../devnet/launchpads/devnet-launchpads.ts'
import { runCli } from '../daemon/helpers.ts'
import { type InProcessDaemon, type PublicCall, startInProcessDaemon } from './in-process-daemon.ts'

/** The product as a user meets it: a started daemon (1 s devnet blocks), keys and orders over HTTP, a devnet launch. */
describe('daemon: orders placed over the API fill on a devnet launch', () => {
  let dataDir: string
  let daemon: RunningDaemon
  let admin: AdminClient
  let call: PublicCall
  let started: InProcessDaemon | undefined

  beforeAll(async () => {
    started = await startInProcessDaemon({ prefix: 'prebuy-daemon-flow-' })
    ;({ dataDir, daemon, admin, call } = started)
  })
  afterAll(async () => {
    await started?.stop()
  })

  it('a buyer orders over HTTP; the launch fills it; GET /orders shows the execution and GET /wallet the token', async () => {
    const creator = privateKeyToAccount(generatePrivateKey()).address
    const submitted = await call('POST', '/projects', undefined, {
      projectName: 'Rocket',
      projectUrls: ['https://rocket.example'],
      projectInfo: 'Rocket launches a token.',
      contact: '@rocket',
      email: 'team@rocket.example',
    })
    expect(submitted.status).toBeLessThan(300)
    const [registration] = await admin.listReviews('registration', 'pending')
    // The deployer and, as the second fact, the symbol the project announced (docs/launch-authenticity.md).
    await admin.approveRegistration(registration!.id, { slug: 'rocket', creator, symbol: 'RKT', launchpad: 'clanker', chain: 'base' })

    const created = await call('POST', '/api-keys', undefined, { label: 'buyer-one' })
    const apiKey = created.body.apiKey as string
    const wallet = created.body.serviceWalletAddress as Address
    await admin.devnetFund({ address: wallet, chain: 'base', usdc: '250' })
    const placed = await call('POST', '/orders', apiKey, { items: [{ slug: 'rocket', maxSpendUsdc: '200', maxFdvUsdc: null, expiresInMs: 600_000 }] })
    expect(placed.body.results).toEqual([{ slug: 'rocket', ok: true, status: 'created' }])

    const launchpads = await readDevnetLaunchpads(dataDir)
    const launched = await launchToken({ chain: daemon.chains.base, addresses: launchpads.base!, launchpad: 'clanker', creator, name: 'Rocket', symbol: 'RKT' })

    let order: Record<string, unknown> | undefined
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      const listed = await call('GET', '/orders', apiKey)
      order = (listed.body.data as Array<Record<string, unknown>>)[0]
      if (order?.status === 'filled') break
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(order?.status).toBe('filled')
    const walletView = await call('GET', '/wallet', apiKey)
    const base = (walletView.body.balances as Record<string, Array<{ address: string; balance: string }>>).base ?? []
    expect(base[0]?.balance).toBe('50000000')
    const token = base.find((entry) => entry.address.toLowerCase() === launched.token.toLowerCase())
    expect(BigInt(token?.balance ?? '0')).toBeGreaterThan(0n)
    const project = await call('GET', '/projects/rocket', apiKey)
    expect(JSON.stringify(project.body)).toContain(launched.token)
  })

  it('the operator sees a forged launch rejected (CLI), confirms a genuine one sent by another wallet, and its orders fill', async () => {
    const creator = privateKeyToAccount(generatePrivateKey()).address
    await call('POST', '/projects', undefined, {
      projectName: 'Comet',
      projectUrls: ['https://comet.example'],
      projectInfo: 'Comet launches a token.',
      contact: '@comet',
      email: 'team@comet.example',
    })
    const [registration] = await admin.listReviews('registration', 'pending')
    const approved = await admin.approveRegistration(registration!.id, { slug: 'comet', creator, launchpad: 'zora', chain: 'base' })
    const buyer = await call('POST', '/api-keys', undefined, { label: 'buyer-comet' })
    await admin.devnetFund({ address: buyer.body.serviceWalletAddress as string, chain: 'base', usdc: '100' })
    await call('POST', '/orders', buyer.body.apiKey as string, { items: [{ slug: 'comet', maxSpendUsdc: '25', maxFdvUsdc: null, expiresInMs: 600_000 }] })

    // Someone else launches a look-alike naming the creator: the operator sees it rejected.
    const forger = privateKeyToAccount(generatePrivateKey()).address
    const forged = await admin.devnetLaunch({ launchpad: 'zora', creator, sender: forger, name: 'Comet', symbol: 'CMT' })
    expect(forged.sender).toBe(forger)
    const listed = await waitFor(async () => {
      const result = await runCli<{ candidates: Array<{ slug: string; token: string; status: string; reason: string }> }>(dataDir, [
        'launches',
        'candidates',
        '--slug',
        'comet',
      ])
      return result.json?.candidates.find((c) => c.token === forged.token)
    })
    expect(listed).toMatchObject({ slug: 'comet', status: 'rejected' })
    expect((await call('GET', '/projects/comet', buyer.body.apiKey as string)).body.launch).toMatchObject({ status: 'pending' })

    // The creator launched from a wallet other than the registered one: the operator vouches for it.
    const otherWallet = privateKeyToAccount(generatePrivateKey()).address
    const genuine = await admin.devnetLaunch({ launchpad: 'zora', creator, sender: otherWallet, name: 'Comet', symbol: 'CMT' })
    await waitFor(async () => (await admin.launchCandidates({ slug: 'comet' })).candidates.some((c) => c.token === genuine.token && c.status === 'rejected'))
    const confirmed = await runCli<{ candidate: { status: string } }>(dataDir, ['launches', 'confirm', 'comet', '--token', genuine.token])
    expect(confirmed.json?.candidate.status).toBe('confirmed')
    const filled = await waitFor(async () => {
      const order = ((await call('GET', '/orders', buyer.body.apiKey as string)).body.data as Array<Record<string, unknown>>)[0]
      return order?.status === 'filled' && order
    })
    expect(filled).toMatchObject({ status: 'filled' })
    const project = await call('GET', '/projects/comet', approved.key.apiKey)
    expect((project.body.launch as { tokenAddress: string }).tokenAddress).toBe(genuine.token)
  })

  it('a Clanker v5 project: approved with --launchpad clanker_v5, launched with `prebuy devnet launch --launchpad clanker_v5`, its order fills', async () => {
    const creator = privateKeyToAccount(generatePrivateKey()).address
    await call('POST', '/projects', undefined, {
      projectName: 'Nova',
      projectUrls: ['https://nova.example'],
      projectInfo: 'Nova launches a Clanker v5 token.',
      contact: '@nova',
      email: 'team@nova.example',
    })
    const [registration] = await admin.listReviews('registration', 'pending')
    const approved = await runCli<{ project: { slug: string; launchpad: string } }>(dataDir, [
      'registrations',
      'approve',
      registration!.id,
      '--slug',
      'nova',
      '--creator',
      creator,
      '--launchpad',
      'clanker_v5',
      '--chain',
      'base',
      '--symbol',
      'NOVA',
    ])
    expect(approved.json?.project).toMatchObject({ slug: 'nova', launchpad: 'clanker_v5' })
    const buyer = await call('POST', '/api-keys', undefined, { label: 'buyer-nova' })
    await admin.devnetFund({ address: buyer.body.serviceWalletAddress as string, chain: 'base', usdc: '100' })
    await call('POST', '/orders', buyer.body.apiKey as string, { items: [{ slug: 'nova', maxSpendUsdc: '25', maxFdvUsdc: null, expiresInMs: 600_000 }] })

    // A 5% buy and sell tax without the sniper fee, paired with native ETH (the default).
    const launched = await runCli<{ token: string; launchpad: string; paired: { kind: string } }>(dataDir, [
      'devnet',
      'launch',
      '--launchpad',
      'clanker_v5',
      '--creator',
      creator,
      '--symbol',
      'NOVA',
      '--start-fee',
      '50000',
      '--end-fee',
      '50000',
    ])
    expect(launched.json).toMatchObject({ launchpad: 'clanker_v5', paired: { kind: 'eth' } })
    const filled = await waitFor(async () => {
      const order = ((await call('GET', '/orders', buyer.body.apiKey as string)).body.data as Array<Record<string, unknown>>)[0]
      return order?.status === 'filled' && order
    })
    expect(filled).toMatchObject({ status: 'filled' })
    const project = await call('GET', '/projects/nova', buyer.body.apiKey as string)
    expect((project.body.launch as { tokenAddress: string }).tokenAddress).toBe(launched.json!.token)
    // A fee option the documentation rules out is refused with its reason.
    const refused = await runCli(dataDir, ['devnet', 'launch', '--launchpad', 'clanker_v5', '--creator', creator, '--end-fee', '200000'])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr + refused.stdout).toContain('buy tax')
  })
})

/** Polls until `probe` returns something truthy (30 s at most). */
async function waitFor<T>(probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 200))
  }
}
