import {
  BaseError,
  decodeErrorResult,
  encodeFunctionData,
  multicall3Abi,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type TransactionReceipt,
  zeroHash,
} from 'viem'
import { entryPoint07Abi, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { Logger } from '../../common/logger.ts'
import { calldataGas, decodeGasMeterOutput, GAS_METER_ADDRESS, GAS_METER_CODE, gasMeterInput } from './gas-meter.ts'
import { createNonceManager, type NonceManager } from './nonce-manager.ts'
import { packBundles } from './pack-bundles.ts'
import { outcomesFromLogs, type UserOperationOutcome } from './user-operation-outcomes.ts'

/** A signed v0.7 UserOperation ready for handleOps, with the caller's correlation id. */
export interface BundleItem {
  id: string
  userOperation: UserOperation<'0.7'>
  userOpHash: Hash
}

/** A factory call that deploys one smart account, with the gas it may take. */
export interface AccountDeployment {
  factory: Address
  factoryData: Hex
  gas: bigint
}

export interface BundleOutcome extends UserOperationOutcome {
  id: string
}

export interface Bundler {
  /**
   * Puts the items into as few handleOps transactions as the block gas limit allows, in the given order, and resolves
   * with one outcome per item (same order) once all are mined. An item the EntryPoint refuses during validation is
   * taken out of the bundle (the rest still go) and reported with success false and a zero tx hash. With `sendAfter`
   * the bundle is simulated at once but broadcast only after it resolves (rejects: nothing sent, the call rejects).
   */
  submit(items: readonly BundleItem[], options?: { sendAfter?: Promise<unknown> | undefined }): Promise<BundleOutcome[]>
  /**
   * Optional, off the hot path: reads what a send needs from the chain (fees, current block) so that a submission in
   * the next few seconds does not wait for those reads (the pending-nonce check is still made, alongside simulation).
   */
  warm?(): Promise<void>
  /**
   * Optional: deploys smart accounts ahead of their first operation, in one transaction of the bundler EOA to
   * Multicall3 (each factory call may fail alone: an account deployed meanwhile does not sink the others). Resolves
   * once it is mined, or with `pending` when no receipt came but the node still holds the transaction (it may land
   * later); neither means it was dropped.
   */
  deployAccounts?(deployments: readonly AccountDeployment[]): Promise<{ mined: boolean; pending: boolean }>
}

export interface BundlerOptions {
  chain: ChainConfig
  client: PublicClient
  signer: LocalAccount
  logger: Logger
  /** How long to wait for a receipt before checking whether the transaction was dropped or replaced. */
  receiptTimeoutMs?: number
  pollingIntervalMs?: number
  /** How many dropped/replaced rounds to reconcile before giving up. */
  maxReconcileRounds?: number
  /** Share of the block gas limit one handleOps may use, leaving room for others' transactions. */
  blockGasShare?: number
}

const NONCE_CONFLICT = /nonce too low|nonce too high|already known|replacement transaction underpriced|nonce.*already used/i
/** Per-bundle cost outside the operations: intrinsic gas, calldata, handleOps' own loop. */
const BUNDLE_OVERHEAD = 60_000n

interface SentTransaction {
  hash: Hash
  raw: Hex
  nonce: number
  items: readonly BundleItem[]
  fromBlock: bigint
}

/** How often a transaction waiting for its receipt is checked for having left the node's pool. */
const DROP_CHECK_MS = 1_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** FailedOp / FailedOpWithRevert in the EntryPoint's revert data: which op it refused and why. */
function failedOpOf(data: Hex): { index: number; reason: string } | undefined {
  try {
    const decoded = decodeErrorResult({ abi: entryPoint07Abi, data })
    if (decoded.errorName === 'FailedOp' || decoded.errorName === 'FailedOpWithRevert') {
      return { index: Number(decoded.args[0]), reason: decoded.args[1] }
    }
  } catch {
    // Not an EntryPoint error: the caller reports the raw data.
  }
  return undefined
}

export function createBundler(options: BundlerOptions): Bundler {
  const { chain, client, signer, logger } = options
  const entryPoint = chain.addresses.entryPoint
  const receiptTimeoutMs = options.receiptTimeoutMs ?? 30_000
  const pollingIntervalMs = options.pollingIntervalMs ?? 250
  const maxRounds = options.maxReconcileRounds ?? 5
  const blockGasShare = options.blockGasShare ?? 0.9
  const log = logger.child({ component: 'bundler', chain: chain.key })
  const nonces: NonceManager = createNonceManager(signer.address, {
    pendingNonce: (address) => client.getTransactionCount({ address, blockTag: 'pending' }),
  })

  // A bundle is encoded for its simulation, its gas and its transaction: once per bundle array.
  const encodedBundles = new WeakMap<readonly BundleItem[], Hex>()
  const handleOpsData = (items: readonly BundleItem[]): Hex => {
    let data = encodedBundles.get(items)
    if (data === undefined) {
      data = encodeFunctionData({
        abi: entryPoint07Abi,
        functionName: 'handleOps',
        // Zero-fee operations pay the beneficiary nothing; the bundler EOA is named anyway.
        args: [items.map((item) => toPackedUserOperation(item.userOperation)), signer.address],
      })
      encodedBundles.set(items, data)
    }
    return data
  }

  /**
   * Simulates a bundle in one eth_call through the gas meter, dropping every op the EntryPoint refuses in validation
   * (FailedOp names its index) until the rest passes; returns the survivors and their execution gas.
   */
  async function simulate(items: readonly BundleItem[], refused: Map<Hash, string>, callGas: bigint): Promise<{ items: BundleItem[]; gasUsed: bigint }> {
    let remaining = [...items]
    while (remaining.length > 0) {
      let output: Hex | undefined
      try {
        output = (
          await client.call({
            account: signer.address,
            to: GAS_METER_ADDRESS,
            data: gasMeterInput(entryPoint, handleOpsData(remaining)),
            gas: callGas,
            stateOverride: [{ address: GAS_METER_ADDRESS, code: GAS_METER_CODE }],
          })
        ).data
      } catch (error) {
        throw new PrebuyError('unavailable', 'bundle_simulation_failed', `Could not simulate the bundle on ${chain.key}.`, { cause: error })
      }
      if (!output) throw new PrebuyError('unavailable', 'bundle_simulation_failed', `The bundle simulation on ${chain.key} returned nothing.`)
      const measured = decodeGasMeterOutput(output)
      if (measured.success) return { items: remaining, gasUsed: measured.gasUsed }
      const failed = failedOpOf(measured.returnData)
      if (failed?.reason.startsWith('AA95') && remaining.length > 1) {
        // Out of gas for the whole bundle, not a fault of that operation: measure the halves separately (each is
        // validated against the same state; the bundle is split into transactions by the measured cost anyway).
        const half = Math.ceil(remaining.length / 2)
        const [head, tail] = [await simulate(remaining.slice(0, half), refused, callGas), await simulate(remaining.slice(half), refused, callGas)]
        return { items: [...head.items, ...tail.items], gasUsed: head.gasUsed + tail.gasUsed }
      }
      const item = failed ? remaining[failed.index] : undefined
      if (!failed || !item) {
        throw new PrebuyError('unavailable', 'bundle_simulation_failed', `The EntryPoint rejected the bundle on ${chain.key}.`, {
          details: { revertData: measured.returnData.slice(0, 266) },
        })
      }
      log.warn({ userOpHash: item.userOpHash, id: item.id, reason: failed.reason }, 'user operation refused in validation')
      refused.set(item.userOpHash, failed.reason)
      remaining = remaining.filter((_, index) => index !== failed.index)
    }
    return { items: [], gasUsed: 0n }
  }

  /**
   * The transaction gas a bundle needs: calldata, measured execution, and headroom for the largest callGasLimit (the
   * EntryPoint refuses, AA95, to start an account call with less gas left than its limit, seen through two 63/64
   * forwards: handleOps -> innerHandleOp -> account).
   */
  const headroom = (items: readonly BundleItem[]): bigint =>
    (items.reduce((max, item) => (item.userOperation.callGasLimit > max ? item.userOperation.callGasLimit : max), 0n) * 17n) / 16n + 100_000n

  function bundleGas(items: readonly BundleItem[], gasUsed: bigint): bigint {
    const { intrinsic, floor } = calldataGas(handleOpsData(items))
    const needed = intrinsic + gasUsed + headroom(items)
    return needed > floor ? needed : floor
  }

  // The block gas limit changes rarely: read it at most once a minute instead of once per bundle, and a stale value is
  // used while it is refreshed in the background (a launch after a quiet minute must not wait for that read).
  let gasLimitCache: { value: bigint; at: number } | undefined
  let gasLimitRead: Promise<bigint> | undefined
  const readGasLimit = (): Promise<bigint> => {
    gasLimitRead ??= client
      .getBlock()
      .then((block) => {
        gasLimitCache = { value: block.gasLimit, at: Date.now() }
        return block.gasLimit
      })
      .finally(() => (gasLimitRead = undefined))
    return gasLimitRead
  }
  const blockGasLimit = async (): Promise<bigint> => {
    if (!gasLimitCache) return readGasLimit()
    if (Date.now() - gasLimitCache.at > 60_000) readGasLimit().catch(() => undefined)
    return gasLimitCache.value
  }

  type ChainNow = { fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }; fromBlock: bigint }
  const chainNow = async (): Promise<ChainNow> => {
    const mark = nonces.mark()
    const [fees, fromBlock, pendingNonce] = await Promise.all([
      client.estimateFeesPerGas(),
      client.getBlockNumber({ cacheTime: 0 }),
      client.getTransactionCount({ address: signer.address, blockTag: 'pending' }),
    ])
    // Our transactions the node no longer knows (a reorg dropped their block, the pool evicted them) would leave the
    // local counter ahead of the chain and the next transaction stuck behind a nonce gap.
    nonces.observe(pendingNonce, mark)
    return { fees, fromBlock }
  }

  // What the last chainNow read, for a submission soon after (a warm-up on the block before a launch). An older
  // starting block only widens the reconcile log search. The fees may be a few blocks old: a base fee rises at most
  // 12.5% a block, so the fee cap is doubled (a cap, not a price: a transaction pays the base fee of its block plus
  // the tip), which covers the ~4 blocks the cache lives on a 2 s chain.
  const CHAIN_NOW_TTL_MS = 8_000
  let chainNowCache: { value: ChainNow; at: number } | undefined
  const readChainNow = async (): Promise<ChainNow> => {
    const at = Date.now()
    const value = await chainNow()
    chainNowCache = { value, at }
    return value
  }
  /**
   * Fees and block from the cache when recent; the pending-nonce check is always made (it travels alongside the
   * bundle's simulation): after a reorg dropped our transactions it is what moves the local counter back.
   */
  const recentChainNow = async (): Promise<ChainNow> => {
    const cached = chainNowCache
    if (!cached || Date.now() - cached.at > CHAIN_NOW_TTL_MS) return readChainNow()
    const mark = nonces.mark()
    nonces.observe(await client.getTransactionCount({ address: signer.address, blockTag: 'pending' }), mark)
    const { fees, fromBlock } = cached.value
    return { fees: { maxFeePerGas: fees.maxFeePerGas * 2n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }, fromBlock }
  }

  async function send(items: readonly BundleItem[], gas: bigint, now?: ChainNow): Promise<SentTransaction> {
    const sent = await sendTransaction(entryPoint, handleOpsData(items), gas, now, { operations: items.length })
    return { ...sent, items }
  }

  /** Signs and broadcasts one transaction of the bundler EOA (the nonce manager hands out its nonce). */
  async function sendTransaction(
    to: Address,
    data: Hex,
    gas: bigint,
    now: ChainNow | undefined,
    logFields: Record<string, unknown>,
  ): Promise<Omit<SentTransaction, 'items'>> {
    const { fees, fromBlock } = now ?? (await chainNow())
    for (let attempt = 1; ; attempt++) {
      try {
        return await nonces.use(async (nonce) => {
          const raw = await signer.signTransaction({
            type: 'eip1559',
            chainId: chain.chainId,
            to,
            data,
            gas,
            nonce,
            maxFeePerGas: fees.maxFeePerGas,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
          })
          const hash = await client.sendRawTransaction({ serializedTransaction: raw })
          log.info({ txHash: hash, nonce, ...logFields }, to === entryPoint ? 'handleOps sent' : 'transaction sent')
          return { hash, raw, nonce, fromBlock }
        })
      } catch (error) {
        // The nonce manager already dropped its counter; a nonce conflict (another sender of this EOA, a restart with
        // transactions still pending) heals by re-reading it, anything else is not ours to retry.
        const message = error instanceof BaseError ? `${error.shortMessage} ${error.details ?? ''}` : String(error)
        if (/insufficient funds/i.test(message)) {
          throw new PrebuyError('unavailable', 'bundler_unfunded', `The bundler account on ${chain.key} has too little ETH for gas.`, { cause: error })
        }
        if (attempt >= 4 || !NONCE_CONFLICT.test(message)) {
          throw new PrebuyError('unavailable', 'bundle_send_failed', `The bundler's transaction could not be sent on ${chain.key}.`, { cause: error })
        }
        log.warn({ attempt, error: message }, 'bundler nonce conflict; resynced from the chain')
      }
    }
  }

  /**
   * Polls for the receipt until the timeout, or until the node no longer knows the transaction (checked about once a
   * second): a node drops a transaction whose gas limit no longer fits the block it was meant for, and waiting out
   * the whole timeout for it would cost many blocks; the reconcile step then re-broadcasts it.
   */
  async function pollReceipt(hash: Hash): Promise<TransactionReceipt | undefined> {
    const deadline = Date.now() + receiptTimeoutMs
    let nextPresenceCheck = Date.now() + DROP_CHECK_MS
    while (Date.now() < deadline) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined)
      if (receipt) return receipt
      if (Date.now() >= nextPresenceCheck) {
        nextPresenceCheck = Date.now() + DROP_CHECK_MS
        const known = await client.getTransaction({ hash }).then(
          () => true,
          (error: unknown) => !(error instanceof BaseError && error.name === 'TransactionNotFoundError'),
        )
        if (!known) {
          // Mined between the two reads? Then the receipt is there now.
          return client.getTransactionReceipt({ hash }).catch(() => undefined)
        }
      }
      await sleep(pollingIntervalMs)
    }
    return undefined
  }

  async function findOutcomes(items: readonly BundleItem[], fromBlock: bigint): Promise<Map<Hash, UserOperationOutcome>> {
    const logs = await client.getLogs({ address: entryPoint, fromBlock, toBlock: 'latest' })
    const wanted = new Set(items.map((item) => item.userOpHash))
    const all = outcomesFromLogs(logs, entryPoint)
    return new Map([...all].filter(([hash]) => wanted.has(hash)))
  }

  /**
   * Waits for a sent bundle and reconciles when its receipt does not come: if the operations landed anyway (a
   * replacement carried them) their events are the answer; if the nonce was used by another transaction the missing
   * operations are sent again in a new one; if the transaction vanished from the pool it is re-broadcast as signed.
   */
  async function settle(sent: SentTransaction, round = 0): Promise<Map<Hash, UserOperationOutcome>> {
    // Failures of one transaction are reported per operation, never thrown: a throw would hide the results of the
    // bundle's other transactions, and a caller that does not learn an operation succeeded might repeat it.
    const failAll = (outcomes: Map<Hash, UserOperationOutcome>, blockNumber: bigint, revertReason: string) => {
      for (const item of sent.items) {
        if (!outcomes.has(item.userOpHash))
          outcomes.set(item.userOpHash, { userOpHash: item.userOpHash, txHash: sent.hash, blockNumber, success: false, revertReason })
      }
      return outcomes
    }
    const receipt = await pollReceipt(sent.hash)
    if (receipt) {
      const outcomes = outcomesFromLogs(receipt.logs, entryPoint)
      if (receipt.status === 'reverted') {
        log.error({ txHash: sent.hash }, 'handleOps transaction reverted')
        return failAll(outcomes, receipt.blockNumber, 'bundle transaction reverted; the operation did not run')
      }
      return outcomes
    }
    if (round >= maxRounds) {
      log.error({ txHash: sent.hash, nonce: sent.nonce }, 'handleOps transaction not mined; giving up waiting')
      return failAll(new Map(), 0n, 'not mined yet: the bundle transaction is still unconfirmed and may be included later')
    }
    const landed = await findOutcomes(sent.items, sent.fromBlock)
    if (landed.size === sent.items.length) {
      log.warn({ txHash: sent.hash }, 'bundle operations landed in another transaction')
      return landed
    }
    const confirmedNonce = await client.getTransactionCount({ address: signer.address, blockTag: 'latest' })
    if (confirmedNonce > sent.nonce) {
      // Our nonce is spent, by a transaction that is not ours: the missing operations never ran; send them anew.
      nonces.resync()
      const missing = sent.items.filter((item) => !landed.has(item.userOpHash))
      log.warn({ txHash: sent.hash, nonce: sent.nonce, missing: missing.length }, 'bundle transaction replaced; resending its operations')
      const gasLimit = await blockGasLimit()
      const { items, gasUsed } = await simulate(missing, new Map(), gasLimit)
      if (items.length === 0) return landed
      const again = await settle(await send(items, min(bundleGas(items, gasUsed), gasLimit)), round + 1)
      return new Map([...landed, ...again])
    }
    const pendingNonce = await client.getTransactionCount({ address: signer.address, blockTag: 'pending' })
    if (pendingNonce <= sent.nonce && confirmedNonce < sent.nonce) {
      // Not executable: an earlier nonce of ours is missing (a reorg dropped its transaction). The transaction would
      // wait behind the gap for ever; send the operations again with a nonce read from the chain. Should the old one
      // run after all, its operations' nonces are spent by then and it reverts without running any of them twice.
      nonces.resync()
      log.warn({ txHash: sent.hash, nonce: sent.nonce, chainNonce: pendingNonce }, 'bundle transaction behind a nonce gap; resending its operations')
      const missing = sent.items.filter((item) => !landed.has(item.userOpHash))
      const gasLimit = await blockGasLimit()
      const { items, gasUsed } = await simulate(missing, new Map(), gasLimit)
      if (items.length === 0) return landed
      const again = await settle(await send(items, min(bundleGas(items, gasUsed), gasLimit)), round + 1)
      return new Map([...landed, ...again])
    }
    const pending = await client.getTransaction({ hash: sent.hash }).catch(() => undefined)
    if (!pending) {
      log.warn({ txHash: sent.hash, nonce: sent.nonce }, 'bundle transaction dropped; re-broadcasting')
      await client.sendRawTransaction({ serializedTransaction: sent.raw }).catch((error: unknown) => {
        log.warn({ txHash: sent.hash, error: error instanceof BaseError ? error.shortMessage : String(error) }, 're-broadcast refused')
      })
    }
    return settle(sent, round + 1)
  }

  // Transactions go out in the order submit was called, whatever order the simulations finish in: the caller's
  // chunks are in priority order, and one EOA's transactions are mined in nonce order.
  let sendTurn: Promise<void> = Promise.resolve()

  return {
    async warm() {
      await Promise.all([readChainNow(), blockGasLimit()])
    },
    async deployAccounts(deployments) {
      if (deployments.length === 0) return { mined: true, pending: false }
      const data = encodeFunctionData({
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [deployments.map(({ factory, factoryData }) => ({ target: factory, allowFailure: true, callData: factoryData }))],
      })
      // A fixed limit from the account type, not eth_estimateGas: with failures allowed the transaction never reverts,
      // so an estimate would find the gas at which every deployment runs out of gas and is skipped.
      const gas = deployments.reduce((sum, deployment) => sum + deployment.gas, 100_000n)
      const sent = await sendTransaction(chain.addresses.multicall3, data, gas, await recentChainNow(), { deployments: deployments.length })
      const receipt = await pollReceipt(sent.hash)
      if (receipt?.status === 'reverted') log.warn({ txHash: sent.hash }, 'account deployment transaction reverted')
      if (receipt) return { mined: true, pending: false }
      const pending = await client.getTransaction({ hash: sent.hash }).then(
        () => true,
        (error: unknown) => !(error instanceof BaseError && error.name === 'TransactionNotFoundError'),
      )
      // A dropped transaction leaves its nonce unused: the next send re-reads the counter instead of leaving a gap.
      if (!pending) nonces.resync()
      log.warn({ txHash: sent.hash, pending }, pending ? 'account deployment not mined yet' : 'account deployment dropped')
      return { mined: false, pending }
    },
    async submit(items, submitOptions = {}) {
      if (items.length === 0) return []
      const previousTurn = sendTurn
      let endTurn: () => void = () => undefined
      sendTurn = new Promise<void>((resolve) => (endTurn = resolve))
      try {
        const gate = Promise.all([previousTurn, submitOptions.sendAfter])
        // Awaited only after the simulation: a rejection meanwhile must not count as unhandled.
        gate.catch(() => undefined)
        return await submitInTurn(items, gate, endTurn)
      } finally {
        endTurn()
      }
    },
  }

  async function submitInTurn(items: readonly BundleItem[], previousTurn: Promise<unknown>, endTurn: () => void): Promise<BundleOutcome[]> {
    {
      const refused = new Map<Hash, string>()
      const gasLimit = await blockGasLimit()
      const maxGas = BigInt(Math.floor(Number(gasLimit) * blockGasShare))
      // Fees and the starting block are fetched while the bundle is simulated: every round trip saved is latency.
      const [simulated, now] = await Promise.all([simulate(items, refused, gasLimit), recentChainNow()])
      const plans: { items: BundleItem[]; gas: bigint }[] = []
      if (simulated.items.length === 0) {
        // Everything was refused: nothing to send.
      } else if (bundleGas(simulated.items, simulated.gasUsed) <= maxGas) {
        plans.push({ items: simulated.items, gas: bundleGas(simulated.items, simulated.gasUsed) })
      } else {
        // Too big for one block: split in order by the measured average cost per operation (execution + calldata).
        const all = calldataGas(handleOpsData(simulated.items))
        const perOp = (simulated.gasUsed + all.intrinsic - 21_000n) / BigInt(simulated.items.length)
        for (const chunk of packBundles(simulated.items, () => perOp, maxGas - headroom(simulated.items) - 21_000n, BUNDLE_OVERHEAD)) {
          const gas = bundleGas(chunk, (simulated.gasUsed / BigInt(simulated.items.length)) * BigInt(chunk.length) + BUNDLE_OVERHEAD)
          plans.push({ items: chunk, gas: min(gas, gasLimit) })
        }
      }
      // Send every chunk first (nonces in order), then wait for them together: they can share a block.
      await previousTurn
      const sent: SentTransaction[] = []
      const unsent = new Map<Hash, string>()
      for (const plan of plans) {
        try {
          sent.push(await send(plan.items, plan.gas, now))
        } catch (error) {
          // Nothing sent yet: the caller gets the error. Otherwise earlier transactions are in flight and their
          // results must not be lost: this chunk's operations are reported as not sent.
          if (sent.length === 0) throw error
          const code = error instanceof PrebuyError ? error.code : 'bundle_send_failed'
          for (const item of plan.items) unsent.set(item.userOpHash, `not sent (${code}); the operation did not run`)
        }
      }
      endTurn()
      const settled = await Promise.all(sent.map((transaction) => settle(transaction)))
      const outcomes = new Map<Hash, UserOperationOutcome>()
      for (const map of settled) for (const [hash, outcome] of map) outcomes.set(hash, outcome)
      return items.map((item): BundleOutcome => {
        const reason = refused.get(item.userOpHash)
        const outcome = outcomes.get(item.userOpHash)
        if (outcome) return { ...outcome, id: item.id }
        const notSent = unsent.get(item.userOpHash)
        if (notSent) return { id: item.id, userOpHash: item.userOpHash, txHash: zeroHash, blockNumber: 0n, success: false, revertReason: notSent }
        return {
          id: item.id,
          userOpHash: item.userOpHash,
          txHash: zeroHash,
          blockNumber: 0n,
          success: false,
          revertReason: reason ? `refused by the EntryPoint: ${reason}` : 'not included in any bundle',
        }
      })
    }
  }
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b)
