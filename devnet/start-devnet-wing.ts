import type { FastifyInstance } from 'fastify'
import { createPublicClient, createWalletClient, formatEther, http, type Address } from 'viem'
import type { DevnetSetup, EmbeddedDevnet, StartEmbeddedDevnetOptions } from '../daemon/embedded-devnet.ts'
import { CHAIN_KEYS, type ChainConfig, type ChainKey } from '../src/chain/chain-keys.ts'
import { chainFromConfig } from '../src/chain/clients.ts'
import type { Logger } from '../src/common/logger.ts'
import { devnetAdapterOptions } from '../src/launchpads/create-adapters.ts'
import { devnetKnownPools } from '../src/launchpads/known-launch-pools.ts'
import { createDevnetOperations } from './admin/devnet-operations.ts'
import { devnetRoutes } from './admin/devnet-routes.ts'
import { devnetAccount } from './chain/devnet-accounts.ts'
import { fundAccount } from './chain/faucet.ts'
import { startDevnet } from './chain/start-devnet.ts'
import { devnetClankerDevBuySetup } from './launchpads/devnet-dev-buy-setup.ts'
import { ensureDevnetLaunchpads } from './launchpads/devnet-launchpads.ts'

/** The bundler EOA pays every handleOps; on devnet it is topped up from anvil's funded accounts at start. */
const DEVNET_BUNDLER_MIN_ETH = 10n * 10n ** 18n
const DEVNET_BUNDLER_TOP_UP = '100'

/**
 * The devnet wing's entry point, the only one the daemon calls (through daemon/start-embedded-devnet.ts): starts the
 * two anvil chains with their fixtures; `prepare` then deploys, before any part of the daemon starts, everything the
 * daemon needs on them and hands it over as values (DevnetSetup).
 */
export async function startDevnetWing(options: StartEmbeddedDevnetOptions): Promise<EmbeddedDevnet> {
  // Automine until the daemon has deployed what it needs (startBlocks): at 200 ms blocks each deployment waited for the
  // block clock, and on a loaded 2-core machine the launchpads and our contracts took a minute and one start in three
  // timed out (an anvil busy mining five blocks a second on each chain while both were deploying). A transaction per
  // block is deterministic and takes a few seconds at any load.
  const devnet = await startDevnet({
    dataDir: options.dataDir,
    blockTime: 'auto',
    stateDumpSeconds: options.stateDumpSeconds,
    logger: options.logger,
    onFatal: options.onFatal,
  })
  let bundlers: Record<ChainKey, Address> | undefined
  return {
    chains: devnet.chains,

    async prepare(prepareOptions): Promise<DevnetSetup> {
      bundlers = prepareOptions.bundlers
      const chains = devnet.chains
      await fundBundlers(chains, prepareOptions.senders ?? prepareOptions.bundlers, options.logger)
      // Both chains at once: each deploys its launchpads (one block per transaction) from the launchpads account.
      const launchpads = await Promise.all(CHAIN_KEYS.map((key) => ensureDevnetLaunchpads(options.dataDir, chains[key], devnetAccount('launchpads').account)))
      const deployer = devnetAccount('serviceContracts').account
      return {
        launchpads: Object.fromEntries(
          CHAIN_KEYS.map((key, i) => [key, devnetAdapterOptions(chains[key].addresses, launchpads[i]!)]),
        ) as DevnetSetup['launchpads'],
        knownPools: Object.fromEntries(CHAIN_KEYS.map((key, i) => [key, devnetKnownPools(launchpads[i]!)])),
        devBuy: Object.fromEntries(CHAIN_KEYS.map((key, i) => [key, devnetClankerDevBuySetup(chains[key], launchpads[i]!.clanker)])),
        contractsDeployer: (key) => createWalletClient({ chain: chainFromConfig(chains[key]), account: deployer, transport: http(chains[key].rpcUrl) }),
      }
    },

    async startBlocks() {
      await devnet.setBlockTime(options.blockTime)
      options.logger.info({ blockTime: options.blockTime }, 'devnet chains on their block time')
    },

    adminRoutes(app: FastifyInstance) {
      const known = bundlers
      if (!known) throw new Error('the devnet admin routes need the bundlers: call prepare first')
      devnetRoutes(app, createDevnetOperations({ devnet, wallets: { bundlerAddress: (key) => known[key] }, dataDir: options.dataDir }))
    },

    stop: () => devnet.stop(),
  }
}

/** Tops up every sender account (the bundler and the others of wallet.senderAccounts) on each chain. */
async function fundBundlers(chains: Record<ChainKey, ChainConfig>, accounts: Record<ChainKey, Address | readonly Address[]>, logger: Logger): Promise<void> {
  await Promise.all(
    CHAIN_KEYS.map(async (key) => {
      const client = createPublicClient({ transport: http(chains[key].rpcUrl) })
      const addresses: readonly Address[] = typeof accounts[key] === 'string' ? [accounts[key]] : accounts[key]
      // One after another on a chain: the faucet's transactions share its account's nonces.
      for (const address of addresses) {
        const balance = await client.getBalance({ address })
        if (balance >= DEVNET_BUNDLER_MIN_ETH) continue
        await fundAccount(chains[key], address, { eth: DEVNET_BUNDLER_TOP_UP })
        logger.info({ chain: key, bundler: address, eth: DEVNET_BUNDLER_TOP_UP, had: formatEther(balance) }, 'funded the devnet bundler')
      }
    }),
  )
}
