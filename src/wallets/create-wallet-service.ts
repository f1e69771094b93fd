import { readStablecoinBalances } from '../chain/read-stablecoin-balances.ts'
import { createPublicClient, getAddress, isAddressEqual, sliceHex, type Address, type Hash, type Hex, type PublicClient } from 'viem'
import { enabledChainKeys } from '../chain/enabled-chains.ts'
import { isChainKey, type ChainConfig, type ChainKey } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import { txGasCapOf } from '../chain/tx-gas-cap.ts'
import { silentLogger, type Logger } from '../common/logger.ts'
import { createAccountProvider } from './accounts/create-account-provider.ts'
import type { SmartAccountKind, SmartAccountProvider } from './accounts/operation-account.ts'
import type { AccountSendOptions, BundleItem, BundleOutcome, Bundler, SentCall } from './bundler/bundler.ts'
import type { SendMoment } from './bundler/chain-now.ts'
import { createBundler, type BundlerOptions } from './bundler/create-bundler.ts'
import { createExternalBundler, createExternalBundlerClient, createMarketGasPolicy } from './bundler/create-external-bundler.ts'
import { createZeroFeeGasPolicy } from './gas-policy.ts'
import type { KeyStore } from './keys/key-store.ts'
import { createKeyedMutex } from '../common/keyed-mutex.ts'
import { createNonceStreams } from './nonce-streams.ts'
import type { OperationPreparer } from './prepare/operation-preparer.ts'
import { createOperationPreparer } from './prepare-user-operations.ts'
import { createChainBalanceReader, READ_DEADLINE_MS, type ChainBalanceReader } from './read-balances.ts'
import { cachePerBlock, createBlockCache, headForCache } from './block-balance-cache.ts'
import { type ChainHeads, createChainHeads } from '../chain/chain-heads.ts'
import type { SubmitOptions, UserOperationRequest, UserOperationResult, WalletService } from './wallet-service.ts'
import { runOperationsInCall } from './run-operations-in-call.ts'
import { notSentOutcome } from './bundler/submit-bundles.ts'
import { withdraw } from './withdraw.ts'
import { createWithdrawalCounter, DEFAULT_WITHDRAWAL_POLICY, type WithdrawalPolicy } from './withdrawal-policy.ts'
import { RPC_BATCH_SIZE } from '../chain/node-requirements.ts'
import { rpcHttp } from '../chain/rpc-http.ts'

/**
 * Most wallets one prepareAhead deploys (the rest on later calls, one per block): ~40M gas, well inside one block, so
 * the deployments sent after a block are mined in the next one and never queue a launch's handleOps (same EOA, so
 * later nonces) behind them.
 */
export const MAX_DEPLOYS_AHEAD = 200

/**
 * How old a head may be to key the balance caches: none. Each request asks the head (one eth_blockNumber, shared by
 * the requests in flight), so a deposit mined before a request is always shown (read-your-writes); what is cached is
 * the balances multicall, once per wallet per block. A head observed by the indexer could lag the node by a round.
 */
export const HEAD_MAX_AGE_MS = 0

