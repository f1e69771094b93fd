import { createPublicClient, type Address, type PublicClient } from 'viem'
import type { FastifyInstance } from 'fastify'
import { buildAdminApp } from './admin/build-admin-app.ts'
import { createConsoleFeed } from './events/console-feed.ts'
import { createQueueSizes } from './health/queue-sizes.ts'
import { PREBUY_VERSION } from '../src/common/version.ts'
import { chainBlockSeconds } from '../src/chain/block-seconds.ts'
import { createJournal } from '../src/journal/journal.ts'
import { createServiceOperations } from './admin/service-operations.ts'
import type { AdminOperations } from './admin/admin-operations.ts'
import { refuseDisabledChains } from './admin/refuse-disabled-chains.ts'
import { wireDevBuy } from '../src/launch-methods/dev-buy/wire-dev-buy.ts'
import { wireOpenMarket } from '../src/launch-methods/open-market/wire-open-market.ts'
import { wirePooledOtc } from '../src/launch-methods/pooled-otc/wire-pooled-otc.ts'
import { wireVesting } from '../src/launch-methods/vesting/wire-vesting.ts'
import type { LaunchMethodSetup } from '../src/launch-methods/worker/wired-launch-method.ts'
import type { BackgroundWorker } from './workers/background-worker.ts'
import { createContractsOperations } from './chain/contracts-operations.ts'
import { type ContractsWatch, missingContracts, type OurContractState, watchOurContracts } from './chain/contracts-watch.ts'
import { type OurContract, ourContracts } from './chain/our-contracts.ts'
import { enabledChainKeys } from '../src/chain/enabled-chains.ts'
import { createOwnerChangeWorker } from './workers/owner-change-worker.ts'
import { removeDaemonFile, writeDaemonFile } from './process/daemon-file.ts'
import { makeDataDirPrivate } from './process/make-data-dir-private.ts'
import { createProbeHeads, createReadinessProbe } from './health/readiness-probe.ts'
import type { SocketState } from '../src/sync/realtime-sync.ts'
import { startBundlerWatch } from './health/bundler-watch.ts'
import { createDaemonMetrics } from './health/metrics/daemon-metrics.ts'
import { createExecutorTickTimes } from './health/metrics/executor-tick-times.ts'
import { createPriceQuoteTally } from './health/metrics/price-quote-tally.ts'
import { assertPortsFree, listenError } from './process/assert-ports-free.ts'
import { verifyChains } from './chain/verify-chains.ts'
import { trackForGracefulClose } from './process/track-for-graceful-close.ts'
import { ensureOperatorToken } from './process/ensure-operator-token.ts'
import { assertNoOtherDaemon } from './process/assert-no-other-daemon.ts'
import { buildHttpApp } from './http/build-http-app.ts'
import { CHAIN_KEYS, type ChainConfig, type ChainKey } from '../src/chain/chain-keys.ts'
import type { DevnetSetup, EmbeddedDevnet } from './embedded-devnet.ts'
import { startEmbeddedDevnet } from './start-embedded-devnet.ts'
import type { Logger } from '../src/common/logger.ts'
import type { PrebuyConfig } from '../src/config/config.ts'
import { describeConfig } from '../src/config/describe-config.ts'
import { toPriorityFeePolicy } from '../src/config/priority-fee-config.ts'
import { senderAccountsOf } from '../src/config/config-schema.ts'
import { externalBundlerUrls, rpcChainConfigs } from '../src/config/rpc-chain-configs.ts'
import { createServices, type Services } from '../src/services/services.ts'
import { migrateStore } from './store/migrate-store.ts'
import { rollForwardCommittedBatches } from './executor/roll-forward-batches.ts'
import { openStore, type Store } from '../src/store/open-store.ts'
import { backupStream } from '../src/store/backup/backup-stream.ts'
import { createWalletService, type PrebuyWalletService } from '../src/wallets/create-wallet-service.ts'
import { openKeyStore } from '../src/wallets/keys/key-store.ts'
import { rpcHttp } from '../src/chain/rpc-http.ts'

export interface RunningDaemon {
  /** Public API base URL (http://host:port). */
  url: string
  /** Admin API base URL (always loopback). */
  adminUrl: string
  chains: Record<ChainKey, ChainConfig>
  /** Graceful: stop accepting, finish in-flight requests, stop workers, close the store, stop the chains. Idempotent. */
  stop(): Promise<void>
}

