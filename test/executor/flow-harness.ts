import type { SmartAccountKind } from '../../src/wallets/accounts/operation-account.ts'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  getAbiItem,
  http,
  toFunctionSelector,
  type Hex,
  keccak256,
  parseUnits,
  stringToHex,
  type Address,
  type PublicClient,
  createPublicClient,
  webSocket,
} from 'viem'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { entryPoint07Abi } from 'viem/account-abstraction'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { chainFromConfig, createReadClient } from '../../src/chain/clients.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import { silentLogger } from '../../src/common/logger.ts'
import type { Launchpad, OrderRecord } from '../../src/domain/records.ts'
import { createJournal, type Journal } from '../../src/journal/journal.ts'
import { createLaunchpadAdapters, devnetAdapterOptions, type LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { devnetKnownPools } from '../../src/launchpads/known-launch-pools.ts'
import { deployDevnetLaunchpads } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { launchToken, type LaunchedToken, type LaunchTokenOptions } from '../../devnet/launchpads/launch-token.ts'
import { createServices, type Services } from '../../src/services/services.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { createWalletService, type PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import { createKeyStore } from '../../src/wallets/keys/key-store.ts'
import { loadOrCreateMasterSecret } from '../../src/wallets/keys/secret-files.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { buyRouterAbi } from '../../daemon/executor/buy-router-abi.ts'
import { ensureBuyRouter } from '../../daemon/executor/ensure-buy-router.ts'
import { ensureBatchBuyer } from '../../daemon/executor/ensure-batch-buyer.ts'
import { startExecutor, type Executor } from '../../daemon/executor/start-executor.ts'
import { startIndexer, type Indexer } from '../../daemon/indexer/start-indexer.ts'
import { createTickBus, type IndexerSignal, type TickBus } from '../../daemon/indexer/tick-bus.ts'

/** Seconds between blocks on the harness chain; the miner stamps every block prev + this. */
export const HARNESS_BLOCK_TIME = 2
const HANDLE_OPS = toFunctionSelector(getAbiItem({ abi: entryPoint07Abi, name: 'handleOps' }))

export interface Buyer {
  keyId: string
  userIndex: number
  wallet: Address
}

/**
 * Every real part of launch execution on the embedded devnet: anvil (manual mining, driven by a miner that stamps
 * each block +2 s), the devnet launchpads and v4 pools, the real wallet service and bundler, the LevelDB store, the
 * services, the indexer and the executor.
 */
export interface FlowHarness {
  dataDir: string
  devnet: Devnet
  chain: ChainConfig
  client: PublicClient
  store: Store
  journal: Journal
  services: Services
  wallets: PrebuyWalletService
  launchpads: LaunchpadAddresses
  buyRouter: Address
  /** The executor's PrebuyBatchBuyer (with the `batchBuyer` option): wallets approve it ahead, approved ones buy in batches. */
  batchBuyer: Address | undefined
  feeRecipient: Address
  bus: TickBus
  signals: IndexerSignal[]
  indexer: Indexer
  executor: Executor
  newBuyer(label: string, usdc: string): Promise<Buyer>
  /** Each buyer's wallet approves the batch buyer for `usdc` (one UserOperation each, through the wallet service; mines). */
  approveBatchBuyer(buyers: readonly Buyer[], usdc: string): Promise<void>
  /**
   * A waiting project bound to `creator` (its deployer; random when omitted) and, as its second fact, the symbol `launch`
   * gives its token (slug.slice(0, 5) upper-cased) unless `binding.expectedSymbol` says otherwise (null: none); optionally
   * with an expected token address.
   */
  newProject(
    slug: string,
    launchpad: Launchpad,
    creator?: Address,
    binding?: { expectedTokenAddress?: Address; expectedSymbol?: string | null; expectedName?: string | null },
  ): Promise<{ slug: string; creator: Address }>
  order(buyer: Buyer, slug: string, maxSpendUsdc: string, maxFdvUsdc: string | null, expiresInMs?: number): Promise<void>
  /** Launches a token naming `creator`; `sender` sends it (default the creator), `salt` fixes its address. */
  launch(
    slug: string,
    launchpad: Launchpad,
    creator: Address,
    options?: Partial<Omit<LaunchTokenOptions, 'chain' | 'addresses' | 'launchpad' | 'creator' | 'name' | 'symbol'>>,
  ): Promise<LaunchedToken>
  getOrder(buyer: Buyer, slug: string): Promise<OrderRecord | undefined>
  usdcOf(address: Address): Promise<bigint>
  tokenBalance(token: Address, address: Address): Promise<bigint>
  /** A third party's buy through the router (moves the price), from a funded dev account. */
  thirdPartyBuy(
    token: Address,
    poolKey: LaunchedToken['poolKey'],
    usdc: string,
    options?: { wait?: boolean; priorityFeeGwei?: bigint; prepared?: boolean },
  ): Promise<`0x${string}`>
  /** Funds the third-party trader and approves the router ahead of time (mines), for a later `prepared` buy. */
  prepareThirdParty(usdc: string): Promise<void>
  /** Whether the bundler has a transaction waiting in the mempool. */
  bundlePending(): Promise<boolean>
  /** The smart accounts whose operations wait in the bundler's pending handleOps transactions. */
  pendingSenders(): Promise<Set<string>>
  /** Mines blocks in the background every `intervalMs` until stopMining. */
  startMining(intervalMs?: number): void
  stopMining(): Promise<void>
  mine(count?: number): Promise<void>
  /**
   * Mines one block at a time until `done`, each processed by the indexer and the executor settled (or something of it
   * sent: pending in the node's pool, from our sender accounts, or from anyone with `pending: 'any'`) before the next:
   * returns how many blocks it took, failing after `most`.
   */
  mineUntil(what: string, done: () => Promise<boolean>, most: number, pending?: 'ours' | 'any'): Promise<number>
  waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs?: number): Promise<T>
  restartExecutor(wallets?: Pick<WalletService, 'walletAddress' | 'submitUserOperations'>): Promise<Executor>
  /** A second wallet service over the same keys and chain, with fresh caches (as after a daemon restart). */
  freshWallets(): PrebuyWalletService
  /** Abandons the executor as a crash would (no waiting for its in-flight work) and starts a new one. */
  /**
   * Stops the executor without waiting (a crash of the process) and starts another on the same store; `store`: the new
   * executor writes through it instead (a test's fault injection around the real store).
   */
  crashExecutor(wallets?: Pick<WalletService, 'walletAddress' | 'submitUserOperations'>, options?: { store?: Store }): Promise<Executor>
  /** Restarts the indexer, optionally reading the chain through another client (fault injection). */
  restartIndexer(client?: PublicClient): Promise<Indexer>
  /** Writes the chain's state file now: a crash from then on keeps every block so far. */
  chainDumped(): Promise<void>
  /**
   * kill -9 of the chain's anvil: its supervisor restarts it on the same port from the last state dump (so it has the
   * blocks up to that dump, but only its head's state), and the harness's manual mining is applied again.
   */
  crashChain(): Promise<void>
  stop(): Promise<void>
}