export interface WalletServiceDeps {
  chains: Record<ChainKey, ChainConfig>
  keys: KeyStore
  /** wallet.accountKind: 'simple' (SimpleAccount v0.7, the default) or 'kernel' (Kernel v3.1). */
  accountKind: SmartAccountKind
  logger?: Logger
  /** Receipt wait, polling and block-share tuning of the bundler. */
  bundler?: Pick<BundlerOptions, 'receiptTimeoutMs' | 'pollingIntervalMs' | 'maxReconcileRounds' | 'blockGasShare' | 'priorityFee' | 'nonceCheckFreshMs'>
  /** Gas cap for each operation's calls (default 2,000,000: a v4 swap with a hook plus approve and fee transfer). */
  callGasLimit?: bigint
  /** Injected clients (tests); by default one HTTP client per chain from its rpcUrl. */
  clients?: Partial<Record<ChainKey, PublicClient>>
  /**
   * The API's reads (balances, funding): by default one HTTP client per chain from its `readRpcUrl` (else `rpcUrl`),
   * apart from the bundler's, so API traffic never competes with launch buys. Injected `clients` serve both.
   */
  readClients?: Partial<Record<ChainKey, PublicClient>>
  /** Heads keying the balance caches (default: read through the read clients on each request, shared in flight). */
  heads?: ChainHeads
  /**
   * Optional: per chain, a third-party ERC-4337 bundler URL to submit through instead of our own bundler EOA. Such
   * bundlers refuse zero-fee operations, so on that chain operations pay market fees from the wallet's own ETH.
   */
  externalBundlerUrls?: Partial<Record<ChainKey, string>>
  /**
   * prepareAhead also deploys the wallets it finds undeployed, from the bundler EOA (default true): a launch's buys
   * then carry no initCode, need ~100k less gas each, and more of them fit the first block.
   */
  deployAhead?: boolean
  /** Minimums, rate and gas reserve of withdrawals (default DEFAULT_WITHDRAWAL_POLICY). */
  withdrawals?: WithdrawalPolicy
  /**
   * Sender accounts per chain (wallet.senderAccounts, default 1): the bundler EOA and `senderAccounts - 1` more from
   * the same master secret, each with its own nonces; one launch's transactions go out from several at once.
   */
  senderAccounts?: number
}

export interface PrebuyWalletService extends WalletService {
  readonly accountKind: SmartAccountKind
  /** The bundler EOA of a chain: sender account 0 (fund it on devnet). */
  bundlerAddress(chain: ChainKey): Address
  /** Every sender account of a chain (wallet.senderAccounts), the bundler EOA first: each needs ETH. */
  senderAddresses(chain: ChainKey): Address[]
  /**
   * One plain transaction (`to`, `data`, `gas`) from the freest sender account of the chain, each account with its own
   * nonces: transactions sent together go out from several accounts at once. Fees follow wallet.priorityFee (the
   * launch tip with `moment`), a transaction stuck for a block is replaced with higher fees. Resolves once sent
   * (rejects: nothing was sent) with its hash, account and nonce; `landed` settles with the receipt (never rejects).
   * For contracts that accept every sender account as caller (the batch buyer's operators: `senderAddresses`).
   */
  sendFromPool(chain: ChainKey, call: { to: Address; data: Hex; gas: bigint }, logFields?: Record<string, unknown>, moment?: SendMoment): Promise<SentCall>
  /**
   * One plain transaction from the named sender account (one of `senderAddresses`), its nonces in call order, its tip
   * at most `options.tipAtMost` per gas: the split batch's collects and settle (daemon/executor/send-split-batch.ts).
   */
  sendFromAccount(
    chain: ChainKey,
    account: Address,
    call: { to: Address; data: Hex; gas: bigint },
    logFields?: Record<string, unknown>,
    options?: AccountSendOptions,
  ): Promise<SentCall>
  /**
   * Reads the chain's send path now (fees, block, every sender account's pending nonce: bundler chain-now.ts), so that
   * a send in the next blocks finds them fresh instead of reading them first. The executor calls it on every processed
   * block while funded orders wait for a launch (ready-ahead.ts); calls made while one runs share it.
   */
  warmSends(chain: ChainKey): Promise<void>
}

/** The sender accounts' addresses without starting a service: the bundler EOA first, the same on every chain. */
export const senderAddresses = (keys: KeyStore, count: number): Address[] =>
  Array.from({ length: Math.max(1, count) }, (_, index) => keys.senderSigner(index).address)

/** The bundler EOA's address without starting a service: derived from the master secret, one address on every chain. */
export const bundlerAddress = (keys: KeyStore): Address => keys.bundlerAddress()

/** The operator account's own transactions (batch buys, sweeps): our bundler EOA, through its nonce manager. */
function operatorSends(
  bundlers: Record<ChainKey, Bundler>,
  assertEnabled: (chain: ChainKey) => void,
  keys: KeyStore,
): Required<Pick<WalletService, 'operatorAddress' | 'sendCall'>> {
  return {
    operatorAddress(chain) {
      assertEnabled(chain)
      return bundlers[chain].sendCall ? bundlerAddress(keys) : undefined
    },
    sendCall(chain, call, logFields) {
      if (!isChainKey(chain)) throw new PrebuyError('invalid_chain', 'The chain must be base or second_chain.')
      assertEnabled(chain)
      const send = bundlers[chain].sendCall
      if (!send)
        throw new PrebuyError('bundle_send_failed', `This service sends no transactions of its own on ${chain}: it submits through an external bundler.`)
      return send(call, logFields)
    },
  }
}

