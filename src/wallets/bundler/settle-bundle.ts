import { BaseError, type Hash } from 'viem'
import type { BlockGasLimit } from './block-gas-limit.ts'
import { planBundles, transactionGasBudget } from './bundle-gas.ts'
import type { BundleItem, UserOperationOutcome } from './bundler.ts'
import type { BundlerContext } from './bundler-context.ts'
import type { ReceiptPoller } from './poll-receipt.ts'
import type { SentBundle, TransactionSender } from './send-transaction.ts'
import type { BundleSimulator } from './simulate-bundle.ts'
import { outcomesFromLogs } from './user-operation-outcomes.ts'
import { getLogsInChunks } from '../../chain/get-logs-in-chunks.ts'

export interface BundleSettler {
  /**
   * Waits for a sent bundle and reconciles when its receipt does not come: if the operations landed anyway (a
   * replacement carried them) their events are the answer; if the nonce was used by another transaction the missing
   * operations are sent again in a new one; if the transaction vanished from the pool it is re-broadcast as signed.
   */
  settle(sent: SentBundle): Promise<Map<Hash, UserOperationOutcome>>
}

export interface BundleSettlerParts {
  receipts: ReceiptPoller
  simulator: BundleSimulator
  sender: Pick<TransactionSender, 'sendBundle'>
  blockGasLimit: BlockGasLimit
  /** How many dropped/replaced rounds to reconcile before giving up. */
  maxRounds: number
}

export function createBundleSettler(
  ctx: Pick<BundlerContext, 'client' | 'senders' | 'log' | 'entryPoint' | 'handleOpsData' | 'txGasCap'>,
  parts: BundleSettlerParts,
): BundleSettler {
  const { client, senders, log, entryPoint, handleOpsData, txGasCap } = ctx
  const { receipts, simulator, sender, blockGasLimit, maxRounds } = parts

  async function findOutcomes(items: readonly BundleItem[], fromBlock: bigint): Promise<Map<Hash, UserOperationOutcome>> {
    // In slices a provider serves (a bundle reconciled after an outage searches from the block it was sent at).
    const logs = await getLogsInChunks(client, { fromBlock, toBlock: 'latest' }, (from, to) =>
      client.getLogs({ address: entryPoint, fromBlock: from, toBlock: to }),
    )
    const wanted = new Set(items.map((item) => item.userOpHash))
    const all = outcomesFromLogs(logs, entryPoint)
    return new Map([...all].filter(([hash]) => wanted.has(hash)))
  }

  const missingOf = (sent: SentBundle, landed: Map<Hash, UserOperationOutcome>) => sent.items.filter((item) => !landed.has(item.userOpHash))

  /** Simulates operations of a bundle that did not land and sends the survivors anew, in transactions within the cap. */
  async function resend(missing: BundleItem[], landed: Map<Hash, UserOperationOutcome>, round: number): Promise<Map<Hash, UserOperationOutcome>> {
    // The whole block share, as the first send had: the missing operations of one transaction fit one again, unless the
    // chain changed meanwhile (then they are split like a first send).
    const { limit } = transactionGasBudget(await blockGasLimit.get(), 1, txGasCap)
    const simulated = await simulator.simulate(missing, new Map(), limit)
    // From whichever sender accounts are free, at once.
    const sent = await Promise.all(planBundles(handleOpsData, simulated, limit, limit).map((plan) => sender.sendBundle(plan.items, plan.gas)))
    const again = new Map(landed)
    for (const outcomes of await Promise.all(sent.map((transaction) => settle(transaction, round + 1)))) {
      for (const [hash, outcome] of outcomes) again.set(hash, outcome)
    }
    return again
  }

  async function settle(sent: SentBundle, round = 0): Promise<Map<Hash, UserOperationOutcome>> {
    // Failures of one transaction are reported per operation, never thrown: a throw would hide the results of the
    // bundle's other transactions, and a caller that does not learn an operation succeeded might repeat it.
    const failAll = (outcomes: Map<Hash, UserOperationOutcome>, failure: (item: BundleItem) => UserOperationOutcome) => {
      for (const item of sent.items) {
        if (!outcomes.has(item.userOpHash)) outcomes.set(item.userOpHash, failure(item))
      }
      return outcomes
    }
    const receipt = await receipts.poll(sent.hash)
    if (receipt) {
      const outcomes = outcomesFromLogs(receipt.logs, entryPoint)
      if (receipt.status === 'reverted') {
        log.error({ txHash: sent.hash }, 'handleOps transaction reverted')
        return failAll(outcomes, ({ userOpHash }) => ({ status: 'bundle_reverted', userOpHash, txHash: sent.hash, blockNumber: receipt.blockNumber }))
      }
      return outcomes
    }
    if (round >= maxRounds) {
      log.error({ txHash: sent.hash, nonce: sent.nonce }, 'handleOps transaction not mined; giving up waiting')
      return failAll(new Map(), ({ userOpHash }) => ({ status: 'not_mined', userOpHash, txHash: sent.hash }))
    }
    const landed = await findOutcomes(sent.items, sent.fromBlock)
    if (landed.size === sent.items.length) {
      log.warn({ txHash: sent.hash }, 'bundle operations landed in another transaction')
      return landed
    }
    // The nonces of the account that sent it: every sender account has its own stream.
    const { signer, nonces } = senders.of(sent.from)
    const confirmedNonce = await client.getTransactionCount({ address: signer.address, blockTag: 'latest' })
    if (confirmedNonce > sent.nonce) {
      // Our nonce is spent, by a transaction that is not ours: the missing operations never ran; send them anew.
      nonces.resync()
      const missing = missingOf(sent, landed)
      log.warn({ txHash: sent.hash, nonce: sent.nonce, missing: missing.length }, 'bundle transaction replaced; resending its operations')
      return resend(missing, landed, round)
    }
    const pendingNonce = await client.getTransactionCount({ address: signer.address, blockTag: 'pending' })
    if (pendingNonce <= sent.nonce && confirmedNonce < sent.nonce) {
      // Not executable: an earlier nonce of ours is missing (a reorg dropped its transaction). The transaction would
      // wait behind the gap for ever; send the operations again with a nonce read from the chain. Should the old one
      // run after all, its operations' nonces are spent by then and it reverts without running any of them twice.
      nonces.resync()
      log.warn({ txHash: sent.hash, nonce: sent.nonce, chainNonce: pendingNonce }, 'bundle transaction behind a nonce gap; resending its operations')
      return resend(missingOf(sent, landed), landed, round)
    }
    // A replacement with higher fees (fee-bumper.ts) stands for the transaction once sent.
    const pending = await client.getTransaction({ hash: receipts.latest?.(sent.hash) ?? sent.hash }).catch(() => undefined)
    if (!pending) {
      log.warn({ txHash: sent.hash, nonce: sent.nonce }, 'bundle transaction dropped; re-broadcasting')
      await client.sendRawTransaction({ serializedTransaction: sent.raw }).catch((error: unknown) => {
        log.warn({ txHash: sent.hash, error: error instanceof BaseError ? error.shortMessage : String(error) }, 're-broadcast refused')
      })
    }
    return settle(sent, round + 1)
  }

  return { settle: (sent) => settle(sent) }
}
