import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { entryPoint07Abi, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { Logger } from '../../common/logger.ts'
import { createNonceManager, type NonceManager } from './nonce-manager.ts'
import { packBundles } from './pack-bundles.ts'
import { outcomesFromLogs, type UserOperationOutcome } from './user-operation-outcomes.ts'

/** A signed v0.7 UserOperation ready for handleOps, with the caller's correlation id. */
export interface BundleItem {
  id: string
  userOperation: UserOperation<'0.7'>
  userOpHash: Hash
}

export interface BundleOutcome extends UserOperationOutcome {
  id: string
}

export interface Bundler {
  /** The EOA that sends handleOps and pays for it (fund it with ETH). */
  readonly address: Address
  /**
   * Puts the items into as few handleOps transactions as the block gas limit allows, in the given order, and resolves
   * with one outcome per item (same order) once all are mined. An item the EntryPoint refuses during validation is
   * taken out of the bundle (the rest still go) and reported with success false and a zero tx hash.
   */
  submit(items: readonly BundleItem[]): Promise<BundleOutcome[]>
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
const ZERO_HASH: Hash = `0x${'00'.repeat(32)}`
/** Per-bundle cost outside the operations: intrinsic gas, calldata, handleOps' own loop. */
const BUNDLE_OVERHEAD = 60_000n

interface SentTransaction {
  hash: Hash
  raw: Hex
  nonce: number
  items: readonly BundleItem[]
  fromBlock: bigint
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** FailedOp / FailedOpWithRevert from a reverted estimate: which op the EntryPoint refused and why. */
function failedOpOf(error: unknown): { index: number; reason: string } | undefined {
  if (!(error instanceof BaseError)) return undefined
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (!(reverted instanceof ContractFunctionRevertedError) || !reverted.data) return undefined
  const { errorName, args } = reverted.data
  if ((errorName === 'FailedOp' || errorName === 'FailedOpWithRevert') && args) {
    return { index: Number(args[0] as bigint), reason: String(args[1]) }
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

  const handleOpsData = (items: readonly BundleItem[]): Hex =>
    encodeFunctionData({
      abi: entryPoint07Abi,
      functionName: 'handleOps',
      // Zero-fee operations pay the beneficiary nothing; the bundler EOA is named anyway.
      args: [items.map((item) => toPackedUserOperation(item.userOperation)), signer.address],
    })

  /** Estimates a bundle, dropping every op the EntryPoint refuses in validation until the rest passes. */
  async function estimate(items: readonly BundleItem[], refused: Map<string, string>): Promise<{ items: BundleItem[]; gas: bigint }> {
    let remaining = [...items]
    while (remaining.length > 0) {
      try {
        const gas = await client.estimateContractGas({
          address: entryPoint,
          abi: entryPoint07Abi,
          functionName: 'handleOps',
          args: [remaining.map((item) => toPackedUserOperation(item.userOperation)), signer.address],
          account: signer.address,
        })
        return { items: remaining, gas }
      } catch (error) {
        const failed = failedOpOf(error)
        const item = failed ? remaining[failed.index] : undefined
        if (!failed || !item) {
          const message = error instanceof BaseError ? error.shortMessage : String(error)
          if (/insufficient funds/i.test(message)) {
            throw new PrebuyError('unavailable', 'bundler_unfunded', `The bundler account on ${chain.key} has too little ETH for gas.`, { cause: error })
          }
          throw new PrebuyError('unavailable', 'bundle_estimate_failed', `Could not estimate the bundle on ${chain.key}.`, { cause: error })
        }
        log.warn({ userOpHash: item.userOpHash, id: item.id, reason: failed.reason }, 'user operation refused in validation')
        refused.set(item.userOpHash, failed.reason)
        remaining = remaining.filter((_, index) => index !== failed.index)
      }
    }
    return { items: [], gas: 0n }
  }

  async function send(items: readonly BundleItem[], gas: bigint): Promise<SentTransaction> {
    const fees = await client.estimateFeesPerGas()
    const fromBlock = await client.getBlockNumber()
    for (let attempt = 1; ; attempt++) {
      try {
        return await nonces.use(async (nonce) => {
          const raw = await signer.signTransaction({
            type: 'eip1559',
            chainId: chain.chainId,
            to: entryPoint,
            data: handleOpsData(items),
            gas,
            nonce,
            maxFeePerGas: fees.maxFeePerGas,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
          })
          const hash = await client.sendRawTransaction({ serializedTransaction: raw })
          log.info({ txHash: hash, nonce, operations: items.length }, 'handleOps sent')
          return { hash, raw, nonce, items, fromBlock }
        })
      } catch (error) {
        // The nonce manager already dropped its counter; a nonce conflict (another sender of this EOA, a restart with
        // transactions still pending) heals by re-reading it, anything else is not ours to retry.
        const message = error instanceof BaseError ? `${error.shortMessage} ${error.details ?? ''}` : String(error)
        if (attempt >= 4 || !NONCE_CONFLICT.test(message)) {
          throw new PrebuyError('unavailable', 'bundle_send_failed', `The handleOps transaction could not be sent on ${chain.key}.`, { cause: error })
        }
        log.warn({ attempt, error: message }, 'bundler nonce conflict; resynced from the chain')
      }
    }
  }

  async function pollReceipt(hash: Hash): Promise<TransactionReceipt | undefined> {
    const deadline = Date.now() + receiptTimeoutMs
    while (Date.now() < deadline) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined)
      if (receipt) return receipt
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
    const receipt = await pollReceipt(sent.hash)
    if (receipt) {
      const outcomes = outcomesFromLogs(receipt.logs, entryPoint)
      if (receipt.status === 'reverted') {
        throw new PrebuyError('unavailable', 'bundle_reverted', `The handleOps transaction reverted on ${chain.key}.`, { details: { txHash: sent.hash } })
      }
      return outcomes
    }
    if (round >= maxRounds) {
      throw new PrebuyError('unavailable', 'bundle_not_mined', `The handleOps transaction was not mined on ${chain.key}.`, { details: { txHash: sent.hash } })
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
      const { items, gas } = await estimate(missing, new Map())
      const again = await settle(await send(items, gas + gas / 4n), round + 1)
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

  return {
    address: signer.address,
    async submit(items) {
      if (items.length === 0) return []
      const refused = new Map<string, string>()
      const block = await client.getBlock()
      const maxGas = BigInt(Math.floor(Number(block.gasLimit) * blockGasShare))
      const estimated = await estimate(items, refused)
      const plans: { items: BundleItem[]; gas: bigint }[] = []
      if (estimated.items.length === 0) {
        // Everything was refused: nothing to send.
      } else if (estimated.gas <= maxGas) {
        plans.push({ items: estimated.items, gas: min(estimated.gas + estimated.gas / 4n, block.gasLimit) })
      } else {
        // Too big for one block: split in order by the average measured cost per operation. Each transaction also
        // needs headroom for its largest callGasLimit: the EntryPoint refuses (AA95) to start a call with less gas left.
        const perOp = estimated.gas / BigInt(estimated.items.length)
        const largestCall = estimated.items.reduce((max, item) => (item.userOperation.callGasLimit > max ? item.userOperation.callGasLimit : max), 0n)
        const headroom = (largestCall * 64n) / 63n + 50_000n
        for (const chunk of packBundles(estimated.items, () => perOp, maxGas - headroom, BUNDLE_OVERHEAD)) {
          plans.push({ items: chunk, gas: min(perOp * BigInt(chunk.length) + headroom + BUNDLE_OVERHEAD, block.gasLimit) })
        }
      }
      // Send every chunk first (nonces in order), then wait for them together: they can share a block.
      const sent: SentTransaction[] = []
      for (const plan of plans) sent.push(await send(plan.items, plan.gas))
      const settled = await Promise.all(sent.map((transaction) => settle(transaction)))
      const outcomes = new Map<Hash, UserOperationOutcome>()
      for (const map of settled) for (const [hash, outcome] of map) outcomes.set(hash, outcome)
      return items.map((item): BundleOutcome => {
        const reason = refused.get(item.userOpHash)
        const outcome = outcomes.get(item.userOpHash)
        if (outcome) return { ...outcome, id: item.id }
        return {
          id: item.id,
          userOpHash: item.userOpHash,
          txHash: ZERO_HASH,
          blockNumber: 0n,
          success: false,
          revertReason: reason ? `refused by the EntryPoint: ${reason}` : 'not included in any bundle',
        }
      })
    },
  }
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b)
