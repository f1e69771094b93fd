import { BaseError, type Address, type Hash, type Hex } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { BundleItem } from './bundler.ts'
import type { BundlerContext } from './bundler-context.ts'
import type { ChainNow, ChainNowReader } from './chain-now.ts'
import { isGasCapRefusal } from './gas-cap-refusal.ts'

/** A transaction of the bundler EOA as broadcast: kept signed so that it can be re-broadcast if the pool drops it. */
export interface SentTransaction {
  hash: Hash
  raw: Hex
  nonce: number
  fromBlock: bigint
}

/** A handleOps transaction and the operations it carries. */
export interface SentBundle extends SentTransaction {
  items: readonly BundleItem[]
}

export interface TransactionSender {
  /** Signs and broadcasts one transaction of the bundler EOA (the nonce manager hands out its nonce). */
  send(to: Address, data: Hex, gas: bigint, now: ChainNow | undefined, logFields: Record<string, unknown>): Promise<SentTransaction>
  /** Sends the handleOps transaction of a bundle; without `now` the fees and block are read first. */
  sendBundle(items: readonly BundleItem[], gas: bigint, now?: ChainNow): Promise<SentBundle>
}

const NONCE_CONFLICT = /nonce too low|nonce too high|already known|replacement transaction underpriced|nonce.*already used/i

export function createTransactionSender(
  ctx: Pick<BundlerContext, 'chain' | 'client' | 'signer' | 'log' | 'entryPoint' | 'nonces' | 'handleOpsData' | 'txGasCap'>,
  chainNow: Pick<ChainNowReader, 'read'>,
): TransactionSender {
  const { chain, client, signer, log, entryPoint, nonces, handleOpsData, txGasCap } = ctx

  const overCap = (gas: bigint, cause?: unknown) =>
    new PrebuyError('transaction_over_gas_cap', `A transaction of ${gas} gas is over the ${txGasCap} one transaction may ask for on ${chain.key}.`, {
      details: { gas: gas.toString(), cap: txGasCap.toString() },
      ...(cause === undefined ? {} : { cause }),
    })

  async function send(to: Address, data: Hex, gas: bigint, now: ChainNow | undefined, logFields: Record<string, unknown>): Promise<SentTransaction> {
    // Every transaction of the bundler EOA passes here: none may ask for more than the chain's cap (the node would
    // refuse it; the callers size or split their transactions to fit, this is the last check).
    if (gas > txGasCap) throw overCap(gas)
    const { fees, fromBlock } = now ?? (await chainNow.read())
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
        if (isGasCapRefusal(message)) throw overCap(gas, error)
        if (/insufficient funds/i.test(message)) {
          throw new PrebuyError('bundler_unfunded', `The bundler account on ${chain.key} has too little ETH for gas.`, { cause: error })
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
