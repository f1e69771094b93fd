import { BaseError, hexToBigInt, type Hash, type TransactionReceipt } from 'viem'
import type { BundlerContext } from './bundler-context.ts'
import type { ChainNowReader } from './chain-now.ts'
import { DROP_CHECK_MS, nodeKnowsTransaction, type ReceiptPoller } from './poll-receipt.ts'
import { bumpFees, type PriorityFeePolicy } from './priority-fee-policy.ts'
import type { SignedSend } from './send-transaction.ts'

/**
 * Replaces a transaction of the bundler EOA that a block passed without: same nonce, tip and fee cap raised by at
 * least the node's replacement minimum (priority-fee-policy.ts, geth's 10%), never above the per-transaction tip cap.
 * On a chain ordered by tip (Base) a transaction outbid for one block is likely outbid for the next; one the pool
 * dropped (its fee cap fell under a rising base fee) is sent again the same way. One nonce for the whole lineage, so
 * at most one of its transactions can ever land.
 */
export interface FeeBumper {
  /** Remembers what a send signed (the sender's `onSent`): only recorded transactions are replaced. */
  record(send: SignedSend): void
  /**
   * A receipt poller for the bundler's own waits (bundles, deployments, calls): the receipt of whichever transaction
   * of the lineage landed; undefined at the timeout, or as soon as the nonce is found used by a transaction not ours
   * (the settler then reconciles as before). Transactions it was not told of are polled by `base`.
   */
  receipts: ReceiptPoller
}

export interface FeeBumperParts {
  base: ReceiptPoller
  chainNow: Pick<ChainNowReader, 'read'>
  feePolicy: PriorityFeePolicy
  receiptTimeoutMs: number
  pollingIntervalMs: number
}

interface Lineage {
  hashes: Hash[]
  current: SignedSend
  cappedWarned: boolean
}

/** Lineages kept at once: one per transaction still awaited; the oldest go first past this. */
const MAX_LINEAGES = 10_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const messageOf = (error: unknown): string => (error instanceof BaseError ? `${error.shortMessage} ${error.details ?? ''}` : String(error))

