import { lacksSecondFact } from '../../src/domain/launches/judge-launch.ts'
import { projectsIn } from '../../src/store/project-index.ts'
import { BASE_KNOWN_POOLS } from '../../src/launchpads/known-launch-pools.ts'
import type { KnownLaunchPools } from '../../src/domain/launches/known-launch-pools.ts'
import { createPublicClient, webSocket, zeroAddress, type Address, type PublicClient } from 'viem'
import { chainBlockSeconds } from '../../src/chain/block-seconds.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { enabledChainKeys } from '../../src/chain/enabled-chains.ts'
import { chainFromConfig, createReadClient } from '../../src/chain/clients.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { createJournal } from '../../src/journal/journal.ts'
import { BASE_LAUNCHPADS, createLaunchpadAdapters, type CreateLaunchpadAdaptersOptions } from '../../src/launchpads/create-adapters.ts'
import type { LaunchpadAdapter } from '../../src/launchpads/launchpad-adapter.ts'
import { BASE_ZORA_TOKEN } from '../../src/launchpads/zora/zora-route.ts'
import { buyRouterAddress, ensureBuyRouter } from '../executor/ensure-buy-router.ts'
import { batchBuyerAddress, serviceBatchBuyerArgs } from '../executor/batch-buyer-address.ts'
import { ensureBatchBuyer } from '../executor/ensure-batch-buyer.ts'
import { startExecutor, type Executor } from '../executor/start-executor.ts'
import { startIndexer, type Indexer } from '../indexer/start-indexer.ts'
import { createTickBus } from '../indexer/tick-bus.ts'
import type { BackgroundWorker, WorkerContext } from './background-worker.ts'
import type { StateFallback } from '../../src/chain/latest-state-fallback.ts'
import type { Logger } from '../../src/common/logger.ts'

/**
 * The daemon's launch indexer and order executor as background workers, sharing one tick bus. Returned executor
 * first: it subscribes before the indexer publishes anything, and on shutdown (reverse order) the indexer stops first
 * while the executor finishes what it has in flight.
 */
