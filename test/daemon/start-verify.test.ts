import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createTestClient, createWalletClient, getAddress, http, type Address, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChainCheckError } from '../../src/chain/chain-check-error.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import { silentLogger } from '../../src/common/logger.ts'
import { loadConfig } from '../../src/config/index.ts'
import { ensureDevnetLaunchpads } from '../../devnet/launchpads/devnet-launchpads.ts'
import { buyRouterAddress, ensureBuyRouter } from '../../daemon/executor/ensure-buy-router.ts'
import { startDaemon } from '../../daemon/start-daemon.ts'
import { verifyChains } from '../../daemon/chain/verify-chains.ts'
import { CHECK_WALLET_OWNER } from '../../daemon/chain/chain-expectation.ts'
import { KERNEL_ECDSA_VALIDATOR_ADDRESS, KERNEL_META_FACTORY_ADDRESS } from '../../src/chain/canonical-addresses.ts'
import { kernelAccountAddress } from '../../src/wallets/accounts/kernel-account-address.ts'
import { freePortPair, REPO_ROOT } from './helpers.ts'

/**
 * Start-up in `chains.mode: "rpc"` against a real anvil devnet, every address given explicitly: it refuses a chain
 * that is not the configured one (each kind of mismatch its own test) before anything is written, and starts on the
 * right one.
 */

const PASS = { PREBUY_PASSPHRASE: 'start-verify test passphrase' }
const FEE_RECIPIENT = '0x000000000000000000000000000000000000fee1'
/** An address nothing is deployed at on the devnet. */
const NOWHERE = getAddress('0x00000000000000000000000000000000deadc0de')
/** Where a copy of the wallet factory's code is placed: its immutables name the original's implementation. */
const COPIED_FACTORY = getAddress('0x00000000000000000000000000000000000fac70')

let root: string
let devnet: Devnet

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'prebuy-start-verify-'))
  devnet = await startDevnet({ dataDir: join(root, 'devnet'), blockTime: 'auto' })
  // In rpc mode Base's launchpad factories are indexed on base, so start-up wants code there: the devnet launchpads
  // are deployed with their factories at those real addresses, as the daemon's devnet start does.
  await ensureDevnetLaunchpads(join(root, 'devnet'), devnet.chains.base, devnet.accounts[8]!.account)
}, 240_000)

afterAll(async () => {
  await devnet?.stop()
  await rm(root, { recursive: true, force: true })
})

const chainSection = (chain: ChainConfig, addresses: Partial<Record<string, Address>> = {}, from: ChainConfig = chain, wsFrom: ChainConfig = from) => ({
  rpcUrl: from.rpcUrl,
  wsUrl: wsFrom.wsUrl,
  addresses: { ...chain.addresses, ...addresses },
})

/** An rpc-mode config.json naming the devnet's chains and every address; `base` may be changed. */
async function rpcDataDir(
  base: { addresses?: Partial<Record<string, Address>>; from?: ChainKey; wsFrom?: ChainKey; accountKind?: 'simple' | 'kernel' } = {},
): Promise<string> {
  const dataDir = await mkdtemp(join(root, 'daemon-'))
  const chains = devnet.chains
  await writeFile(
    join(dataDir, 'config.json'),
    JSON.stringify({
      chains: {
        mode: 'rpc',
        base: chainSection(chains.base, base.addresses, chains[base.from ?? 'base'], chains[base.wsFrom ?? base.from ?? 'base']),
        second_chain: { chainId: chains.second_chain.chainId, ...chainSection(chains.second_chain) },
      },
      feeRecipient: FEE_RECIPIENT,
      logLevel: 'warn',
      ...(base.accountKind ? { wallet: { accountKind: base.accountKind } } : {}),
    }),
  )
  return dataDir
}

