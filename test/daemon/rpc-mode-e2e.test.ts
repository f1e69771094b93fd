import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createTestClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DaemonStatus, DeployContractsResult } from '../../src/admin-api/contract.ts'
import { Wallet } from '../../src/api/schemas.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { BASE_LAUNCHPADS } from '../../src/launchpads/create-adapters.ts'
import { api, freePortPair, runCli, startDaemonProcess, type SpawnedDaemon } from './helpers.ts'

/**
 * `chains.mode: "rpc"` end to end: a daemon process pointed at a real anvil devnet over RPC, as an operator runs one on
 * Base. The devnet does not sit at Base's canonical addresses yet, so its addresses are passed explicitly; the second
 * chain is left out (disabled). The daemon starts without our contracts, says what is missing (log, `daemon status`,
 * `/readyz`), and becomes ready without a restart once `prebuy contracts deploy` has put them on chain.
 */
const PUBLIC = '/api/public/v1'
const FEE_RECIPIENT = '0x000000000000000000000000000000000000fee2'
let devnetDir: string
let dataDir: string
let devnet: Devnet
let daemon: SpawnedDaemon | undefined
let url: string

beforeAll(async () => {
  devnetDir = await mkdtemp(join(tmpdir(), 'prebuy-rpc-devnet-'))
  dataDir = await mkdtemp(join(tmpdir(), 'prebuy-rpc-daemon-'))
  devnet = await startDevnet({ dataDir: devnetDir, blockTime: 1 })
  const base = devnet.chains.base
  // Start-up checks Base's launchpad factories (indexed on base in rpc mode); the devnet deploys its own elsewhere
  // (until it places them at the real addresses): any contract's code stands in for them, as in start-verify.test.ts.
  const testClient = createTestClient({ mode: 'anvil', transport: http(base.rpcUrl) })
  const someCode = (await createPublicClient({ transport: http(base.rpcUrl) }).getCode({ address: base.addresses.stablecoin }))!
  const launchpads = [BASE_LAUNCHPADS.clanker.factory, BASE_LAUNCHPADS.doppler.airlock, BASE_LAUNCHPADS.zora.factory]
  for (const address of [...launchpads, BASE_LAUNCHPADS.clankerV5.factory, BASE_LAUNCHPADS.clankerV5.hook]) {
    await testClient.setCode({ address, bytecode: someCode })
  }
  await writeFile(
    join(dataDir, 'config.json'),
    JSON.stringify({
      chains: { mode: 'rpc', base: { chainId: base.chainId, rpcUrl: base.rpcUrl, wsUrl: base.wsUrl, addresses: base.addresses } },
      feeRecipient: FEE_RECIPIENT,
      wallet: { accountKind: 'simple' },
    }),
  )
  const port = await freePortPair()
  daemon = await startDaemonProcess(dataDir, port, { PREBUY_PASSPHRASE: 'rpc mode end to end passphrase' })
  url = `http://127.0.0.1:${port}`
}, 180_000)

afterAll(async () => {
  if (daemon && daemon.process.exitCode === null && daemon.process.signalCode === null) {
    daemon.process.kill('SIGTERM')
    await daemon.exited
  }
  await devnet?.stop()
  await rm(dataDir, { recursive: true, force: true })
  await rm(devnetDir, { recursive: true, force: true })
})

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

const CONTRACTS = ['PrebuyBuyRouter', 'PrebuyVesting', 'PrebuyOtcSettlement', 'PrebuyDevBuyCoordinator']

