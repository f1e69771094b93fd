import { BaseError, type Hash, type PublicClient, type TransactionReceipt } from 'viem'

export interface ReceiptPoller {
  /**
   * Polls for the receipt until the timeout, or until the node no longer knows the transaction (checked about once a
   * second): a node drops a transaction whose gas limit no longer fits the block it was meant for, and waiting out
   * the whole timeout for it would cost many blocks; the reconcile step then re-broadcasts it.
   */
  poll(hash: Hash): Promise<TransactionReceipt | undefined>
  /** Optional: the newest transaction standing for `hash` (a replacement with higher fees, fee-bumper.ts). */
  latest?(hash: Hash): Hash
}

/** How often a transaction waiting for its receipt is checked for having left the node's pool. */
export const DROP_CHECK_MS = 1_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether the node still knows the transaction; a failed read other than "not found" counts as known. */
export const nodeKnowsTransaction = (client: Pick<PublicClient, 'getTransaction'>, hash: Hash): Promise<boolean> =>
  client.getTransaction({ hash }).then(
    () => true,
    (error: unknown) => !(error instanceof BaseError && error.name === 'TransactionNotFoundError'),
  )

export function createReceiptPoller(
  client: Pick<PublicClient, 'getTransaction' | 'getTransactionReceipt'>,
  options: { receiptTimeoutMs: number; pollingIntervalMs: number },
): ReceiptPoller {
  return {
    async poll(hash) {
      const deadline = Date.now() + options.receiptTimeoutMs
      let nextPresenceCheck = Date.now() + DROP_CHECK_MS
      while (Date.now() < deadline) {
        const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined)
        if (receipt) return receipt
        if (Date.now() >= nextPresenceCheck) {
          nextPresenceCheck = Date.now() + DROP_CHECK_MS
          if (!(await nodeKnowsTransaction(client, hash))) {
            // Mined between the two reads? Then the receipt is there now.
            return client.getTransactionReceipt({ hash }).catch(() => undefined)
          }
        }
        await sleep(options.pollingIntervalMs)
      }
      return undefined
    },
  }
}

/** What became of one transaction of the bundler EOA: its receipt, or none in time and whether the node still holds it. */
export interface Landing {
  receipt: TransactionReceipt | undefined
  pending: boolean
}

/**
 * Follows one transaction of the bundler EOA (an account deployment, a call such as an OTC settlement) to its receipt;
 * never rejects. A transaction the node dropped leaves its nonce unused, so the nonce counter is re-read (`resync`)
 * instead of leaving a gap; one that cannot be followed at all counts as pending (whoever waits on it checks the chain).
 */
export async function followLanding(
  parts: { client: Pick<PublicClient, 'getTransaction'>; receipts: ReceiptPoller; resync: () => void; log: { warn(fields: object, message: string): void } },
  hash: Hash,
  what: string,
): Promise<Landing> {
  try {
    const receipt = await parts.receipts.poll(hash)
    if (receipt) return { receipt, pending: false }
    const pending = await nodeKnowsTransaction(parts.client, parts.receipts.latest?.(hash) ?? hash)
    if (!pending) parts.resync()
    parts.log.warn({ txHash: hash, pending }, pending ? `${what} not mined yet` : `${what} dropped`)
    return { receipt: undefined, pending }
  } catch (error) {
    parts.log.warn({ err: error, txHash: hash }, `could not follow the ${what}`)
    return { receipt: undefined, pending: true }
  }
}
