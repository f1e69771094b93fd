import { BaseError, type Address, type Hash, type Hex } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { BundleItem } from './bundler.ts'
import type { BundlerContext } from './bundler-context.ts'
import type { ChainNow, ChainNowReader } from './chain-now.ts'
import { isGasCapRefusal } from './gas-cap-refusal.ts'
import { DEFAULT_PRIORITY_FEE_POLICY, type Fees, NODE_MIN_TIP_WEI, type PriorityFeePolicy, withinTipCap } from './priority-fee-policy.ts'
import type { SenderLane } from './sender-pool.ts'
import { signEip1559 } from './sign-eip1559.ts'

/** A transaction of a sender account as broadcast: kept signed so that it can be re-broadcast if the pool drops it. */
export interface SentTransaction {
  hash: Hash
  /** The tip per gas it offered (after the per-transaction cap): a send that must land after it offers less. */
  maxPriorityFeePerGas?: bigint
  /** The sender account that signed it (its nonce stream): reconciliation reads that account's nonces. */
  from: Address
  raw: Hex
  nonce: number
  fromBlock: bigint
}

/** A handleOps transaction and the operations it carries. */
export interface SentBundle extends SentTransaction {
  items: readonly BundleItem[]
}

/**
 * Which sender account signs: 'pool' the freest of the chain's sender accounts (sender-pool.ts), 'primary' the bundler
 * EOA itself (a call to a contract of ours that names it as its only operator).
 */
export type SenderChoice = 'pool' | 'primary' | AccountChoice

/**
 * One named sender account of the pool (a split batch's plan assigns each transaction its account and nonce order),
 * and optionally the highest tip per gas it may offer: a transaction that must be ordered after others of its block
 * (the split batch's settle after its collects: Base orders a block by priority fee,
 * docs.base.org/base-chain/network-information/transaction-ordering) offers less than they did.
 */
export interface AccountChoice {
  account: Address
  tipAtMost?: bigint
}

export interface TransactionSender {
  /** Signs and broadcasts one transaction of a sender account (that account's nonce manager hands out its nonce). */
  send(to: Address, data: Hex, gas: bigint, now: ChainNow | undefined, logFields: Record<string, unknown>, account?: SenderChoice): Promise<SentTransaction>
  /** Sends the handleOps transaction of a bundle; without `now` the fees and block are read first. */
  sendBundle(items: readonly BundleItem[], gas: bigint, now?: ChainNow): Promise<SentBundle>
}

/** What a send signed, for a replacement with higher fees when it is stuck (fee-bumper.ts). */
export interface SignedSend {
  hash: Hash
  /** The sender account that signed it: a replacement is signed by the same account with the same nonce. */
  from: Address
  to: Address
  data: Hex
  gas: bigint
  nonce: number
  fees: Fees
}

/** Optional parts of the sender: the fee policy (its per-transaction tip cap) and who learns of each send. */
export interface TransactionSenderOptions {
  feePolicy?: PriorityFeePolicy
  onSent?: (send: SignedSend) => void
}

/** Fees with the tip lowered to at most `tip` (never under the node's 1 wei), the fee cap lowered by the same amount. */
function tipNoAbove(fees: Fees, tip: bigint): Fees {
  const target = tip < NODE_MIN_TIP_WEI ? NODE_MIN_TIP_WEI : tip
  if (fees.maxPriorityFeePerGas <= target) return fees
  const cut = fees.maxPriorityFeePerGas - target
  return { maxPriorityFeePerGas: target, maxFeePerGas: fees.maxFeePerGas - cut > target ? fees.maxFeePerGas - cut : target }
}

const NONCE_CONFLICT = /nonce too low|nonce too high|already known|replacement transaction underpriced|nonce.*already used/i