export interface FlowHarnessOptions {
  /** The client the wallet service (and its bundler) uses on base: the benchmark instruments its transport. */
  walletClient?: (rpcUrl: string) => PublicClient
  /** Passed to the indexer (metrics). */
  onLaunchLogs?: Parameters<typeof startIndexer>[0]['onLaunchLogs']
  /** Passed to the indexer and the executor (per-stage launch timings). */
  onStage?: (stage: string, at: number) => void
  /** Deployers shared by many creators (config launches.sharedDeployers). */
  sharedDeployers?: readonly Address[]
  /** The services' clock (tests move time past a notice period); default the system clock. */
  now?: () => number
  /** The services' notice period of an owner's change (ms); default theirs. */
  ownerChangeNoticeMs?: number
  /** The buyers' smart accounts (wallet.accountKind): default 'simple'; 'kernel' runs the flows on Kernel v3.1. */
  accountKind?: SmartAccountKind
  /**
   * Deploys the service's PrebuyBatchBuyer (the bundler EOA its admin and operator) and gives it to the executor:
   * waiting wallets approve it ahead, approved wallets buy in batches.
   */
  batchBuyer?: boolean
  /**
   * With `batchBuyer`: whether the executor approves it ahead from waiting wallets (default true). A test of the tick
   * path that approves wallets itself (approveBatchBuyer) turns it off, so that which wallets are approved is its own
   * decision and not a race with the readying passes.
   */
  approvalsAhead?: boolean
  /** Sender accounts of the wallet service (wallet.senderAccounts): default 1, the bundler EOA alone; each is funded. */
  senderAccounts?: number
  /**
   * The client the indexer and the executor read the chain through (default the harness's own): the benchmark routes
   * it through the RPC fault proxy to add a provider's latency, while the harness's own reads stay direct.
   */
  daemonClient?: (rpcUrl: string) => PublicClient
  /**
   * The WebSocket URL the indexer's sync subscribes through (newHeads, and the launch logs pushed as hints: chain
   * config `wsUrl`), from the chain's own (anvil serves it on its HTTP port); absent: the indexer polls only, as before.
   * The benchmark routes it through the fault proxy's WebSocket side (same latency as the HTTP side).
   */
  daemonWsUrl?: (wsUrl: string) => string
  /** With daemonWsUrl: whether the pushed launch logs are used as hints (default true; false: the socket wakes only). */
  logHints?: boolean
  /** With daemonWsUrl: the sync's socketSilenceMs (default its own). */
  socketSilenceMs?: number
  /** The executor's maxBuyersPerTransaction (a small value splits a small batch into collects and a settle). */
  maxBuyersPerTransaction?: number
  /** The executor's maxBuysPerTick (default theirs). */
  maxBuysPerTick?: number
  /** The executor's allowancesDirectUpTo (default theirs; 0: a small book's allowances carried as a large one's). */
  allowancesDirectUpTo?: number
  /** The executor's batchDeadline (default 100 blocks to land, final 6 blocks later: see newExecutor). */
  batchDeadline?: { landingBlocks: number; finalityBlocks: number }
  /** The devnet's periodic state dumps (startDevnet `stateDumpSeconds`; default every 2 s): the timing benches turn them off. */
  devnetStateDumps?: number | 'on_stop' | undefined
}