/** Start-up steps in order, with a title for progress displays (`prebuy daemon start` in a terminal). */
export const START_STEPS = {
  chains: 'Start the chains',
  verify: 'Verify the chains',
  wallets: 'Open the wallet key store',
  store: 'Open the store',
  workers: 'Start the indexer and executor',
  publicApi: 'Listen: public API',
  adminApi: 'Listen: admin API (loopback)',
} as const
export type StartStep = keyof typeof START_STEPS

export interface StartDaemonOptions {
  logger: Logger
  /** Told when each start-up step begins. */
  onStep?: (step: StartStep) => void
  /** Aborts start-up between steps (a signal during start-up); what already started is stopped again. */
  signal?: AbortSignal
  /**
   * Called once when the daemon stopped itself because a part it depends on died (a devnet chain that crashed more
   * often than its supervisor restarts it, a background worker). The daemon is already stopped; the caller exits.
   */
  onFatal?: (error: Error) => void
}

/**
 * Composes and starts the daemon: chains (devnet or RPC), wallets, store, services, the public API on host:port, the
 * admin API on 127.0.0.1:adminPort, background workers; then announces itself in `<data-dir>/daemon.json`.
 * If any step fails, everything already started is stopped again before the error is rethrown.
 */
export async function startDaemon(config: PrebuyConfig, options: StartDaemonOptions): Promise<RunningDaemon> {
  const logger = options.logger
  const startedAt = new Date()
  await makeDataDirPrivate(config.dataDir)
  await assertNoOtherDaemon(config.dataDir)
  await assertPortsFree([
    { host: config.host, port: config.port, what: 'public API' },
    { host: '127.0.0.1', port: config.adminPort, what: 'admin API' },
  ])
  logger.info({ config: describeConfig(config) }, 'starting prebuy daemon')

  // Undo stack: each started part pushes its stop; shutdown (or a failed start) pops them in reverse.
  const undo: Array<{ name: string; stop: () => Promise<void> }> = []
  let stopping: Promise<void> | undefined
  let fatalBeforeReady: Error | undefined
  let ready = false

  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      while (undo.length > 0) {
        const part = undo.pop()!
        try {
          await part.stop()
          logger.debug({ part: part.name }, 'stopped')
        } catch (error) {
          logger.error({ err: error, part: part.name }, 'failed to stop cleanly')
        }
      }
    })()
    return stopping
  }

  const fail = (error: Error): void => {
    if (!ready) {
      fatalBeforeReady ??= error
      return
    }
    logger.fatal({ err: error }, `stopping the daemon: ${error.message}`)
    void stop().then(() => options.onFatal?.(error))
  }

  try {
    const step = (name: StartStep) => {
      if (options.signal?.aborted) throw new Error('start-up interrupted')
      options.onStep?.(name)
    }
    // Chains.
    step('chains')
    let chains: Record<ChainKey, ChainConfig>
    let devnet: EmbeddedDevnet | undefined
    if (config.chains.mode === 'devnet') {
      // The devnet wing (devnet/), loaded only here: it starts the chains and, once the wallets exist, prepares them.
      devnet = await startEmbeddedDevnet({
        dataDir: config.dataDir,
        blockTime: config.chains.blockTime,
        stateDumpSeconds: config.chains.stateDumpSeconds,
        logger,
        onFatal: (error) => fail(new Error(`a devnet chain crashed and could not be restarted: ${error.message}`)),
      })
      undo.push({ name: 'devnet', stop: () => devnet!.stop() })
      chains = devnet.chains
    } else {
      chains = rpcChainConfigs(config.chains)
    }
    if (fatalBeforeReady) throw fatalBeforeReady

    // The chains are the ones configured (chain ids, code at every address used, the stablecoin's decimals, the ETH/USD
    // pool, the wallet derivation, the node's eth_call and batch support) before anything is written or shown; on devnet
    // the same check is a self-check of the deployment. docs/chains.md, "What start-up checks".
    step('verify')
    // Only the enabled chains: a chain left out of the rpc config is never read. Our own contracts are not checked
    // here: the daemon runs without buying until they are deployed (the contracts watch below).
    const enabled = enabledChainKeys(chains)
    await verifyChains(
      enabled.map((key) => chains[key]),
      { realLaunchpads: config.chains.mode === 'rpc', zoraEthPool: config.launches.zoraEthPool, accountKind: config.wallet.accountKind },
    )

    // Wallets: the key store decrypts the master secret with the passphrase; nothing here is logged.
    step('wallets')
    const keys = await openKeyStore({ dataDir: config.dataDir, passphrase: config.passphrase })
    const wallets: PrebuyWalletService = createWalletService({
      chains,
      keys,
      accountKind: config.wallet.accountKind,
      deployAhead: config.wallet.deployAhead,
      withdrawals: config.withdrawals,
      bundler: { priorityFee: toPriorityFeePolicy(config.wallet.priorityFee) },
      senderAccounts: senderAccountsOf(config),
      logger,
      ...(config.chains.mode === 'rpc' ? { externalBundlerUrls: externalBundlerUrls(config.chains) } : {}),
    })
    // On devnet: the bundlers funded and everything the daemon's parts use deployed now, handed over as values.
    const devnetSetup: DevnetSetup | undefined = devnet ? await devnet.prepare(devnetFunding(wallets)) : undefined

    // Store and services.
    step('store')
    const store: Store = await openStore({ dataDir: config.dataDir })
    undo.push({ name: 'store', stop: () => store.close() })
    await migrateStore(store)
    // A batch committed before its sends whose orders' moves were never written (killed between the two writes):
    // its orders move to executing now, before the API can edit them or any tick runs (docs/execution.md §8).
    await rollForwardCommittedBatches({ store, journal: createJournal(store), log: logger.child({ component: 'executor' }), pruneUnnamedPrepared: true })
    // Pooled OTC: this service's settlement contract per chain (deployed on devnet), read through one client per chain.
    // Only the enabled chains (as above).
    const otcClients = Object.fromEntries(
      enabled.map((key) => [key, createPublicClient({ transport: rpcHttp(chains[key].rpcUrl, { retryCount: 2 }), pollingInterval: 250 })]),
    ) as Record<ChainKey, PublicClient>
    // The launch methods, one wiring entry each (src/launch-methods/<method>/wire-<method>.ts): their chain sides now,
    // for the services; their contracts when the workers start (on a real chain that waits until they are deployed).
    const methodSetup: LaunchMethodSetup = {
      chains,
      clients: otcClients,
      operator: wallets.bundlerAddress('base'),
      feeRecipient: config.feeRecipient,
      ...(devnetSetup ? { devnet: devnetSetup } : {}),
      logger,
    }
    const vesting = wireVesting(methodSetup)
    const pooledOtc = wirePooledOtc(methodSetup, vesting)
    const devBuy = wireDevBuy(methodSetup, vesting)
    const launchMethods = [wireOpenMarket(), vesting, pooledOtc, devBuy]
    const services: Services = createServices({
      store,
      wallets,
      otcChain: pooledOtc.otcChain,
      devBuyChain: devBuy.devBuyChain,
      vestingChain: vesting.vestingChain,
      logger,
      ownerChangeNoticeMs: config.ownerChanges.noticeHours * 3_600_000,
      readCode: async (chain, address) => (enabled.includes(chain) ? otcClients[chain].getCode({ address }) : undefined),
      sharedDeployers: config.launches.sharedDeployers,
    })

    // Background workers, in start order (stopped in reverse): the executor, then the launch indexer that feeds it.
    step('workers')
    const { heads, sockets, onSocket } = sharedChainState(chains)
    const priceQuotes = createPriceQuoteTally()
    const tickTimes = createExecutorTickTimes()
    const devnetPart = devnetSetup ? { devnet: devnetSetup } : {}
    const workerContext = { config, chains, store, services, wallets, logger, fail, heads, onSocket, priceQuotes, tickTimes, ...devnetPart }
    /** Started once, at start-up or (real chains) once our contracts are deployed; a worker is never started after stop. */
    const startWorkers = async (): Promise<void> => {
      const started = async (worker: Pick<BackgroundWorker, 'name' | 'start' | 'stop'>) => {
        if (stopping) return
        await worker.start()
        undo.push({ name: worker.name, stop: () => worker.stop() })
        // stop() began while it started: it has already passed this worker, so stop it here.
        if (stopping) await worker.stop()
      }
      // On devnet the devnet's deployer puts them there now; on a real chain they are there (the watch saw them). One
      // after another: on devnet one deployer account sends them. A method that needs another's contract (the vesting
      // contract, for pooled OTC and dev buy) awaits it itself, so this order hides no dependency.
      for (const method of launchMethods) {
        if (stopping) return
        await method.resolve()
      }
      // On devnet the chains ran on automine for the deployments above; blocks on the configured clock from here on,
      // before any worker subscribes to them.
      if (stopping) return
      await devnet?.startBlocks()
      const workers: BackgroundWorker[] = launchMethods.flatMap((method) => method.workers(workerContext))
      for (const worker of workers) await started(worker)
    }
    // Owner changes coming into force read only the store: started at once, whether or not our contracts are there.
    const ownerChangeWorker = createOwnerChangeWorker({ services, logger })
    await ownerChangeWorker.start()
    undo.push({ name: ownerChangeWorker.name, stop: () => ownerChangeWorker.stop() })
    // Our own contracts: on devnet the devnet's deployer puts them there at start (nothing watched); on a real chain the
    // operator deploys them (`prebuy contracts deploy`) and the daemon waits, watching every one of them.
    const ours = devnet ? {} : ourContractsPerChain(chains, enabled, wallets, config.feeRecipient)
    const contractsWatch = watchOurContracts({ contracts: ours, clients: otcClients, logger })
    undo.push({ name: 'contracts watch', stop: async () => contractsWatch.stop() })
    if (devnet) await startWorkers()
    else await startWorkersOnceDeployed({ watch: contractsWatch, startWorkers, stopping: () => stopping !== undefined, fail, logger })

    // Metrics (served on the admin listener), then the public API they time.
    const blockSeconds = Object.fromEntries(enabled.map((key) => [key, chainBlockSeconds(config.chains, key)]))
    const readiness = createReadinessProbe({ store, chains, heads, blockSeconds, ...(devnet ? {} : { contracts: () => contractsWatch.refresh() }) })
    const bundlerWatch = startBundlerWatch({ chains, ...senderAccountsOfService(wallets), lowEth: config.wallet.bundlerLowEth, logger })
    undo.push({ name: 'bundler watch', stop: async () => bundlerWatch.stop() })
    const metrics = createDaemonMetrics({ store, readiness, bundlers: () => bundlerWatch.latest(), websockets: () => sockets, priceQuotes, tickTimes })
    undo.push({ name: 'metrics', stop: async () => metrics.stop() })

    // Public API.
    step('publicApi')
    const publicApp: FastifyInstance = await buildHttpApp({ store, services, wallets, logger, config: httpConfigOf(config), readiness, metrics: metrics.http })
    const publicServer = trackForGracefulClose(publicApp)
    await listen(publicApp, config.host, config.port, 'public API')
    const publicEntry = { name: 'public API', stop: () => publicServer.close() }
    undo.push(publicEntry)
    const url = `http://${urlHost(config.host)}:${config.port}`

    // Admin API, loopback only whatever `host` is: the operator token is the only guard.
    step('adminApi')
    const adminUrl = `http://127.0.0.1:${config.adminPort}`
    const operatorToken = await ensureOperatorToken(config.dataDir)
    const queueSizes = createQueueSizes(store)
    const operations: AdminOperations = refuseDisabledChains(
      createServiceOperations({
        services,
        status: async () => ({
          version: PREBUY_VERSION,
          pid: process.pid,
          url,
          adminUrl,
          dataDir: config.dataDir,
          startedAt: startedAt.toISOString(),
          uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
          chains: {
            mode: config.chains.mode,
            chainIds: Object.fromEntries(enabled.map((key) => [key, chains[key].chainId])),
            disabled: CHAIN_KEYS.filter((key) => !enabled.includes(key)),
          },
          bundlers: await bundlerWatch.check(),
          contracts: await contractsWatch.refresh(),
          readiness: await readiness(),
          queues: await queueSizes(),
        }),
        backup: () => backupStream(store, config.dataDir),
      }),
      enabled,
    )
    const events = createConsoleFeed({ store, journal: createJournal(store) })
    const adminApp = buildAdminApp({
      operations,
      operatorToken,
      logger,
      metrics: metrics.registry,
      events,
      ...(devnet ? { devnetRoutes: devnet.adminRoutes } : {}),
      contracts: createContractsOperations({
        devnet: devnet !== undefined,
        ours,
        chains,
        clients: otcClients,
        deployer: () => keys.bundlerSigner(),
        watch: contractsWatch,
        logger,
      }),
    })
    const adminServer = trackForGracefulClose(adminApp)
    await listen(adminApp, '127.0.0.1', config.adminPort, 'admin API')
    // From here both servers stop together: neither accepts new requests while the other drains its in-flight ones.
    undo.splice(undo.indexOf(publicEntry), 1)
    undo.push({ name: 'HTTP servers', stop: async () => void (await Promise.all([publicServer.close(), adminServer.close()])) })
    // Event streams never finish on their own: ended first, so the servers' drain does not wait for them.
    undo.push({ name: 'event streams', stop: async () => events.close() })

    if (options.signal?.aborted) throw new Error('start-up interrupted')
    await writeDaemonFile(config.dataDir, { pid: process.pid, url, adminUrl, startedAt: startedAt.toISOString() })
    undo.push({ name: 'daemon.json', stop: () => removeDaemonFile(config.dataDir) })
    if (fatalBeforeReady) throw fatalBeforeReady
    ready = true
    logger.info({ url, adminUrl, chains: config.chains.mode }, 'prebuy daemon ready')
    return { url, adminUrl, chains, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Our contracts on each enabled real chain (our-contracts.ts), with this service's bundler and fee recipient as arguments. */
function ourContractsPerChain(
  chains: Record<ChainKey, ChainConfig>,
  enabled: readonly ChainKey[],
  wallets: Pick<PrebuyWalletService, 'bundlerAddress'>,
  feeRecipient: Address,
): Partial<Record<ChainKey, OurContract[]>> {
  return Object.fromEntries(enabled.map((key) => [key, ourContracts(chains[key], { operator: wallets.bundlerAddress(key), feeRecipient })]))
}

/**
 * Real chains: starts the workers now if our contracts are all there; otherwise logs what is missing and what to run,
 * and starts them (without a restart) the first time the watch sees them all. The daemon runs without buying until then.
 */
async function startWorkersOnceDeployed(deps: {
  watch: ContractsWatch
  startWorkers: () => Promise<void>
  stopping: () => boolean
  fail: (error: Error) => void
  logger: Logger
}): Promise<void> {
  const initial = await deps.watch.refresh()
  if (deps.watch.complete()) return deps.startWorkers()
  logMissingContracts(deps.logger, missingContracts(initial))
  void deps.watch.whenComplete
    .then(async () => {
      if (deps.stopping()) return
      deps.logger.info('our contracts are deployed: starting the indexer and executor')
      await deps.startWorkers()
    })
    .catch((error: unknown) => deps.fail(error instanceof Error ? error : new Error(String(error))))
}

/** The start-up line that says what is missing and what to run (real chains, before `prebuy contracts deploy`). */
function logMissingContracts(logger: Logger, missing: Partial<Record<ChainKey, OurContractState[]>>): void {
  for (const [chain, list] of Object.entries(missing)) {
    if (list.every((c) => c.deployed === null)) {
      logger.warn({ chain }, `could not read whether our contracts are deployed on ${chain}: the daemon does not buy until it sees them (retried)`)
      continue
    }
    logger.warn(
      { chain, missing: list.map((c) => ({ name: c.name, address: c.address, deployed: c.deployed })) },
      `our contracts are not deployed on ${chain} (${list.map((c) => c.name).join(', ')}): the daemon runs but does not buy until they are; fund the bundler account and run \`prebuy contracts deploy --chain ${chain}\``,
    )
  }
}

async function listen(app: FastifyInstance, host: string, port: number, what: string): Promise<void> {
  try {
    await app.listen({ host, port })
  } catch (error) {
    await app.close().catch(() => undefined)
    throw listenError(error as NodeJS.ErrnoException, { host, port, what })
  }
}

const urlHost = (host: string): string => (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host)

/** RPC budget: the indexer's sync shares each chain's head with the readiness probe, and reports its websockets. */
function sharedChainState(chains: Record<ChainKey, ChainConfig>) {
  const heads = createProbeHeads(chains)
  const sockets: Partial<Record<ChainKey, SocketState>> = {}
  const onSocket = (chain: ChainKey, state: SocketState): void => {
    sockets[chain] = state
  }
  return { heads, sockets, onSocket }
}

/** What the public listener takes from the daemon's config. */
function httpConfigOf(config: PrebuyConfig) {
  return {
    rateLimit: config.rateLimits,
    trustProxy: config.trustProxy,
    requestLogPerMinute: config.requestLogPerMinute,
    corsOrigins: config.cors.origins,
  }
}

/** Every sender account of each chain, the bundler first (wallet.senderAccounts): each is watched for its ETH. */
const senderAccountsOfService = (wallets: Pick<PrebuyWalletService, 'bundlerAddress' | 'senderAddresses'>) => ({
  bundlerAddress: (chain: ChainKey) => wallets.bundlerAddress(chain),
  senderAddresses: (chain: ChainKey) => wallets.senderAddresses(chain),
})

/** What the devnet funds before the daemon starts: the bundler and every other sender account of each chain. */
const devnetFunding = (wallets: Pick<PrebuyWalletService, 'bundlerAddress' | 'senderAddresses'>) => ({
  bundlers: Object.fromEntries(CHAIN_KEYS.map((key) => [key, wallets.bundlerAddress(key)])) as Record<ChainKey, Address>,
  senders: Object.fromEntries(CHAIN_KEYS.map((key) => [key, wallets.senderAddresses(key)])) as Record<ChainKey, Address[]>,
})