/** Starts a daemon in-process on the data dir; resolves with the error it refused to start with. */
async function refusal(dataDir: string): Promise<ChainCheckError> {
  const port = await freePortPair()
  const config = await loadConfig({ flags: { dataDir, port }, env: PASS })
  try {
    const daemon = await startDaemon(config, { logger: silentLogger })
    await daemon.stop()
  } catch (error) {
    expect(error).toBeInstanceOf(ChainCheckError)
    expect((error as Error).message).not.toContain('\n')
    // Refused before anything was written: no key store, no database, no daemon.json.
    expect((await readdir(dataDir)).sort()).toEqual(['config.json'])
    return error as ChainCheckError
  }
  throw new Error('the daemon started')
}

describe('daemon start-up in rpc mode verifies the chain it is given', () => {
  it('refuses a wrong chain id: base pointed at a node on another chain', async () => {
    const error = await refusal(await rpcDataDir({ from: 'second_chain' }))
    expect(error.message).toBe(`chain check failed: base: eth_chainId: the node is on chain ${devnet.chains.second_chain.chainId}, the configuration says 8453`)
  })

  it('refuses a WebSocket URL that leads to another chain', async () => {
    const error = await refusal(await rpcDataDir({ wsFrom: 'second_chain' }))
    expect(error.message).toBe(
      `chain check failed: base: eth_chainId over wsUrl: the WebSocket node is on chain ${devnet.chains.second_chain.chainId}, the configuration says 8453`,
    )
  })

  it('refuses a missing contract: an address with no code', async () => {
    const error = await refusal(await rpcDataDir({ addresses: { stateView: NOWHERE } }))
    expect(error.message).toBe(`chain check failed: base: stateView at ${NOWHERE}: no contract there (no code at this address on this chain)`)
  })

  it('refuses a wallet factory that derives other addresses than the daemon computes', async () => {
    // The factory's code copied to another address: it still answers getAddress, but from its original's implementation.
    const factory = devnet.chains.base.addresses.accountFactory!
    const rpc = createPublicClient({ transport: http(devnet.chains.base.rpcUrl) })
    const testClient = createTestClient({ mode: 'anvil', transport: http(devnet.chains.base.rpcUrl) })
    await testClient.setCode({ address: COPIED_FACTORY, bytecode: (await rpc.getCode({ address: factory }))! })
    const error = await refusal(await rpcDataDir({ addresses: { accountFactory: COPIED_FACTORY } }))
    expect(error.message).toMatch(
      new RegExp(
        `^chain check failed: base: accountFactory at ${COPIED_FACTORY}: derives wallet 0x[0-9a-fA-F]{40} for owner 0x[0-9a-fA-F]{40}, the daemon computes 0x[0-9a-fA-F]{40} \\(not the canonical SimpleAccountFactory v0.7\\?\\)$`,
      ),
    )
  })

  it('with Kernel wallets, refuses a meta-factory that derives other addresses, and a Kernel contract missing', async () => {
    const rpc = createPublicClient({ transport: http(devnet.chains.base.rpcUrl) })
    const testClient = createTestClient({ mode: 'anvil', transport: http(devnet.chains.base.rpcUrl) })
    const restore = async (address: Address, code: `0x${string}` | undefined) => testClient.setCode({ address, bytecode: code ?? '0x' })
    const metaFactoryCode = await rpc.getCode({ address: KERNEL_META_FACTORY_ADDRESS })
    // A "meta-factory" answering every call with one other address: PUSH2 0x0bad PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN.
    await testClient.setCode({ address: KERNEL_META_FACTORY_ADDRESS, bytecode: '0x610bad60005260206000f3' })
    try {
      const error = await refusal(await rpcDataDir({ accountKind: 'kernel' }))
      expect(error.message).toBe(
        `chain check failed: base: Kernel meta-factory at ${KERNEL_META_FACTORY_ADDRESS}: derives wallet ${getAddress('0x0000000000000000000000000000000000000bad')} for owner ${CHECK_WALLET_OWNER}, the daemon computes ${kernelAccountAddress(CHECK_WALLET_OWNER)} (not Kernel v3.1 at its canonical addresses?)`,
      )
    } finally {
      await restore(KERNEL_META_FACTORY_ADDRESS, metaFactoryCode)
    }
    const validatorCode = await rpc.getCode({ address: KERNEL_ECDSA_VALIDATOR_ADDRESS })
    await testClient.setCode({ address: KERNEL_ECDSA_VALIDATOR_ADDRESS, bytecode: '0x' })
    try {
      const error = await refusal(await rpcDataDir({ accountKind: 'kernel' }))
      expect(error.message).toBe(
        `chain check failed: base: Kernel ECDSA validator at ${KERNEL_ECDSA_VALIDATOR_ADDRESS}: no contract there (no code at this address on this chain)`,
      )
    } finally {
      await restore(KERNEL_ECDSA_VALIDATOR_ADDRESS, validatorCode)
    }
  })

  it("refuses a stablecoin whose decimals are not the daemon's", async () => {
    const weth = devnet.chains.base.addresses.weth
    const error = await refusal(await rpcDataDir({ addresses: { stablecoin: weth } }))
    expect(error.message).toBe(`chain check failed: base: stablecoin at ${weth}: decimals() is 18, the daemon assumes 6`)
  })

  it('prebuy daemon start prints the one line and exits 1', async () => {
    const dataDir = await rpcDataDir({ from: 'second_chain' })
    const port = await freePortPair()
    const child = spawn('node', [join(REPO_ROOT, 'bin', 'run.js'), 'daemon', 'start', '--data-dir', dataDir, '--port', String(port)], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...PASS, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // 'close': the process has exited and its output has been read to the end.
    const [code] = (await once(child, 'close')) as [number | null]
    expect(code).toBe(1)
    expect(stderr).toBe(
      `prebuy: cannot start: chain check failed: base: eth_chainId: the node is on chain ${devnet.chains.second_chain.chainId}, the configuration says 8453\n`,
    )
  })

  it('the devnet passes the same check (a self-check of its deployment)', async () => {
    await verifyChains([devnet.chains.base, devnet.chains.second_chain], { realLaunchpads: false })
  })

  it('starts when everything is as configured', async () => {
    // Beyond the devnet's fixtures: our buy router (the daemon would run without buying until it is deployed).
    const clients = {} as Record<ChainKey, PublicClient>
    for (const key of ['base', 'second_chain'] as const) {
      const chain = devnet.chains[key]
      clients[key] = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient
      const routerThere = async () => ((await clients[key].getCode({ address: buyRouterAddress(chain.addresses.poolManager) })) ?? '0x') !== '0x'
      expect(await routerThere()).toBe(false)
      const walletClient = createWalletClient({ chain: chainFromConfig(chain), account: devnet.accounts[3]!.account, transport: http(chain.rpcUrl) })
      await ensureBuyRouter({ publicClient: clients[key], walletClient, poolManager: chain.addresses.poolManager })
      expect(await routerThere()).toBe(true)
    }

    const dataDir = await rpcDataDir()
    // The daemon passes config.json's CORS allowlist to its public listener (the behaviour itself: test/api/cors.test.ts).
    const configFile = join(dataDir, 'config.json')
    await writeFile(configFile, JSON.stringify({ ...JSON.parse(await readFile(configFile, 'utf8')), cors: { origins: ['https://app.example'] } }))
    const port = await freePortPair()
    const config = await loadConfig({ flags: { dataDir, port }, env: PASS })
    const daemon = await startDaemon(config, { logger: silentLogger })
    try {
      expect(daemon.chains.base.chainId).toBe(8453)
      const health = await fetch(`${daemon.url}/healthz`)
      expect(health.status).toBe(200)
      const preflight = await fetch(`${daemon.url}/api/public/v1/orders`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example')
    } finally {
      await daemon.stop()
    }
  })
})