export function createWalletService(deps: WalletServiceDeps): PrebuyWalletService {
  const logger = (deps.logger ?? silentLogger).child({ component: 'wallets' })
  const provider: SmartAccountProvider = createAccountProvider({ kind: deps.accountKind, chains: deps.chains, keys: deps.keys })
  const streams = createNonceStreams()
  const clients = {} as Record<ChainKey, PublicClient>
  const readClients = {} as Record<ChainKey, PublicClient>
  const readers = {} as Record<ChainKey, ChainBalanceReader>
  const heads = deps.heads ?? createChainHeads({ read: (key) => readClients[key].getBlockNumber({ cacheTime: 0 }), maxAgeMs: HEAD_MAX_AGE_MS })
  // Stablecoin balances by chain and wallet, one read per block of the head (funding views, launch simulations).
  const stablecoinCache = createBlockCache<bigint>()
  const bundlers = {} as Record<ChainKey, Bundler>
  const preparers = {} as Record<ChainKey, OperationPreparer>
  const enabled = enabledChainKeys(deps.chains)
  const senderCount = deps.senderAccounts ?? 1
  const extraSigners = Array.from({ length: Math.max(0, senderCount - 1) }, (_, index) => deps.keys.senderSigner(index + 1))
  /** A chain left out of the config (rpc mode) has no client, bundler or reader: refused before anything touches one. */
  const assertEnabled = (chain: ChainKey): void => {
    if (!enabled.includes(chain)) throw new PrebuyError('chain_disabled', `This service does not run on ${chain}: it is disabled in its configuration.`)
  }
  for (const key of enabled) {
    const chain = deps.chains[key]
    const client =
      deps.clients?.[key] ??
      createPublicClient({
        // JSON-RPC batching: the many small reads of one bundle (account code checks) travel in one HTTP request.
        transport: rpcHttp(chain.rpcUrl, { retryCount: 2, batch: { batchSize: RPC_BATCH_SIZE, wait: 0 } }),
        pollingInterval: 250,
      })
    clients[key] = client
    const readClient =
      deps.readClients?.[key] ??
      deps.clients?.[key] ??
      createPublicClient({ transport: rpcHttp(chain.readRpcUrl ?? chain.rpcUrl, { retryCount: 2 }), pollingInterval: 250 })
    readClients[key] = readClient
    readers[key] = cachePerBlock(key, createChainBalanceReader(chain, readClient), heads, READ_DEADLINE_MS)
    const externalUrl = deps.externalBundlerUrls?.[key]
    if (externalUrl) {
      const timing = { receiptTimeoutMs: deps.bundler?.receiptTimeoutMs, pollingIntervalMs: deps.bundler?.pollingIntervalMs }
      bundlers[key] = createExternalBundler({ chain, url: externalUrl, logger, ...timing })
      preparers[key] = createOperationPreparer({
        chain,
        client,
        provider,
        streams,
        gasPolicy: createMarketGasPolicy({
          client,
          bundler: createExternalBundlerClient({ url: externalUrl, ...timing }),
          entryPoint: chain.addresses.entryPoint,
        }),
      })
      continue
    }
    bundlers[key] = createBundler({ chain, client, signer: deps.keys.bundlerSigner(), extraSigners, logger, ...deps.bundler })
    preparers[key] = createOperationPreparer({
      chain,
      client,
      provider,
      streams,
      gasPolicy: createZeroFeeGasPolicy({ callGasLimit: deps.callGasLimit ?? 2_000_000n, preVerificationGas: 60_000n }),
    })
  }

  const addresses = new Map<number, Promise<Address>>()
  const walletAddress = (userIndex: number): Promise<Address> => {
    if (!Number.isSafeInteger(userIndex) || userIndex < 0) {
      return Promise.reject(new PrebuyError('invalid_user_index', 'A user index must be a non-negative integer.'))
    }
    let address = addresses.get(userIndex)
    if (!address) {
      address = provider.address(userIndex)
      address.catch(() => addresses.delete(userIndex))
      addresses.set(userIndex, address)
    }
    return address
  }

  /**
   * The wallet address, once every enabled chain's factory has derived the same one: an eth_call of the account's own
   * deployment call (SimpleAccountFactory.createAccount, or Kernel's meta-factory deployWithFactory) answers the address
   * the first UserOperation would deploy to. A wallet already deployed there proves the derivation too (CREATE2 binds
   * the factory, the owner's init data and the salt). Callers that store or show the address (a new key) use this.
   */
  const verifiedWalletAddress = async (userIndex: number): Promise<Address> => {
    const address = await walletAddress(userIndex)
    await Promise.all(enabled.map((key) => confirmDerivation(key, userIndex, address)))
    return address
  }
  const confirmDerivation = async (key: ChainKey, userIndex: number, address: Address): Promise<void> => {
    const client = readClients[key]
    let derived: Address
    try {
      const account = await provider.account(key, userIndex)
      const code = await client.getCode({ address })
      if (code !== undefined && code !== '0x') return
      const { factory, factoryData } = await account.factoryArgs()
      const { data } = await client.call({ to: factory, data: factoryData })
      if (data === undefined || data.length < 66) throw new Error(`the factory ${factory} returned ${data ?? 'nothing'}`)
      derived = getAddress(sliceHex(data, 12, 32))
    } catch (error) {
      throw new PrebuyError('chain_unavailable', `The wallet address could not be confirmed on ${key}; nothing was stored. Try again shortly.`, {
        cause: error,
      })
    }
    if (!isAddressEqual(derived, address)) {
      logger.error({ chain: key, userIndex, computed: address, derived }, 'the chain derives another wallet address than the service computes')
      throw new PrebuyError(
        'wallet_address_mismatch',
        `The wallet factory on ${key} derives ${derived} for this key, not ${address} as the service computed; nothing was stored (the operator must check the chain's configuration).`,
      )
    }
  }

  /**
   * One pass: every chunk the preparer signs goes to the bundler at once (pipelined; the bundler sends them in this
   * order), and the results come back in request order. A chunk the bundler could not send at all is reported per
   * operation unless nothing at all was sent, in which case the error is thrown as before.
   */
  const submitOnce = async (chain: ChainKey, requests: readonly UserOperationRequest[], options: SubmitOptions): Promise<UserOperationResult[]> => {
    const bundler = bundlers[chain]
    const preparer = preparers[chain]
    const chunks: { items: BundleItem[]; outcome: Promise<BundleOutcome[]> }[] = []
    // A rejected sendAfter means nothing may be sent: stop signing chunks nobody will broadcast.
    let gateFailed = false
    options.sendAfter?.catch(() => (gateFailed = true))
    const prepared = await preparer.prepare(requests, {
      onChunk: (items) => {
        const outcome = bundler.submit(items, { sendAfter: options.sendAfter, landsIn: options.landsIn, launchBlock: options.launchBlock })
        outcome.catch(() => undefined)
        chunks.push({ items, outcome })
      },
      stop: () => gateFailed,
      holdAfterFirst: options.sendAfter,
    })
    const round = (ms: number) => Math.round(ms * 10) / 10
    const { readsMs, firstChunkMs, signedMs, chunks: chunkCount, warmHits } = prepared.timings
    logger.info(
      {
        chain,
        operations: requests.length,
        chunks: chunkCount,
        warmHits,
        readsMs: round(readsMs),
        firstChunkMs: round(firstChunkMs),
        signedMs: round(signedMs),
      },
      'user operations prepared',
    )
    let stillPending: Set<Hash> | undefined
    try {
      const settled = await Promise.allSettled(chunks.map((chunk) => chunk.outcome))
      const firstError = settled.find((result) => result.status === 'rejected')
      if (firstError && settled.every((result) => result.status === 'rejected')) throw firstError.reason
      const byHash = new Map<Hash, BundleOutcome>()
      settled.forEach((result, index) => {
        if (result.status === 'fulfilled') {
          for (const outcome of result.value) byHash.set(outcome.userOpHash, outcome)
          return
        }
        const code = result.reason instanceof PrebuyError ? result.reason.code : 'bundle_send_failed'
        for (const item of chunks[index]?.items ?? []) byHash.set(item.userOpHash, notSentOutcome(item, code))
      })
      stillPending = new Set([...byHash.values()].filter((outcome) => outcome.status === 'not_mined').map((outcome) => outcome.userOpHash))
      const results = requests.map((request, index): UserOperationResult => {
        const item = prepared.items[index]
        if (!item) return { status: 'not_sent', id: request.id, reason: prepared.unprepared.get(index) ?? 'not included in any bundle' }
        return byHash.get(item.userOpHash) ?? { status: 'refused', id: request.id, userOpHash: item.userOpHash, reason: 'not included in any bundle' }
      })
      return results
    } finally {
      prepared.finish(stillPending)
    }
  }

  const submitUserOperations = async (chain: ChainKey, requests: UserOperationRequest[], options: SubmitOptions = {}): Promise<UserOperationResult[]> => {
    if (!isChainKey(chain)) throw new PrebuyError('invalid_chain', 'The chain must be base or second_chain.')
    assertEnabled(chain)
    if (requests.length === 0) return []
    return submitOnce(chain, requests, options)
  }

  const mutex = createKeyedMutex()
  const reserved = new Map<string, bigint>()
  const withdrawalPolicy = deps.withdrawals ?? DEFAULT_WITHDRAWAL_POLICY
  const withdrawals = createWithdrawalCounter(withdrawalPolicy.perKeyPerHour, 3_600_000)

  return {
    accountKind: deps.accountKind,
    bundlerAddress: () => bundlerAddress(deps.keys),
    senderAddresses: (chain) => (deps.externalBundlerUrls?.[chain] ? [] : senderAddresses(deps.keys, senderCount)),
    sendFromPool: async (chain, call, logFields, moment) => poolSender(chain, bundlers, assertEnabled)(call, logFields, moment),
    sendFromAccount: async (chain, account, call, logFields, options) => accountSender(chain, bundlers, assertEnabled)(account, call, logFields, options),
    walletAddress,
    verifiedWalletAddress,
    async getBalances(userIndex, indexedTokens) {
      const wallet = await walletAddress(userIndex)
      // A disabled chain is absent: the spec lists every chain the service supports, and it does not support that one.
      const entries = await Promise.all(enabled.map((key) => readers[key].balances(wallet, indexedTokens[key] ?? [])))
      return Object.fromEntries(enabled.map((key, index) => [key, entries[index] ?? []])) as Record<ChainKey, (typeof entries)[number]>
    },
    async stablecoinBalances(chain, userIndexes) {
      assertEnabled(chain)
      const { multicall3, stablecoin } = deps.chains[chain].addresses
      const wallets = await Promise.all(userIndexes.map((i) => walletAddress(i)))
      // One read per wallet per block: the wallets not read at this head yet go in one multicall, the rest share it.
      const block = await headForCache(heads, chain, READ_DEADLINE_MS)
      const missing = [...new Set(wallets.map((w) => w.toLowerCase()))].filter((w) => !stablecoinCache.has(`${chain}|${w}`, block))
      const read = missing.length === 0 ? undefined : readStablecoinBalances(readClients[chain], multicall3, stablecoin, missing as Address[])
      const values = await Promise.all(
        wallets.map((w) => stablecoinCache.get(`${chain}|${w.toLowerCase()}`, block, async () => (await read!).get(w.toLowerCase()) ?? 0n)),
      )
      return new Map(userIndexes.map((i, n) => [i, values[n]!]))
    },
    withdraw: async (request) => {
      if (isChainKey(request.chain)) assertEnabled(request.chain)
      return withdraw(
        {
          chains: deps.chains,
          clients,
          readers,
          walletAddress,
          submit: submitUserOperations,
          mutex,
          reserved,
          logger,
          policy: withdrawalPolicy,
          counter: withdrawals,
          gasPayer: (chain) => (deps.externalBundlerUrls?.[chain] ? undefined : bundlerAddress(deps.keys)),
        },
        request,
      )
    },
    submitUserOperations,
    async prepareAhead(chain, userIndexes, options = {}) {
      if (!isChainKey(chain)) throw new PrebuyError('invalid_chain', 'The chain must be base or second_chain.')
      assertEnabled(chain)
      const bundler = bundlers[chain]
      const first = userIndexes[0]
      // A stand-in operation (an empty call to the stablecoin), signed and dropped: warms the signing path.
      const rehearsal = first === undefined ? undefined : preparers[chain].rehearse(first, [{ to: deps.chains[chain].addresses.stablecoin, data: '0x' }])
      const [warmed] = await Promise.all([preparers[chain].warm(userIndexes), bundler.warm?.(), rehearsal])
      // Deploying ahead needs our own bundler EOA (an external bundler deploys with the first operation).
      const deployAccounts = deps.deployAhead === false ? undefined : bundler.deployAccounts
      const allowed = options.deploy ? new Set(options.deploy) : undefined
      const toDeploy = [...warmed.undeployed.keys()].filter((userIndex) => !allowed || allowed.has(userIndex)).slice(0, MAX_DEPLOYS_AHEAD)
      const send = toDeploy.length > 0 && deployAccounts !== undefined && (options.stillWanted?.() ?? true)
      const deploying = send && deployAccounts ? await preparers[chain].deployAhead(toDeploy, deployAccounts) : 0
      return { read: warmed.read, undeployed: warmed.undeployed.size, deployed: deploying }
    },
    forgetAhead(chain) {
      preparers[chain]?.forgetWarm()
      // A check of the sender accounts' nonces made before the reorg is not one after it (chain-now.ts forget).
      bundlers[chain]?.forgetChecks?.()
    },
    warmSends: (chain) => warmSends(chain, bundlers, assertEnabled),
    ...operatorSends(bundlers, assertEnabled, deps.keys),
    runOperationsInCall(chain, request) {
      if (!isChainKey(chain)) throw new PrebuyError('invalid_chain', 'The chain must be base or second_chain.')
      assertEnabled(chain)
      const parts = { preparer: preparers[chain], bundler: bundlers[chain], client: clients[chain], from: bundlerAddress(deps.keys) }
      return runOperationsInCall({ ...parts, txGasCap: txGasCapOf(deps.chains[chain]) }, request)
    },
  }
}

