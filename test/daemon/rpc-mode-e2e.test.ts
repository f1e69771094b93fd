import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, erc20Abi, getAddress, http, parseUnits, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DaemonStatus, DeployContractsResult, DevnetLaunchResult } from '../../src/admin-api/contract.ts'
import { Wallet } from '../../src/api/schemas.ts'
import { BASE_DEFAULT_ADDRESSES } from '../../src/chain/real-chains.ts'
import { BASE_LAUNCHPADS } from '../../src/launchpads/create-adapters.ts'
import { api, freePortPair, runCli, startDaemonProcess, type SpawnedDaemon } from './helpers.ts'
import { batchBuyerAddress, serviceBatchBuyerArgs } from '../../daemon/executor/batch-buyer-address.ts'
import { buyRouterAddress } from '../../daemon/executor/ensure-buy-router.ts'

/**
 * `chains.mode: "rpc"` end to end, as an operator runs the daemon on Base (issue 21 item 2): a first daemon runs the
 * devnet (Base's canonical contracts and the devnet launchpads' factories at their real Base addresses); a second
 * daemon is pointed at that devnet's `base` RPC and WebSocket URLs with nothing else but `feeRecipient`, the
 * passphrase and the wallet kind: chain id and every address come from Base's defaults, `second_chain` is left out
 * (disabled). It starts without our contracts, says what is missing (log, `daemon status`, `/readyz`), becomes ready
 * without a restart once its bundler account is funded and `prebuy contracts deploy` has run, and fills a buyer's orders
 * on launches made at Base's real Clanker, Doppler and Zora factory addresses. The devnet's block time is its default (either 2 s or
 * 200 ms): nothing here counts blocks; every wait is a condition with a deadline.
 */
const PUBLIC = '/api/public/v1'
const FEE_RECIPIENT = '0x000000000000000000000000000000000000fee2'
let devnetDataDir: string
let dataDir: string
let devnetDaemon: SpawnedDaemon | undefined
let daemon: SpawnedDaemon | undefined
let url: string
let baseRpcUrl: string

beforeAll(async () => {
  devnetDataDir = await mkdtemp(join(tmpdir(), 'prebuy-rpc-devnet-'))
  dataDir = await mkdtemp(join(tmpdir(), 'prebuy-rpc-daemon-'))
  // The first daemon: the devnet, as `npm start` runs it (its launchpads are deployed before it says it is ready).
  devnetDaemon = await startDaemonProcess(devnetDataDir, await freePortPair())
  const deployments = await runCli<{ chains: { base: { rpcUrl: string; wsUrl: string } } }>(devnetDataDir, ['devnet', 'deployments'])
  expect(deployments.code, deployments.stderr).toBe(0)
  const base = deployments.json.chains.base
  baseRpcUrl = base.rpcUrl
  // The second daemon: Base's URLs and nothing else (chain id 8453 and every address are defaults).
  await writeFile(
    join(dataDir, 'config.json'),
    JSON.stringify({
      chains: { mode: 'rpc', base: { rpcUrl: base.rpcUrl, wsUrl: base.wsUrl } },
      feeRecipient: FEE_RECIPIENT,
      wallet: { accountKind: 'simple' },
    }),
  )
  const port = await freePortPair()
  daemon = await startDaemonProcess(dataDir, port, { PREBUY_PASSPHRASE: 'rpc mode end to end passphrase' })
  url = `http://127.0.0.1:${port}`
}, 300_000)

afterAll(async () => {
  for (const spawned of [daemon, devnetDaemon]) {
    if (spawned && spawned.process.exitCode === null && spawned.process.signalCode === null) {
      spawned.process.kill('SIGTERM')
      await spawned.exited
    }
  }
  await rm(dataDir, { recursive: true, force: true })
  await rm(devnetDataDir, { recursive: true, force: true })
}, 60_000)

