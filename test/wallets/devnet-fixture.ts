import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { PrivateKeyAccount } from 'viem/accounts'
import { createPublicClient, createWalletClient, custom, http, parseUnits, type Address, type Hash, type Hex, type PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { artifacts } from './artifacts.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { createLogger, type Logger } from '../../src/common/logger.ts'
import { createWalletService, type PrebuyWalletService, type WalletServiceDeps } from '../../src/wallets/create-wallet-service.ts'
import { createKeyStore, type KeyStore } from '../../src/wallets/keys/key-store.ts'
import { loadOrCreateMasterSecret } from '../../src/wallets/keys/secret-files.ts'
import type { UserOperationResult } from '../../src/wallets/wallet-service.ts'

/** The transaction a result names (mined, or sent and not mined yet); throws when it names none. */
export function txHashOf(result: UserOperationResult | undefined): Hash {
  if (!result || !('txHash' in result)) throw new Error(`no transaction for this operation (${result?.status ?? 'no result'})`)
  return result.txHash
}

export interface RecordedCall {
  method: string
  /** Lower-cased target of an eth_call. */
  to?: string
  at: number
  /** When its answer came (performance.now()); unset while it reads, or if it failed. */
  answered?: number
}

export interface WalletFixture {
  dataDir: string
  devnet: Devnet
  chains: Record<ChainKey, ChainConfig>
  masterSecret: Uint8Array
  passphrase: string
  keys: KeyStore
  logger: Logger
  /** Every log line the service wrote, for the secrecy test. */
  logLines: string[]
  service: PrebuyWalletService
  clients: Record<ChainKey, PublicClient>
  /** A funded dev account for test transactions (deploying tokens, wrapping ETH). */
  trader: PrivateKeyAccount
  newService(overrides?: Partial<WalletServiceDeps>): PrebuyWalletService
  /** A service whose base client records every RPC it makes (method, eth_call target, start time), in order. */
  recordingService(overrides?: Partial<WalletServiceDeps>): { calls: RecordedCall[]; service: PrebuyWalletService }
  deployToken(chain: ChainKey, name: string, symbol: string, supply: string, recipient: Address): Promise<Address>
  stop(): Promise<void>
}

export async function startWalletFixture(): Promise<WalletFixture> {
  const dataDir = await mkdtemp(join(tmpdir(), 'prebuy-wallets-'))
  let devnet: Devnet
  try {
    devnet = await startDevnet({ dataDir, blockTime: 'auto' })
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  try {
    return await setUp(dataDir, devnet)
  } catch (error) {
    // A failed set-up must not leave chains running or files behind: afterAll only sees a fixture that exists.
    await devnet.stop()
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
}

async function setUp(dataDir: string, devnet: Devnet): Promise<WalletFixture> {
  const passphrase = 'test passphrase, not secret'
  const masterSecret = await loadOrCreateMasterSecret({ dataDir, passphrase, scryptParams: { N: 2 ** 10, r: 8, p: 1 } })
  const keys = createKeyStore(masterSecret)
  const logLines: string[] = []
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk))
      callback()
    },
  })
  const logger = createLogger({ level: 'trace', destination })
  const newService = (overrides: Partial<WalletServiceDeps> = {}) =>
    createWalletService({ chains: devnet.chains, keys, accountKind: 'simple', logger, bundler: { pollingIntervalMs: 50 }, ...overrides })
  const service = newService()
  for (const chain of Object.values(devnet.chains)) await fundAccount(chain, service.bundlerAddress(chain.key), { eth: '1000' })
  const clients = {
    base: createPublicClient({ chain: chainFromConfig(devnet.chains.base), transport: http(devnet.chains.base.rpcUrl), pollingInterval: 50 }),
    second_chain: createPublicClient({
      chain: chainFromConfig(devnet.chains.second_chain),
      transport: http(devnet.chains.second_chain.rpcUrl),
      pollingInterval: 50,
    }),
  } as Record<ChainKey, PublicClient>
  const trader = devnet.accounts[3]!.account

  const deployToken = async (chain: ChainKey, name: string, symbol: string, supply: string, recipient: Address): Promise<Address> => {
    const config = devnet.chains[chain]
    const wallet = createWalletClient({ chain: chainFromConfig(config), account: trader, transport: http(config.rpcUrl) })
    const hash = await wallet.deployContract({
      abi: artifacts.DevnetLaunchToken.abi,
      bytecode: artifacts.DevnetLaunchToken.bytecode as Hex,
      args: [name, symbol, parseUnits(supply, 18), recipient],
    })
    const receipt = await clients[chain].waitForTransactionReceipt({ hash })
    if (!receipt.contractAddress) throw new Error('token deployment failed')
    return receipt.contractAddress
  }

  const recordingService = (overrides: Partial<WalletServiceDeps> = {}) => {
    const calls: RecordedCall[] = []
    const inner = http(devnet.chains.base.rpcUrl)({ retryCount: 0 })
    const client = createPublicClient({
      transport: custom({
        async request({ method, params }) {
          const to = method === 'eth_call' ? String((params as [{ to: string }])[0].to).toLowerCase() : undefined
          const call: RecordedCall = { method, ...(to ? { to } : {}), at: performance.now() }
          calls.push(call)
          const answer = await inner.request({ method, params } as never)
          call.answered = performance.now()
          return answer
        },
      }),
      pollingInterval: 50,
    }) as PublicClient
    return { calls, service: newService({ clients: { base: client }, ...overrides }) }
  }

  return {
    dataDir,
    devnet,
    chains: devnet.chains,
    recordingService,
    masterSecret,
    passphrase,
    keys,
    logger,
    logLines,
    service,
    clients,
    trader,
    newService,
    deployToken,
    async stop() {
      await devnet.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