export function createTransactionSender(
  ctx: Pick<BundlerContext, 'chain' | 'client' | 'log' | 'entryPoint' | 'senders' | 'handleOpsData' | 'txGasCap'>,
  chainNow: Pick<ChainNowReader, 'read'> & Partial<Pick<ChainNowReader, 'sent'>>,
  options: TransactionSenderOptions = {},
): TransactionSender {
  const { chain, client, log, entryPoint, senders, handleOpsData, txGasCap } = ctx
  const feePolicy = options.feePolicy ?? DEFAULT_PRIORITY_FEE_POLICY

  const overCap = (gas: bigint, cause?: unknown) =>
    new PrebuyError('transaction_over_gas_cap', `A transaction of ${gas} gas is over the ${txGasCap} one transaction may ask for on ${chain.key}.`, {
      details: { gas: gas.toString(), cap: txGasCap.toString() },
      ...(cause === undefined ? {} : { cause }),
    })

  async function send(
    to: Address,
    data: Hex,
    gas: bigint,
    now: ChainNow | undefined,
    logFields: Record<string, unknown>,
    account: SenderChoice = 'pool',
  ): Promise<SentTransaction> {
    // Every transaction of a sender account passes here: none may ask for more than the chain's cap (the node would
    // refuse it; the callers size or split their transactions to fit, this is the last check).
    if (gas > txGasCap) throw overCap(gas)
    // The account is chosen before anything is awaited: sends started in order take accounts in order.
    const lane = senders.take(account === 'primary' ? senders.primary : account === 'pool' ? undefined : senders.of(account.account))
    const { signer } = lane
    let sentHash: Hash | undefined
    try {
      const read = now ?? (await chainNow.read())
      const { fromBlock } = read
      // Every transaction of a sender account, whatever it carries: no more tip than the policy allows one transaction.
      const capped = withinTipCap(feePolicy, read.fees, gas)
      const tipAtMost = typeof account === 'object' ? account.tipAtMost : undefined
      const fees = tipAtMost === undefined ? capped : tipNoAbove(capped, tipAtMost)
      const sent = await sendWithRetries(lane, to, data, gas, fees, logFields)
      sentHash = sent.hash
      return { ...sent, from: signer.address, fromBlock, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
    } finally {
      if (sentHash === undefined) senders.release(lane)
      else senders.sent(lane, sentHash)
      // The pending-nonce check after our sends, when a send is expected soon (chain-now.ts keepChecked).
      chainNow.sent?.()
    }
  }

  async function sendWithRetries(
    lane: SenderLane,
    to: Address,
    data: Hex,
    gas: bigint,
    fees: Fees,
    logFields: Record<string, unknown>,
  ): Promise<{ hash: Hash; raw: Hex; nonce: number }> {
    const { signer, nonces } = lane
    for (let attempt = 1; ; attempt++) {
      try {
        return await nonces.use(async (nonce) => {
          // Written and hashed once (sign-eip1559.ts: byte for byte viem's signTransaction, 2-3 ms instead of 3-19 ms
          // for a split batch's 20 kB collect).
          const raw = await signEip1559(signer, {
            chainId: chain.chainId,
            to,
            data,
            gas,
            nonce,
            maxFeePerGas: fees.maxFeePerGas,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
          })
          const hash = await client.sendRawTransaction({ serializedTransaction: raw })
          options.onSent?.({ hash, from: signer.address, to, data, gas, nonce, fees })
          log.info(
            { txHash: hash, from: signer.address, nonce, maxPriorityFeePerGas: fees.maxPriorityFeePerGas, ...logFields },
            to === entryPoint ? 'handleOps sent' : 'transaction sent',
          )
          return { hash, raw, nonce }
        })
      } catch (error) {
        // The nonce manager already dropped its counter; a nonce conflict (another sender of this EOA, a restart with
        // transactions still pending) heals by re-reading it, anything else is not ours to retry.
        const message = error instanceof BaseError ? `${error.shortMessage} ${error.details ?? ''}` : String(error)
        if (isGasCapRefusal(message)) throw overCap(gas, error)
        if (/insufficient funds/i.test(message)) {
          throw new PrebuyError('bundler_unfunded', `The sender account ${signer.address} on ${chain.key} has too little ETH for gas.`, {
            cause: error,
          })
        }
        if (attempt >= 4 || !NONCE_CONFLICT.test(message)) {
          throw new PrebuyError('bundle_send_failed', `The bundler's transaction could not be sent on ${chain.key}.`, { cause: error })
        }
        log.warn({ attempt, error: message }, 'bundler nonce conflict; resynced from the chain')
      }
    }
  }

  return {
    send,
    async sendBundle(items, gas, now) {
      const sent = await send(entryPoint, handleOpsData(items), gas, now, { operations: items.length })
      return { ...sent, items }
    },
  }
}