export function createLaunchWorkers(context: WorkerContext): BackgroundWorker[] {
  const log = context.logger.child({ component: 'launch-workers' })
  const bus = createTickBus()
  const journal = createJournal(context.store)
  const devnet = context.devnet
  // Only the chains the daemon runs on (a chain left out of the rpc config is never read, indexed or bought on).
  const enabled = enabledChainKeys(context.chains)
  const clients = Object.fromEntries(
    enabled.map((key) => [
      key,
      createReadClient(context.chains[key], {
        onStateFallback: stateFallbackLog(log, key),
        onBatchFallback: ({ method }) =>
          log.warn({ chain: key, method }, 'the provider refused a batch of reads: every read is one request from now on (slower launches)'),
      }),
    ]),
  ) as Record<ChainKey, PublicClient>
  let executor: Executor | undefined
  let indexer: Indexer | undefined
  const sockets: PublicClient[] = []

  async function adapterOptionsOf(chain: ChainConfig): Promise<CreateLaunchpadAdaptersOptions | undefined> {
    const { poolManager, weth } = chain.addresses
    // The devnet's imitations, deployed by the devnet before the workers start.
    if (devnet) return devnet.launchpads[chain.key]
    // Real chains: Base's published launchpads (and the operator's ZORA route); the second chain has none configured yet.
    if (chain.key !== 'base') return undefined
    const zoraEthPool = context.config.launches.zoraEthPool
    const zora = { ...BASE_LAUNCHPADS.zora, ...(zoraEthPool ? { route: { zora: BASE_ZORA_TOKEN, ethPool: zoraEthPool } } : {}) }
    return { ...BASE_LAUNCHPADS, poolManager, weth, zora, v4Quoter: chain.addresses.v4Quoter, multicall3: chain.addresses.multicall3 }
  }

  /**
   * The launchpads' known pool configurations on a chain: the devnet's own, or Base's published ones where every listed
   * contract has code (a chain serving Base's factories at their addresses without Base's hooks, a devnet in rpc mode,
   * is not checked: said once in the log).
   */
  async function knownPoolsOf(chain: ChainConfig): Promise<KnownLaunchPools | undefined> {
    if (devnet) return devnet.knownPools?.[chain.key]
    if (chain.key !== 'base') return undefined
    const listed = Object.values(BASE_KNOWN_POOLS).flatMap((c) => [...(c?.hooks ?? []), ...(c?.feeModules ?? [])].filter((a) => a !== zeroAddress))
    const codes = await Promise.all(listed.map((address) => clients[chain.key].getCode({ address: address as Address }).catch(() => undefined)))
    if (codes.every((code) => code !== undefined && code !== '0x')) return BASE_KNOWN_POOLS
    log.warn({ chain: chain.key }, "Base's known launch pool contracts are not all on this chain: launches at an expected address are not checked against them")
    return undefined
  }

  async function routerOf(chain: ChainConfig): Promise<Address> {
    if (devnet) {
      return ensureBuyRouter({
        publicClient: clients[chain.key],
        walletClient: devnet.contractsDeployer(chain.key),
        poolManager: chain.addresses.poolManager,
      })
    }
    const address = buyRouterAddress(chain.addresses.poolManager)
    const code = await clients[chain.key].getCode({ address })
    if (!code || code === '0x') {
      throw new PrebuyError('buy_router_missing', `PrebuyBuyRouter is not deployed on ${chain.key} at ${address}; deploy it (see docs/execution.md)`)
    }
    return address
  }

  /**
   * The batch buyer of a chain (one swap per block for every approved wallet, docs/execution.md §8): deployed on the
   * devnet at start like the router, its admin and operator the service's bundler EOA. On a real chain, where it is
   * (or will be, once `prebuy contracts deploy` ran; the start-up check says so): wallets approve it ahead only where
   * it has code, and a wallet without an approval buys through its own UserOperation.
   */
  async function batchBuyerOf(chain: ChainConfig, router: Address): Promise<Address> {
    const bundler = context.wallets.bundlerAddress(chain.key)
    if (!devnet) return batchBuyerAddress(serviceBatchBuyerArgs(router, bundler))
    return ensureBatchBuyer({ publicClient: clients[chain.key], walletClient: devnet.contractsDeployer(chain.key), router, bundler })
  }

  const executorWorker: BackgroundWorker = {
    name: 'executor',
    async start() {
      const routers = await Promise.all(enabled.map((key) => routerOf(context.chains[key])))
      const buyRouters = Object.fromEntries(enabled.map((key, i) => [key, routers[i]!])) as Record<ChainKey, Address>
      const batchAddresses = await Promise.all(enabled.map((key, i) => batchBuyerOf(context.chains[key], routers[i]!)))
      const batchBuyers = Object.fromEntries(enabled.map((key, i) => [key, batchAddresses[i]!])) as Partial<Record<ChainKey, Address>>
      executor = await startExecutor({
        store: context.store,
        journal,
        wallets: context.wallets,
        chains: context.chains,
        clients,
        buyRouters,
        batchBuyers,
        feeRecipient: context.config.feeRecipient,
        // A batch's last block and its finality depth are counted in the chain's blocks (batch-deadline.ts).
        blockSeconds: Object.fromEntries(enabled.map((key) => [key, chainBlockSeconds(context.config.chains, key)])),
        ticks: bus,
        logger: context.logger,
        // The executor stopped itself (a committed batch's orders could not be moved): the daemon stops too, so that a
        // restart rolls the batch forward rather than the API and the indexer running on without an executor.
        onFailStop: (failure) => context.fail(new Error(failure.message)),
        ...(context.priceQuotes ? { onQuoteDisagreement: context.priceQuotes.onDisagreement, onQuoteFailure: context.priceQuotes.onFailure } : {}),
        ...(context.tickTimes ? { onTick: context.tickTimes.onTick } : {}),
      })
      log.info({ buyRouters, batchBuyers }, 'executor started')
    },
    async stop() {
      await executor?.stop()
    },
  }

  const indexerWorker: BackgroundWorker = {
    name: 'indexer',
    async start() {
      // Both chains at once.
      const prepared = await Promise.all(
        enabled.map(async (key) => {
          const chain = context.chains[key]
          const options = await adapterOptionsOf(chain)
          const adapters: LaunchpadAdapter[] = options ? Object.values(createLaunchpadAdapters(options)) : []
          if (adapters.length === 0) {
            log.warn({ chain: key }, 'no launchpads configured on this chain; not indexing it')
            return undefined
          }
          const wsClient = createPublicClient({ chain: chainFromConfig(chain), transport: webSocket(chain.wsUrl, { retryCount: 3 }) }) as PublicClient
          sockets.push(wsClient)
          const knownPools = await knownPoolsOf(chain)
          return { chain, client: clients[key], wsClient, adapters, blockSeconds: chainBlockSeconds(context.config.chains, key), knownPools }
        }),
      )
      const chains = prepared.filter((c): c is NonNullable<typeof c> => c !== undefined)
      indexer = await startIndexer({
        store: context.store,
        journal,
        chains,
        ticks: bus,
        logger: context.logger,
        sharedDeployers: context.config.launches.sharedDeployers,
        ...(context.heads ? { onHead: context.heads.observe } : {}),
        ...(context.onSocket ? { onSocket: context.onSocket } : {}),
      })
      log.info({ chains: chains.map((c) => c.chain.key) }, 'indexer started')
      // Projects approved before the two-fact binding (issue 22), or without a second fact: said once, by name.
      for (const { chain } of chains) {
        const bare = (await projectsIn(context.store, chain.key, 'waiting')).filter(lacksSecondFact)
        if (bare.length > 0) {
          log.warn(
            { chain: chain.key, slugs: bare.map((p) => p.slug) },
            'waiting projects with no second fact (symbol or expected token): their launches wait for `prebuy launches confirm`; record one with `prebuy projects update <slug> --symbol S`',
          )
        }
      }
    },
    async stop() {
      await indexer?.stop()
      // The new-head sockets would otherwise stay open (and reconnect) after the daemon stopped.
      await Promise.all(
        sockets.map(async (client) => {
          const transport = client.transport as { getRpcClient?: () => Promise<{ close(): void }> }
          await transport
            .getRpcClient?.()
            .then((rpc) => rpc.close())
            .catch(() => undefined)
        }),
      )
    },
  }

  return [executorWorker, indexerWorker]
}

/** A warning the first time (and then at most once a minute) a chain's reads fall back to the latest state. */
function stateFallbackLog(log: Logger, chain: ChainKey): (fallback: StateFallback) => void {
  let lastWarned = Number.NEGATIVE_INFINITY
  let since = 0
  return (fallback) => {
    since++
    if (Date.now() - lastWarned < 60_000) return
    lastWarned = Date.now()
    log.warn(
      { chain, method: fallback.method, block: fallback.requested, reads: since },
      'the node cannot serve the state of an older block (catching up after downtime, or a pruned node): reading the latest state instead',
    )
    since = 0
  }
}