export function createFeeBumper(ctx: Pick<BundlerContext, 'chain' | 'client' | 'senders' | 'log'>, parts: FeeBumperParts): FeeBumper {
  const { chain, client, senders, log } = ctx
  const { base, chainNow, feePolicy } = parts
  const lineages = new Map<Hash, Lineage>()

  // The head as the node answers a request made now: where a wait starts from. Not getBlockNumber's default, which
  // serves the client's cached number for its polling interval (250 ms for the wallet clients), nor cacheTime 0, which
  // still joins an eth_blockNumber already in flight: either can name a block from before the transaction reached the
  // node, and a start block two behind makes the first fresh read look like a block passed without the transaction (it
  // was replaced before its first block, and the executor's test of a mined batch waited for the original's receipt
  // in vain: 2 of ~8 full-suite runs, 7 of 36 runs of the file beside another copy; the harness mines every ~150 ms).
  // The drop check compares a fresh head with it too (a cached one could say no block came when one did, and answer
  // "dropped" where a block passed and a bump is due). The loop's per-round read may stay cached: an older number
  // there only delays a bump.
  const headNow = (): Promise<bigint | undefined> =>
    client.request({ method: 'eth_blockNumber' }).then(
      (hex) => hexToBigInt(hex),
      () => undefined,
    )

  // A lineage that ended (mined, or its nonce spent) frees its sender account for the next transaction.
  const forget = (lineage: Lineage) => {
    for (const hash of lineage.hashes) {
      lineages.delete(hash)
      senders.settled(hash)
    }
  }

  async function receiptOfAny(lineage: Lineage): Promise<TransactionReceipt | undefined> {
    // Newest first: once replaced, the replacement is the one expected to land.
    for (const hash of [...lineage.hashes].reverse()) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined)
      if (receipt) return receipt
    }
    return undefined
  }

  /** One replacement of the lineage's newest transaction: 'nonce_used' when the chain already spent its nonce. */
  async function replace(lineage: Lineage): Promise<'replaced' | 'kept' | 'nonce_used'> {
    const { current } = lineage
    // The same account signs the replacement, with the same nonce.
    const { signer } = senders.of(current.from)
    const confirmed = await client.getTransactionCount({ address: signer.address, blockTag: 'latest' })
    if (confirmed > current.nonce) return 'nonce_used'
    const fresh = await chainNow.read()
    const bump = bumpFees(feePolicy, current.fees, fresh.fees, current.gas)
    if (bump.kind === 'capped') {
      if (!lineage.cappedWarned) {
        lineage.cappedWarned = true
        log.warn(
          { txHash: current.hash, nonce: current.nonce, tipCap: bump.tipCap, maxPriorityFeePerGas: current.fees.maxPriorityFeePerGas },
          'transaction not mined for a block; a replacement would exceed wallet.priorityFee.maxEthPerTx, so it stays as sent',
        )
      }
      return 'kept'
    }
    const dropped = !(await nodeKnowsTransaction(client, current.hash))
    const { fees } = bump
    const raw = await signer.signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      to: current.to,
      data: current.data,
      gas: current.gas,
      nonce: current.nonce,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    })
    let hash: Hash
    try {
      hash = await client.sendRawTransaction({ serializedTransaction: raw })
    } catch (error) {
      // Refused (the old one was mined meanwhile: nonce too low; or the node wants more): the next receipt check or
      // the next block decides; the lineage is unchanged.
      log.warn({ txHash: current.hash, nonce: current.nonce, error: messageOf(error) }, 'replacement with higher fees refused')
      return 'kept'
    }
    const next: SignedSend = { ...current, hash, fees }
    lineage.hashes.push(hash)
    lineage.current = next
    lineages.set(hash, lineage)
    log.warn(
      {
        txHash: current.hash,
        replacement: hash,
        nonce: current.nonce,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        maxFeePerGas: fees.maxFeePerGas,
        dropped,
      },
      dropped ? 'transaction dropped before it was mined; sent again with higher fees' : 'transaction not mined for a block; replaced with higher fees',
    )
    return 'replaced'
  }

  return {
    record(send) {
      lineages.set(send.hash, { hashes: [send.hash], current: send, cappedWarned: false })
      if (lineages.size > MAX_LINEAGES) {
        const oldest = lineages.keys().next()
        if (!oldest.done) lineages.delete(oldest.value)
      }
    },
    receipts: {
      latest: (hash) => lineages.get(hash)?.current.hash ?? hash,
      async poll(hash) {
        const lineage = lineages.get(hash)
        if (!lineage) return base.poll(hash)
        const deadline = Date.now() + parts.receiptTimeoutMs
        // The block when this wait began: the transaction is due in the next one; once the block after that exists
        // without it, it is stuck for a block (the next check of the receipt comes first, so a late one is not missed).
        let since = await headNow()
        const began = since
        let nextPresenceCheck = Date.now() + DROP_CHECK_MS
        while (Date.now() < deadline) {
          const receipt = await receiptOfAny(lineage)
          if (receipt) {
            forget(lineage)
            return receipt
          }
          // A transaction the node dropped while no block came (the pool evicted it, not the chain's fees): answered at
          // once, as the plain poller does, and its caller decides (a bundle is re-broadcast by the settler, a
          // deployment ahead releases its wallets so the next operation deploys them). Once blocks come, a dropped
          // transaction is replaced with higher fees below like a stuck one (a base fee that rose past its fee cap).
          if (Date.now() >= nextPresenceCheck) {
            nextPresenceCheck = Date.now() + DROP_CHECK_MS
            const head = await headNow()
            if ((head === undefined || began === undefined || head <= began) && !(await nodeKnowsTransaction(client, lineage.current.hash))) {
              const landed = await receiptOfAny(lineage)
              forget(lineage)
              return landed
            }
          }
          const block = await client.getBlockNumber().catch(() => undefined)
          if (since === undefined) since = block
          else if (block !== undefined && block >= since + 2n) {
            since = block
            const outcome = await replace(lineage).catch((error: unknown) => {
              log.warn({ txHash: lineage.current.hash, error: messageOf(error) }, 'could not replace a stuck transaction')
              return 'kept' as const
            })
            if (outcome === 'nonce_used') {
              const landed = await receiptOfAny(lineage)
              if (landed) forget(lineage)
              return landed
            }
            // The replacement went out after `block` was read (its reads and send took round trips): it is due in the
            // block after the head now, as the first one was.
            if (outcome === 'replaced') since = (await headNow()) ?? since
          }
          await sleep(parts.pollingIntervalMs)
        }
        return receiptOfAny(lineage)
      },
    },
  }
}