/** The send path of an enabled chain read now (PrebuyWalletService.warmSends): an external bundler has none. */
async function warmSends(chain: ChainKey, bundlers: Record<ChainKey, Bundler>, assertEnabled: (chain: ChainKey) => void): Promise<void> {
  if (!isChainKey(chain)) throw new PrebuyError('invalid_chain', 'The chain must be base or second_chain.')
  assertEnabled(chain)
  await bundlers[chain].warm?.()
}

/** The named-account sender of an enabled chain with our own bundler (PrebuyWalletService.sendFromAccount). */
function accountSender(
  chain: ChainKey,
  bundlers: Record<ChainKey, Bundler>,
  assertEnabled: (chain: ChainKey) => void,
): NonNullable<Bundler['sendFromAccount']> {
  poolSender(chain, bundlers, assertEnabled)
  const send = bundlers[chain].sendFromAccount
  if (!send) throw new PrebuyError('chain_disabled', `${chain} submits through an external bundler: the service has no sender accounts there.`)
  return send
}

/** The pool sender of an enabled chain with our own bundler (PrebuyWalletService.sendFromPool). */
function poolSender(chain: ChainKey, bundlers: Record<ChainKey, Bundler>, assertEnabled: (chain: ChainKey) => void): NonNullable<Bundler['sendFromPool']> {
  if (!isChainKey(chain)) throw new PrebuyError('invalid_chain', 'The chain must be base or second_chain.')
  assertEnabled(chain)
  const send = bundlers[chain].sendFromPool
  if (!send) throw new PrebuyError('chain_disabled', `${chain} submits through an external bundler: the service has no sender accounts there.`)
  return send
}