describe('a daemon in rpc mode on a chain without our contracts, second chain disabled', () => {
  let bundler: string

  it('starts anyway and says at start what is missing and what to run', () => {
    const output = daemon!.output()
    expect(output).toContain('our contracts are not deployed on base')
    expect(output).toContain('prebuy contracts deploy --chain base')
    expect(output).not.toMatch(/disabled-chain\.invalid/)
  })

  it('daemon status shows the bundler address, the missing contracts and the disabled chain', async () => {
    const status = await runCli<DaemonStatus>(dataDir, ['daemon', 'status'])
    expect(status.code).toBe(0)
    expect(status.json.chains).toEqual({ mode: 'rpc', chainIds: { base: devnet.chains.base.chainId }, disabled: ['second_chain'] })
    expect(Object.keys(status.json.bundlers)).toEqual(['base'])
    bundler = status.json.bundlers.base!.address
    expect(bundler).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(status.json.contracts.base!.map((c) => [c.name, c.deployed])).toEqual(CONTRACTS.map((name) => [name, false]))
    expect(Object.keys(status.json.contracts)).toEqual(['base'])
    expect(status.json.readiness.ready).toBe(false)
    const human = await runCli(dataDir, ['daemon', 'status'], { human: true })
    expect(human.code).toBe(0)
    expect(human.stdout).toContain(bundler)
    expect(human.stdout).toMatch(/Contracts: {2}base MISSING PrebuyBuyRouter 0x[0-9a-fA-F]{40}/)
    expect(human.stdout).toContain('disabled: second_chain')
  })

  it('/readyz answers 503 naming the missing contracts and never waits for the disabled chain', async () => {
    const { status, body } = await readyzUntil(() => true, 0)
    expect(status).toBe(503)
    expect(body.message).toContain('base: our contracts are not deployed (PrebuyBuyRouter at 0x')
    expect(body.message).toContain('run `prebuy contracts deploy --chain base`')
    expect(body.message).not.toContain('second_chain')
    expect(body.checks).toMatchObject({ contracts: { base: 'missing' } })
    expect(Object.keys((body.checks as { chains: object }).chains)).toEqual(['base'])
  })

  it('refuses to deploy while the bundler account has no ETH, and names the account to fund', async () => {
    const refused = await runCli<{ error: { message: string; status: number } }>(dataDir, ['contracts', 'deploy', '--chain', 'base'])
    expect(refused.code).not.toBe(0)
    expect(refused.json.error.status).toBe(503)
    expect(refused.json.error.message).toContain(`The bundler account ${bundler} has too little ETH on base to deploy PrebuyBuyRouter: fund it`)
  })

  it('refuses a chain the daemon does not run on', async () => {
    const refused = await runCli<{ error: { message: string; status: number } }>(dataDir, ['contracts', 'deploy', '--chain', 'second_chain'])
    expect(refused.code).not.toBe(0)
    expect(refused.json.error).toEqual({ status: 400, message: 'This daemon does not run on second_chain: it is disabled in its configuration.' })
  })

  it('prebuy contracts deploy puts them on chain from the funded bundler account, then finds them already there', async () => {
    await jsonRpc(devnet.chains.base.rpcUrl, 'anvil_setBalance', [bundler, '0x8AC7230489E80000']) // 10 ETH
    const first = await runCli<DeployContractsResult>(dataDir, ['contracts', 'deploy', '--chain', 'base'])
    expect(first.code).toBe(0)
    expect(first.json.deployer).toBe(bundler)
    expect(first.json.contracts.map((c) => [c.name, c.status])).toEqual(CONTRACTS.map((name) => [name, 'deployed']))
    for (const contract of first.json.contracts) {
      const code = await jsonRpc<string>(devnet.chains.base.rpcUrl, 'eth_getCode', [contract.address, 'latest'])
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
    expect(daemon!.output()).toContain('our contracts are deployed: starting the indexer and executor')
  })

  it('a wallet lists only the chains the daemon runs on; a withdrawal naming the disabled chain is refused with chain_disabled', async () => {
    expect((await api(url, 'POST', `${PUBLIC}/api-key-requests`, { body: keyRequest('Rpc') })).status).toBe(200)
    const listed = await runCli<{ items: Array<{ id: string; submission: { projectName: string } }> }>(dataDir, ['key-requests', 'list'])
    const request = listed.json.items.find((entry) => entry.submission.projectName === 'Rpc')!
    const approved = await runCli<{ key: { apiKey: string } }>(dataDir, ['key-requests', 'approve', request.id, '--label', 'rpc-buyer'])
    expect(approved.code).toBe(0)
    const key = approved.json.key.apiKey
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
    const registration = (name: string) => ({
      projectName: name,
      projectUrls: [`https://${name.toLowerCase()}.example`],
      projectInfo: `${name} launches a token.`,
      contact: `@${name.toLowerCase()}`,
      email: `team@${name.toLowerCase()}.example`,
    })
    expect((await api(url, 'POST', `${PUBLIC}/projects`, { body: registration('Elsewhere') })).status).toBe(200)
    const listed = await runCli<{ items: Array<{ id: string; submission: { projectName: string } }> }>(dataDir, ['registrations', 'list'])
    const id = listed.json.items.find((item) => item.submission.projectName === 'Elsewhere')!.id
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
})

const keyRequest = (name: string) => ({
  useCases: ['buying_pre_launch_tokens'],
  projectName: name,
  projectUrls: [`https://${name.toLowerCase()}.example`],
  projectInfo: `${name} wants to buy.`,
  contact: `@${name.toLowerCase()}`,
})