/** Polls /readyz until `accept` holds for its answer, within a deadline (a condition, not a sleep). */
async function readyzUntil(accept: (status: number) => boolean, timeoutMs: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await fetch(`${url}/readyz`)
    const body = (await response.json()) as Record<string, unknown>
    if (accept(response.status) || Date.now() > deadline) return { status: response.status, body }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const CONTRACTS = ['PrebuyBuyRouter', 'PrebuyBatchBuyer', 'PrebuyVesting', 'PrebuyOtcSettlement', 'PrebuyDevBuyCoordinator']
/**
 * Ours alone: the batch buyer, the OTC settlement and the dev-buy coordinator name this daemon's bundler account (and
 * fee recipient), so nobody else has deployed them. The buy router and the vesting contract depend on nothing of ours (CREATE2 over their
 * code and the PoolManager): the devnet daemon on the same chain put them there already, as another prebuy operator
 * may have on Base, and `contracts deploy` finds them there.
 */
const OURS_ALONE = ['PrebuyBatchBuyer', 'PrebuyOtcSettlement', 'PrebuyDevBuyCoordinator']

describe('a daemon in rpc mode on Base as it is today (the devnet), with only its URLs configured', () => {
  let bundler: string
  let missingAtStart: string[]
  /** The buyer of the fill tests: its API key, smart wallet and the tokens it bought (by project slug). */
  const buyer = { key: '', wallet: '0x' as Address, tokens: new Map<string, Address>() }

  it("verifies the chain at Base's default addresses, starts anyway and says at start what is missing and what to run", () => {
    const output = daemon!.output()
    expect(output).toContain('our contracts are not deployed on base')
    expect(output).toContain('prebuy contracts deploy --chain base')
    expect(output).not.toMatch(/disabled-chain\.invalid/)
  })

  it('daemon status shows the bundler address, the missing contracts and the disabled chain', async () => {
    const status = await runCli<DaemonStatus>(dataDir, ['daemon', 'status'])
    expect(status.code).toBe(0)
    expect(status.json.chains).toEqual({ mode: 'rpc', chainIds: { base: 8453 }, disabled: ['second_chain'] })
    expect(Object.keys(status.json.bundlers)).toEqual(['base'])
    bundler = status.json.bundlers.base!.address
    expect(bundler).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(status.json.contracts.base!.map((c) => c.name)).toEqual(CONTRACTS)
    missingAtStart = status.json.contracts.base!.filter((c) => c.deployed === false).map((c) => c.name)
    for (const name of OURS_ALONE) expect(missingAtStart).toContain(name)
    expect(Object.keys(status.json.contracts)).toEqual(['base'])
    expect(status.json.readiness.ready).toBe(false)
    const human = await runCli(dataDir, ['daemon', 'status'], { human: true })
    expect(human.code).toBe(0)
    expect(human.stdout).toContain(bundler)
    expect(human.stdout).toMatch(/Contracts: {2}base MISSING .*PrebuyOtcSettlement 0x[0-9a-fA-F]{40}/)
    expect(human.stdout).toContain('disabled: second_chain')
  })

  it('/readyz answers 503 naming the missing contracts and never waits for the disabled chain', async () => {
    const { status, body } = await readyzUntil(() => true, 0)
    expect(status).toBe(503)
    expect(body.message).toMatch(/base: our contracts are not deployed \(Prebuy\w+ at 0x/)
    expect(body.message).toContain('PrebuyOtcSettlement at 0x')
    expect(body.message).toContain('run `prebuy contracts deploy --chain base`')
    expect(body.message).not.toContain('second_chain')
    expect(body.checks).toMatchObject({ contracts: { base: 'missing' } })
    expect(Object.keys((body.checks as { chains: object }).chains)).toEqual(['base'])
  })

  it('refuses to deploy while the bundler account has no ETH, and names the account to fund', async () => {
    const refused = await runCli<{ error: { message: string; status: number } }>(dataDir, ['contracts', 'deploy', '--chain', 'base'])
    expect(refused.code).not.toBe(0)
    expect(refused.json.error.status).toBe(503)
    expect(refused.json.error.message).toMatch(
      new RegExp(`The bundler account ${bundler} has too little ETH on base to deploy (${missingAtStart.join('|')}): fund it`),
    )
  })

  it('refuses a chain the daemon does not run on', async () => {
    const refused = await runCli<{ error: { message: string; status: number } }>(dataDir, ['contracts', 'deploy', '--chain', 'second_chain'])
    expect(refused.code).not.toBe(0)
    expect(refused.json.error).toEqual({ status: 400, message: 'This daemon does not run on second_chain: it is disabled in its configuration.' })
  })

  it('prebuy contracts deploy puts them on chain from the funded bundler account, then finds them already there', async () => {
    // The operator funds the bundler account shown by `daemon status` (here from the devnet's faucet).
    const funded = await runCli(devnetDataDir, ['devnet', 'fund', '--address', bundler, '--eth', '10'])
    expect(funded.code, funded.stderr).toBe(0)
    const first = await runCli<DeployContractsResult>(dataDir, ['contracts', 'deploy', '--chain', 'base'])
    expect(first.code, first.stdout + first.stderr).toBe(0)
    expect(first.json.deployer).toBe(bundler)
    expect(first.json.contracts.map((c) => c.name)).toEqual(CONTRACTS)
    for (const contract of first.json.contracts) {
      // What was missing at start is deployed now (unless the devnet daemon put a shared one there meanwhile).
      if (OURS_ALONE.includes(contract.name)) expect(contract.status, contract.name).toBe('deployed')
      if (!missingAtStart.includes(contract.name)) expect(contract.status, contract.name).toBe('already_deployed')
      const code = await rpc<string>('eth_getCode', [contract.address, 'latest'])
      expect(code.length, contract.name).toBeGreaterThan(2)
    }
    const again = await runCli(dataDir, ['contracts', 'deploy', '--chain', 'base'], { human: true })
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('Nothing to deploy: every contract was already there.')
    for (const contract of first.json.contracts) expect(again.stdout).toMatch(new RegExp(`${contract.name}\\s+${contract.address}\\s+already_deployed`))
  })

  it('becomes ready without a restart: /readyz 200, daemon status all deployed', async () => {
    const { status, body } = await readyzUntil((s) => s === 200, 90_000)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.checks).toMatchObject({ store: 'ok', chains: { base: { status: 'ok' } }, contracts: { base: 'ok' } })
    const after = await runCli<DaemonStatus>(dataDir, ['daemon', 'status'])
    expect(after.json.contracts.base!.every((c) => c.deployed === true)).toBe(true)
    expect(after.json.readiness.ready).toBe(true)
    await until(() => daemon!.output().includes('indexer started'), 60_000, 'the indexer to start')
    expect(daemon!.output()).toContain('our contracts are deployed: starting the indexer and executor')
  })

  it('a wallet lists only the chains the daemon runs on; a withdrawal naming the disabled chain is refused with chain_disabled', async () => {
    const key = await approvedBuyerKey('Rpc')
    const wallet = await api(url, 'GET', `${PUBLIC}/wallet`, { key })
    expect(wallet.status).toBe(200)
    expect(Object.keys(wallet.body.balances)).toEqual(['base'])
    // As the OpenAPI document describes it: a chain the service does not run on is absent.
    expect(Wallet.safeParse(wallet.body).success).toBe(true)
    const withdrawal = await api(url, 'POST', `${PUBLIC}/wallet/withdrawals`, {
      key,
      body: { chain: 'second_chain', tokenAddress: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', withdrawAddress: FEE_RECIPIENT, amount: '1' },
    })
    expect(withdrawal.status).toBe(400)
    expect(withdrawal.body).toMatchObject({ code: 'chain_disabled' })
    expect(withdrawal.body.message).toContain('does not run on second_chain')
  })

  it('refuses to approve a project on the disabled chain (nothing would index its launch), and approves one on base', async () => {
    const id = await registrationId('Elsewhere')
    const approve = (chain: string) =>
      runCli<{ error: { message: string; status: number } }>(dataDir, [
        'registrations',
        'approve',
        id,
        '--slug',
        'elsewhere',
        '--creator',
        '0x1111111111111111111111111111111111111111',
        '--launchpad',
        'clanker',
        '--chain',
        chain,
      ])
    const refused = await approve('second_chain')
    expect(refused.code).toBe(1)
    expect(refused.json.error).toEqual({ status: 400, message: 'This service does not run on second_chain: it is disabled in its configuration.' })
    expect((await approve('base')).code).toBe(0)
  })

  it("fills a buyer's orders on launches at Base's real Clanker, Doppler and Zora factories: tokens in the wallet, the fee to feeRecipient", async () => {
    // A buyer with an API key funds its smart wallet with USDC (the devnet's, at Base's USDC address).
    const key = await approvedBuyerKey('Buyer')
    const wallet = getAddress((await api(url, 'GET', `${PUBLIC}/wallet`, { key })).body.serviceWalletAddress as string)
    Object.assign(buyer, { key, wallet })
    const funded = await runCli(devnetDataDir, ['devnet', 'fund', '--address', wallet, '--usdc', '250'])
    expect(funded.code, funded.stderr).toBe(0)
    await until(async () => (await usdcOf(wallet)) === 250_000_000n, 30_000, 'the funding to be mined')
    // One project per launchpad, each bound to the wallet its creator launches from, as an operator approves it; the
    // buyer orders on each.
    const launchpads = [
      { launchpad: 'clanker', slug: 'orbit', factory: BASE_LAUNCHPADS.clanker.factory },
      { launchpad: 'doppler', slug: 'drift', factory: BASE_LAUNCHPADS.doppler.airlock },
      { launchpad: 'zora', slug: 'zenith', factory: BASE_LAUNCHPADS.zora.factory },
    ].map((entry) => ({ ...entry, creator: privateKeyToAccount(generatePrivateKey()).address }))
    for (const { launchpad, slug, creator } of launchpads) {
      const id = await registrationId(slug)
      const approved = await runCli(dataDir, [
        'registrations',
        'approve',
        id,
        '--slug',
        slug,
        '--creator',
        creator,
        '--launchpad',
        launchpad,
        '--chain',
        'base',
        // The second fact of the binding (issue 22): the symbol the creator launches with.
        '--symbol',
        slug.slice(0, 3).toUpperCase(),
      ])
      expect(approved.code, approved.stdout + approved.stderr).toBe(0)
    }
    const placed = await api(url, 'POST', `${PUBLIC}/orders`, {
      key,
      body: { items: launchpads.map(({ slug }) => ({ slug, maxSpendUsdc: '50', maxFdvUsdc: null, expiresInMs: 600_000 })) },
    })
    expect(placed.status, JSON.stringify(placed.body)).toBe(200)
    expect(placed.body.results).toEqual(launchpads.map(({ slug }) => ({ slug, ok: true, status: 'created' })))

    // Each creator launches on the devnet's launchpad, whose factory sits at Base's real address (the log is the
    // factory's: what the rpc-mode daemon's adapters watch).
    const tokens = buyer.tokens
    for (const { launchpad, slug, creator, factory } of launchpads) {
      const launched = await runCli<DevnetLaunchResult>(devnetDataDir, [
        'devnet',
        'launch',
        '--launchpad',
        launchpad,
        '--creator',
        creator,
        '--name',
        slug,
        '--symbol',
        slug.slice(0, 3).toUpperCase(),
      ])
      expect(launched.code, launched.stdout + launched.stderr).toBe(0)
      const receipt = await rpc<{ logs: Array<{ address: string }> }>('eth_getTransactionReceipt', [launched.json.txHash])
      expect(receipt.logs.map((log) => getAddress(log.address))).toContain(factory)
      tokens.set(slug, getAddress(launched.json.token))
    }

    // The rpc-mode daemon sees each launch, binds it to its project and buys.
    const orders = await until(
      async () => {
        const listed = (await api(url, 'GET', `${PUBLIC}/orders`, { key })).body.data as Array<Record<string, unknown>>
        const done = listed.filter((o) => o.status === 'filled' || o.status === 'failed')
        return done.length === launchpads.length ? done : undefined
      },
      120_000,
      'the three orders to be filled',
    )
    let spent = 0n
    for (const { slug } of launchpads) {
      const order = orders.find((o) => o.slug === slug)!
      expect(order.status, JSON.stringify(order)).toBe('filled')
      const execution = order.execution as {
        spentUsdc: string
        tokensReceived: string
        feeTokens: string
        txHash: string
        batch?: { chain: string; contract: string; batchId: string }
      }
      expect(parseUnits(execution.spentUsdc, 6), slug).toBeGreaterThan(0n)
      expect(parseUnits(execution.spentUsdc, 6), slug).toBeLessThanOrEqual(50_000_000n)
      expect(BigInt(execution.tokensReceived), slug).toBeGreaterThan(0n)
      expect(BigInt(execution.feeTokens), slug).toBeGreaterThan(0n)
      spent += parseUnits(execution.spentUsdc, 6)
      // On chain: the bought tokens are in the buyer's wallet and the platform fee (in the token) at feeRecipient. A
      // wallet whose approval of the batch buyer landed before the launch bought in a batch (executeBatch on our
      // PrebuyBatchBuyer, its tokens credited by the sweep in the next blocks: waited for on the chain); one without
      // bought through the bundler's handleOps on Base's EntryPoint. Either way from the bundler account.
      const token = tokens.get(slug)!
      const buy = await rpc<{ from: string; to: string }>('eth_getTransactionByHash', [execution.txHash])
      expect(getAddress(buy.from), slug).toBe(getAddress(bundler))
      if (execution.batch) {
        expect(getAddress(buy.to), slug).toBe(getAddress(execution.batch.contract))
        expect(getAddress(execution.batch.contract), slug).toBe(
          batchBuyerAddress(serviceBatchBuyerArgs(buyRouterAddress(BASE_DEFAULT_ADDRESSES.poolManager), getAddress(bundler))),
        )
        await until(async () => ((await balanceOf(token, FEE_RECIPIENT)) > 0n ? true : undefined), 60_000, `${slug}'s batch swept`)
      } else {
        expect(getAddress(buy.to), slug).toBe(BASE_DEFAULT_ADDRESSES.entryPoint)
      }
      expect(await balanceOf(token, wallet), slug).toBe(BigInt(execution.tokensReceived))
      expect(await balanceOf(token, FEE_RECIPIENT), slug).toBe(BigInt(execution.feeTokens))
    }
    // The spend came out of the wallet's USDC, and the wallet view lists each token next to what is left.
    expect(await usdcOf(wallet)).toBe(250_000_000n - spent)
    const view = (await api(url, 'GET', `${PUBLIC}/wallet`, { key })).body.balances.base as Array<{ address: string; balance: string }>
    expect(view[0]).toMatchObject({ address: BASE_DEFAULT_ADDRESSES.stablecoin, balance: (250_000_000n - spent).toString() })
    for (const { slug } of launchpads) {
      const held = view.find((entry) => getAddress(entry.address) === tokens.get(slug))
      expect(held?.balance, slug).toBe((orders.find((o) => o.slug === slug)!.execution as { tokensReceived: string }).tokensReceived)
    }
  })

  it('the buyer withdraws a bought token to its own address (one UserOperation through the bundler)', async () => {
    const token = buyer.tokens.get('orbit')!
    const held = await balanceOf(token, buyer.wallet)
    const to = privateKeyToAccount(generatePrivateKey()).address
    const withdrawal = await api(url, 'POST', `${PUBLIC}/wallet/withdrawals`, {
      key: buyer.key,
      body: { chain: 'base', tokenAddress: token, withdrawAddress: to, amount: 'max' },
    })
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(200)
    expect(withdrawal.body).toMatchObject({ chain: 'base', tokenAddress: token, withdrawAddress: to, amount: held.toString() })
    expect(await balanceOf(token, to)).toBe(held)
    expect(await balanceOf(token, buyer.wallet)).toBe(0n)
  })

  it('restarted, it finds its contracts at once (no warning), is ready, and fills an order on the next launch', async () => {
    daemon!.process.kill('SIGTERM')
    expect(await daemon!.exited).toBe(0)
    const port = await freePortPair()
    daemon = await startDaemonProcess(dataDir, port, { PREBUY_PASSPHRASE: 'rpc mode end to end passphrase' })
    url = `http://127.0.0.1:${port}`
    expect(daemon.output()).not.toContain('our contracts are not deployed')
    const { status, body } = await readyzUntil((s) => s === 200, 90_000)
    expect(status, JSON.stringify(body)).toBe(200)
    // What was filled before the restart is still there.
    const before = (await api(url, 'GET', `${PUBLIC}/orders`, { key: buyer.key })).body.data as Array<{ slug: string; status: string }>
    expect(before.map((o) => [o.slug, o.status]).sort()).toEqual([
      ['drift', 'filled'],
      ['orbit', 'filled'],
      ['zenith', 'filled'],
    ])
    const creator = privateKeyToAccount(generatePrivateKey()).address
    const id = await registrationId('nova')
    const approved = await runCli(dataDir, [
      'registrations',
      'approve',
      id,
      '--slug',
      'nova',
      '--creator',
      creator,
      '--launchpad',
      'clanker',
      '--chain',
      'base',
      '--symbol',
      'NOVA',
    ])
    expect(approved.code, approved.stdout + approved.stderr).toBe(0)
    const placed = await api(url, 'POST', `${PUBLIC}/orders`, {
      key: buyer.key,
      body: { items: [{ slug: 'nova', maxSpendUsdc: '20', maxFdvUsdc: null, expiresInMs: 600_000 }] },
    })
    expect(placed.body.results, JSON.stringify(placed.body)).toEqual([{ slug: 'nova', ok: true, status: 'created' }])
    const launched = await runCli<DevnetLaunchResult>(devnetDataDir, ['devnet', 'launch', '--launchpad', 'clanker', '--creator', creator, '--symbol', 'NOVA'])
    expect(launched.code, launched.stdout + launched.stderr).toBe(0)
    const order = await until(
      async () => {
        const listed = (await api(url, 'GET', `${PUBLIC}/orders`, { key: buyer.key })).body.data as Array<Record<string, unknown>>
        const found = listed.find((o) => o.slug === 'nova')
        return found?.status === 'filled' || found?.status === 'failed' ? found : undefined
      },
      120_000,
      'the order placed after the restart to be filled',
    )
    expect(order.status, JSON.stringify(order)).toBe('filled')
    const execution = order.execution as { tokensReceived: string; feeTokens: string }
    expect(await balanceOf(getAddress(launched.json.token), buyer.wallet)).toBe(BigInt(execution.tokensReceived))
    expect(await balanceOf(getAddress(launched.json.token), FEE_RECIPIENT)).toBe(BigInt(execution.feeTokens))
  })
})

/** A buyer's API key, requested over the public API and approved by the operator with the CLI. */
async function approvedBuyerKey(name: string): Promise<string> {
  expect((await api(url, 'POST', `${PUBLIC}/api-key-requests`, { body: keyRequest(name) })).status).toBe(200)
  const listed = await runCli<{ items: Array<{ id: string; submission: { projectName: string } }> }>(dataDir, ['key-requests', 'list'])
  const request = listed.json.items.find((entry) => entry.submission.projectName === name)!
  const approved = await runCli<{ key: { apiKey: string } }>(dataDir, ['key-requests', 'approve', request.id, '--label', `${name.toLowerCase()}-buyer`])
  expect(approved.code).toBe(0)
  return approved.json.key.apiKey
}

/** A project registered over the public API; its id in the operator's review list. */
async function registrationId(name: string): Promise<string> {
  const registration = {
    projectName: name,
    projectUrls: [`https://${name.toLowerCase()}.example`],
    projectInfo: `${name} launches a token.`,
    contact: `@${name.toLowerCase()}`,
    email: `team@${name.toLowerCase()}.example`,
  }
  expect((await api(url, 'POST', `${PUBLIC}/projects`, { body: registration })).status).toBe(200)
  const listed = await runCli<{ items: Array<{ id: string; submission: { projectName: string } }> }>(dataDir, ['registrations', 'list'])
  return listed.json.items.find((item) => item.submission.projectName === name)!.id
}

/** Polls `probe` until it returns something truthy, within a deadline (a condition, not a sleep). */
async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const chainClient = () => createPublicClient({ transport: http(baseRpcUrl) })
const balanceOf = (token: Address, owner: Address): Promise<bigint> =>
  chainClient().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
const usdcOf = (owner: Address): Promise<bigint> => balanceOf(BASE_DEFAULT_ADDRESSES.stablecoin, owner)
async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  return chainClient().request({ method, params } as never) as Promise<T>
}

const keyRequest = (name: string) => ({
  useCases: ['buying_pre_launch_tokens'],
  projectName: name,
  projectUrls: [`https://${name.toLowerCase()}.example`],
  projectInfo: `${name} wants to buy.`,
  contact: `@${name.toLowerCase()}`,
})