/**
 * A store whose writes (`batch`: every write the executor makes goes through it) are refused once killed; reads are
 * served as before. What a process killed with SIGKILL leaves: its writes already handed to the store land, later ones
 * never do.
 */
function killableStore(target: Store): { store: Store; kill(): void } {
  let dead = false
  const store = new Proxy(target, {
    get(t, prop) {
      if (prop === 'batch')
        return (ops: Parameters<Store['batch']>[0]) => (dead ? Promise.reject(new Error('the executor crashed (test): its write never landed')) : t.batch(ops))
      const value = Reflect.get(t, prop, t)
      return typeof value === 'function' ? value.bind(t) : value
    },
  })
  return { store, kill: () => (dead = true) }
}

/** Closes a webSocket client's socket (viem's transport keeps it open, and reconnects it, until closed). */
function closeSocket(client: PublicClient | undefined): void {
  const transport = client?.transport as { getRpcClient?: () => Promise<{ close(): void }> } | undefined
  void transport
    ?.getRpcClient?.()
    .then((socket) => socket.close())
    .catch(() => undefined)
}

export async function startFlowHarness(options: FlowHarnessOptions = {}): Promise<FlowHarness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'prebuy-flow-'))
  const devnet = await startDevnet({ dataDir, blockTime: 'auto', stateDumpSeconds: options.devnetStateDumps })
  const chain = devnet.chains.base
  // The daemon's read client (state reads the node cannot serve fall back to the latest state).
  const client = createReadClient(chain, { pollingInterval: 50 })
  const masterSecret = await loadOrCreateMasterSecret({ dataDir, passphrase: 'flow test', scryptParams: { N: 2 ** 10, r: 8, p: 1 } })
  const keys = createKeyStore(masterSecret)
  const wallets = createWalletService({
    chains: devnet.chains,
    keys,
    accountKind: options.accountKind ?? 'simple',
    bundler: { pollingIntervalMs: 50 },
    ...(options.senderAccounts ? { senderAccounts: options.senderAccounts } : {}),
    ...(options.walletClient ? { clients: { base: options.walletClient(chain.rpcUrl) } } : {}),
  })
  for (const sender of wallets.senderAddresses('base')) await fundAccount(chain, sender, { eth: '1000' })
  const deployer = devnet.deployer.account
  const launchpads = await deployDevnetLaunchpads(chain, deployer)
  const buyRouter = await ensureBuyRouter({
    publicClient: client,
    walletClient: createWalletClient({ chain: chainFromConfig(chain), account: deployer, transport: http(chain.rpcUrl) }),
    poolManager: chain.addresses.poolManager,
  })
  const batchBuyer = options.batchBuyer
    ? await ensureBatchBuyer({
        publicClient: client,
        walletClient: createWalletClient({ chain: chainFromConfig(chain), account: deployer, transport: http(chain.rpcUrl) }),
        router: buyRouter,
        bundler: wallets.bundlerAddress('base'),
      })
    : undefined
  // From here on blocks come only from the harness miner, each stamped previous + 2 s (Base-like, but fast).
  const manualMining = async () => {
    await jsonRpc(chain.rpcUrl, 'evm_setAutomine', [false])
    await jsonRpc(chain.rpcUrl, 'evm_setIntervalMining', [0])
    await jsonRpc(chain.rpcUrl, 'anvil_setBlockTimestampInterval', [HARNESS_BLOCK_TIME])
  }
  await manualMining()

  const store = await openStore({ dataDir })
  const journal = createJournal(store)
  const services = createServices({
    store,
    wallets,
    ...(options.now ? { now: options.now } : {}),
    ...(options.ownerChangeNoticeMs === undefined ? {} : { ownerChangeNoticeMs: options.ownerChangeNoticeMs }),
  })
  const feeRecipient = privateKeyToAccount(generatePrivateKey()).address
  const bus = createTickBus()
  const signals: IndexerSignal[] = []
  bus.subscribe((signal) => signals.push(signal))
  const adapters = Object.values(createLaunchpadAdapters(devnetAdapterOptions(chain.addresses, launchpads)))
  const startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
  const daemonClient = options.daemonClient?.(chain.rpcUrl) ?? client
  const wsUrl = options.daemonWsUrl?.(chain.wsUrl)
  let wsClient: PublicClient | undefined
  const newIndexer = (indexerClient: PublicClient = daemonClient) => {
    // A new socket per indexer (a restarted indexer subscribes again), the old one closed.
    closeSocket(wsClient)
    wsClient = wsUrl ? (createPublicClient({ chain: chainFromConfig(chain), transport: webSocket(wsUrl, { retryCount: 3 }) }) as PublicClient) : undefined
    return startIndexer({
      store,
      journal,
      chains: [{ chain, client: indexerClient, wsClient, adapters, startBlock, knownPools: devnetKnownPools(launchpads) }],
      ...(options.logHints === undefined ? {} : { logHints: options.logHints }),
      ...(options.socketSilenceMs === undefined ? {} : { socketSilenceMs: options.socketSilenceMs }),
      retryDelayMs: 100,
      ticks: bus,
      logger: silentLogger,
      confirmations: 6,
      pollingIntervalMs: 30,
      blockTimeSeconds: HARNESS_BLOCK_TIME,
      ...(options.sharedDeployers ? { sharedDeployers: options.sharedDeployers } : {}),
      ...(options.onLaunchLogs ? { onLaunchLogs: options.onLaunchLogs } : {}),
      ...(options.onStage ? { onStage: options.onStage } : {}),
    })
  }
  // The running executor's store, whose writes `crashExecutor` cuts off (killableStore).
  let executorWrites = killableStore(store)
  const newExecutor = (w: Pick<WalletService, 'walletAddress' | 'submitUserOperations'> = wallets, executorStore: Store = store) => {
    executorWrites = killableStore(executorStore)
    return startExecutor({
      store: executorWrites.store,
      journal,
      wallets: w,
      chains: devnet.chains,
      clients: { base: daemonClient, second_chain: daemonClient },
      buyRouters: { base: buyRouter, second_chain: buyRouter },
      ...(batchBuyer ? { batchBuyers: { base: batchBuyer }, approvalsAhead: options.approvalsAhead ?? true } : {}),
      feeRecipient,
      ticks: bus,
      logger: silentLogger,
      // The flows' books are small: prepared ahead anyway, so their launch ticks run on a held book as a large one's does.
      prepareBooksAheadFrom: 0,
      // The miner runs the chain's 2-second clock about ten times faster than the wall clock (a block every ~150 ms): a
      // batch gets 100 blocks (15-20 s of wall time) to land, so a tick slowed by a loaded machine (the 5,000-buyer split
      // bench sent its first collect up to 8.3 s after the launch log, at 200 ms a block) is not refused for its
      // last block; it is final at the indexer's reorg window (confirmations 6 above). Tests of the deadline set their own.
      batchDeadline: options.batchDeadline ?? { landingBlocks: 100, finalityBlocks: 6 },
      ...(options.onStage ? { onStage: options.onStage } : {}),
      ...(options.maxBuyersPerTransaction === undefined ? {} : { maxBuyersPerTransaction: options.maxBuyersPerTransaction }),
      ...(options.maxBuysPerTick === undefined ? {} : { maxBuysPerTick: options.maxBuysPerTick }),
      ...(options.allowancesDirectUpTo === undefined ? {} : { allowancesDirectUpTo: options.allowancesDirectUpTo }),
    })
  }
  let indexer = await newIndexer()
  let executor = await newExecutor()

  let mining: { stop: boolean; done: Promise<void> } | undefined
  const mine = async (count = 1) => {
    for (let i = 0; i < count; i++) await jsonRpc(chain.rpcUrl, 'evm_mine')
  }
  const trader = devnet.accounts[4]!.account

  const harness: FlowHarness = {
    dataDir,
    devnet,
    chain,
    client,
    store,
    journal,
    services,
    wallets,
    launchpads,
    buyRouter,
    batchBuyer,
    feeRecipient,
    bus,
    signals,
    get indexer() {
      return indexer
    },
    get executor() {
      return executor
    },
    async newBuyer(label, usdc) {
      const issued = await services.keys.issueKey(label)
      const wallet = await wallets.walletAddress(issued.record.userIndex)
      if (Number(usdc) > 0) await fundWhileMining(() => fundAccount(chain, wallet, { stablecoin: usdc }))
      return { keyId: issued.record.id, userIndex: issued.record.userIndex, wallet }
    },
    async approveBatchBuyer(buyers, usdc) {
      if (!batchBuyer) throw new Error('the harness was started without a batch buyer')
      const amount = parseUnits(usdc, 6)
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [batchBuyer, amount] })
      const allowanceOf = (b: Buyer) =>
        client.readContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [b.wallet, batchBuyer] })
      // On a loaded machine an operation may miss the bundler's receipt wait: the chain says which approvals are in.
      let missing: readonly Buyer[] = buyers
      for (let round = 0; round < 4 && missing.length > 0; round++) {
        const requests = missing.map((b) => ({ id: `approve-${b.keyId}-${round}`, userIndex: b.userIndex, calls: [{ to: chain.addresses.stablecoin, data }] }))
        await fundWhileMining(() => wallets.submitUserOperations('base', requests))
        const allowances = await Promise.all(missing.map(allowanceOf))
        missing = missing.filter((_b, i) => allowances[i] !== amount)
      }
      if (missing.length > 0) throw new Error(`${missing.length} wallets did not approve the batch buyer`)
    },
    async newProject(slug, launchpad, creator, binding = {}) {
      const who = creator ?? privateKeyToAccount(generatePrivateKey()).address
      await services.projects.createProject({
        slug,
        creatorAddress: who,
        launchpad,
        chain: 'base',
        launchMethod: 'open_market',
        ownerKeyId: null,
        expectedSymbol: slug.slice(0, 5).toUpperCase(),
        ...binding,
      })
      return { slug, creator: who }
    },
    async order(buyer, slug, maxSpendUsdc, maxFdvUsdc, expiresInMs = 3_600_000) {
      const [result] = await services.orders.createOrders(buyer.keyId, [{ slug, maxSpendUsdc, maxFdvUsdc, expiresInMs }])
      if (!result?.ok) throw new Error(`order failed: ${JSON.stringify(result)}`)
    },
    launch: (slug, launchpad, creator, launchOptions = {}) =>
      launchToken({ chain, addresses: launchpads, launchpad, creator, name: `${slug} token`, symbol: slug.slice(0, 5).toUpperCase(), ...launchOptions }),
    getOrder: (buyer, slug) => services.orders.getOrder(buyer.keyId, slug),
    usdcOf: (address) => client.readContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    tokenBalance: (token, address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    async prepareThirdParty(usdc) {
      const amount = parseUnits(usdc, 6)
      await fundWhileMining(() => fundAccount(chain, trader.address, { stablecoin: usdc }))
      const wallet = createWalletClient({ chain: chainFromConfig(chain), account: trader, transport: http(chain.rpcUrl) })
      const hash = await wallet.writeContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'approve', args: [buyRouter, amount] })
      await fundWhileMining(() => client.waitForTransactionReceipt({ hash, pollingInterval: 30 }))
    },
    async thirdPartyBuy(token, poolKey, usdc, options = {}) {
      const amount = parseUnits(usdc, 6)
      const wallet = createWalletClient({ chain: chainFromConfig(chain), account: trader, transport: http(chain.rpcUrl) })
      const fees =
        options.priorityFeeGwei === undefined
          ? {}
          : { maxPriorityFeePerGas: options.priorityFeeGwei * 10n ** 9n, maxFeePerGas: options.priorityFeeGwei * 10n ** 9n * 2n }
      const hashes: Array<`0x${string}`> = []
      if (!options.prepared) {
        await fundWhileMining(() => fundAccount(chain, trader.address, { stablecoin: usdc }))
        hashes.push(
          await wallet.writeContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'approve', args: [buyRouter, amount], ...fees }),
        )
      }
      const buy = await wallet.writeContract({
        address: buyRouter,
        abi: buyRouterAbi,
        functionName: 'buy',
        args: [
          {
            orderId: keccak256(stringToHex(`third-party-${Date.now()}-${Math.random()}`)),
            stablecoin: chain.addresses.stablecoin,
            weth: chain.addresses.weth,
            ethUsdPool: chain.addresses.ethUsdPool,
            bridge: [],
            poolKey,
            token,
            amountIn: amount,
            minTokensOut: 0n,
            feeRecipient: trader.address,
            feeBps: 0n,
          },
        ],
        gas: 3_000_000n,
        ...fees,
      })
      if (options.wait === false) return buy
      if (!mining) await mine()
      for (const hash of [...hashes, buy]) {
        const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 30 })
        if (receipt.status !== 'success') throw new Error('third-party buy reverted')
      }
      return buy
    },
    async bundlePending() {
      const ours = new Set(wallets.senderAddresses('base').map((a) => a.toLowerCase()))
      const pool = await jsonRpc<{ pending: Record<string, unknown> }>(chain.rpcUrl, 'txpool_content')
      return Object.keys(pool.pending).some((from) => ours.has(from.toLowerCase()))
    },
    async pendingSenders() {
      const ours = new Set(wallets.senderAddresses('base').map((a) => a.toLowerCase()))
      const pool = await jsonRpc<{ pending: Record<string, Record<string, { input: Hex }>> }>(chain.rpcUrl, 'txpool_content')
      const senders = new Set<string>()
      for (const [from, byNonce] of Object.entries(pool.pending)) {
        if (!ours.has(from.toLowerCase())) continue
        for (const tx of Object.values(byNonce)) {
          // Deployments ahead go through a multicall: only handleOps carries operations.
          const call = tx.input.startsWith(HANDLE_OPS) ? decodeFunctionData({ abi: entryPoint07Abi, data: tx.input }) : undefined
          if (call?.functionName !== 'handleOps') continue
          for (const op of call.args[0]) senders.add(op.sender.toLowerCase())
        }
      }
      return senders
    },
    startMining(intervalMs = 150) {
      if (mining) return
      const state = { stop: false, done: Promise.resolve() }
      state.done = (async () => {
        while (!state.stop) {
          await mine()
          await new Promise((r) => setTimeout(r, intervalMs))
        }
      })()
      mining = state
    },
    async stopMining() {
      if (!mining) return
      mining.stop = true
      await mining.done
      mining = undefined
    },
    mine,
    async mineUntil(what, done, most, pending = 'ours') {
      const sent = async () =>
        pending === 'ours'
          ? harness.bundlePending()
          : Object.keys((await jsonRpc<{ pending: Record<string, unknown> }>(chain.rpcUrl, 'txpool_content')).pending).length > 0
      for (let blocks = 1; blocks <= most; blocks++) {
        await mine()
        await harness.indexer.caughtUp('base', await harness.client.getBlockNumber({ cacheTime: 0 }))
        await harness.waitFor('the block decided', async () => harness.executor.busy() === 0 || (await sent()))
        if (await done()) return blocks
      }
      throw new Error(`${what}: not within ${most} blocks`)
    },
    async waitFor(what, probe, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const value = await probe()
        if (value !== undefined && value !== false) return value as never
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
        await new Promise((r) => setTimeout(r, 40))
      }
    },
    async restartExecutor(w) {
      await executor.stop()
      executor = await newExecutor(w)
      return executor
    },
    freshWallets: () =>
      createWalletService({
        chains: devnet.chains,
        keys,
        accountKind: options.accountKind ?? 'simple',
        bundler: { pollingIntervalMs: 50 },
        ...(options.senderAccounts ? { senderAccounts: options.senderAccounts } : {}),
        ...(options.walletClient ? { clients: { base: options.walletClient(chain.rpcUrl) } } : {}),
      }),
    async crashExecutor(w, crashOptions) {
      // A crashed process writes nothing more: the old executor, left running (a send it waits on may never return),
      // has its writes refused from now on, so none lands over what the new one writes (a batch released by the new
      // one's reconcile was seen rewritten as journaled by the old one's late write, under load).
      executorWrites.kill()
      void executor.stop()
      executor = await newExecutor(w, crashOptions?.store)
      return executor
    },
    async restartIndexer(indexerClient) {
      await indexer.stop()
      indexer = await newIndexer(indexerClient)
      return indexer
    },
    chainDumped: () => devnet.anvils.base.dumpState(),
    async crashChain() {
      const anvil = devnet.anvils.base
      const restarted = anvil.waitForRestart()
      process.kill(anvil.pid!, 'SIGKILL')
      await restarted
      await manualMining()
    },
    async stop() {
      // Teardown never hangs on a submission a failed test left waiting for a block: the chains stop regardless.
      const bounded = (work: Promise<unknown>) => Promise.race([work, new Promise((r) => setTimeout(r, 5_000))])
      await bounded(harness.stopMining())
      await bounded(executor.stop())
      await bounded(indexer.stop())
      closeSocket(wsClient)
      await store.close()
      await devnet.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }

  /** Faucet calls wait for their receipt: under manual mining, a block must come. */
  async function fundWhileMining<T>(fn: () => Promise<T>): Promise<T> {
    if (mining) return fn()
    const pending = fn()
    const ticker = setInterval(() => void mine().catch(() => undefined), 50)
    try {
      return await pending
    } finally {
      clearInterval(ticker)
    }
  }

  return harness
}

export type { ChainKey }
