import type { Hash } from 'viem'
import type { ErrorCode } from '../../common/error-codes.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { BlockGasLimit } from './block-gas-limit.ts'
import { calldataGas } from './gas-meter.ts'
import { bundleGas, headroom, minGas, OPERATION_GAS_GUESS, planBundles, simulationGroups, transactionGasBudget, type BundlePlan } from './bundle-gas.ts'
import type { BundleItem, BundleOutcome, Bundler, UserOperationOutcome } from './bundler.ts'
import type { BundlerContext } from './bundler-context.ts'
import type { ChainNowReader } from './chain-now.ts'
import type { SentBundle, TransactionSender } from './send-transaction.ts'
import type { BundleSettler } from './settle-bundle.ts'
import type { BundleSimulator } from './simulate-bundle.ts'
import type { LandingBlock } from '../wallet-service.ts'

export interface BundleSubmitter {
  submit: Bundler['submit']
}

export interface BundleSubmitterParts {
  simulator: BundleSimulator
  blockGasLimit: BlockGasLimit
  chainNow: Pick<ChainNowReader, 'recent'>
  sender: Pick<TransactionSender, 'sendBundle'>
  settler: BundleSettler
  /** Share of the block gas limit one handleOps may use, leaving room for others' transactions. */
  blockGasShare: number
}

/** An operation whose transaction was not broadcast, with the code of the error that stopped it. */
export const notSentOutcome = (item: Pick<BundleItem, 'id' | 'userOpHash'>, code: ErrorCode): BundleOutcome => ({
  status: 'not_sent',
  id: item.id,
  userOpHash: item.userOpHash,
  reason: `not sent (${code}); the operation did not run`,
  code,
})

/**
 * One outcome per item, in item order: what the chain said, else why it was not sent, else why it was not included
 * (refused by the EntryPoint in validation, or dropped from the bundle otherwise).
 */
export function outcomesInOrder(
  items: readonly BundleItem[],
  outcomes: ReadonlyMap<Hash, UserOperationOutcome>,
  refused: ReadonlyMap<Hash, string>,
  unsent: ReadonlyMap<Hash, ErrorCode>,
): BundleOutcome[] {
  return items.map((item): BundleOutcome => {
    const reason = refused.get(item.userOpHash)
    const outcome = outcomes.get(item.userOpHash)
    if (outcome) return { ...outcome, id: item.id }
    const code = unsent.get(item.userOpHash)
    if (code) return notSentOutcome(item, code)
    return {
      status: 'refused',
      id: item.id,
      userOpHash: item.userOpHash,
      reason: reason ? `refused by the EntryPoint: ${reason}` : 'not included in any bundle',
    }
  })
}

/**
 * A chunk the node refused for EIP-7825's cap (a cap lower than the one configured) goes out again as two halves,
 * each sized from its share of the measured gas: the refusal is the transaction's size, never its operations' fault.
 */
export function halvePlan(handleOpsData: BundlerContext['handleOpsData'], plan: BundlePlan, limit: bigint): BundlePlan[] {
  // The plan's gas is calldata + measured execution with its margin + headroom (bundleGas): what was measured per
  // operation is recovered from it, and each half is sized from its share.
  const overhead = calldataGas(handleOpsData(plan.items)).intrinsic + headroom(plan.items)
  const measured = plan.gas > overhead ? ((plan.gas - overhead) * 8n) / 9n : 0n
  const half = Math.ceil(plan.items.length / 2)
  return [plan.items.slice(0, half), plan.items.slice(half)].map((items) => {
    const gas = bundleGas(handleOpsData, items, (measured * BigInt(items.length)) / BigInt(plan.items.length))
    return { items, gas: minGas(minGas(gas, plan.gas), limit) }
  })
}

export function createBundleSubmitter(ctx: Pick<BundlerContext, 'handleOpsData' | 'txGasCap' | 'log'>, parts: BundleSubmitterParts): BundleSubmitter {
  const { simulator, blockGasLimit, chainNow, sender, settler, blockGasShare } = parts

  // Transactions start out in the order submit was called, whatever order the simulations finish in: the caller's
  // chunks are in priority order, and one account's transactions are mined in nonce order. A submission waits only
  // until the one before has taken its sender accounts, not for its sends to finish (sender-pool.ts).
  let sendTurn: Promise<void> = Promise.resolve()
  // What one operation measured in the last simulation on this chain: how the next big bundle is grouped.
  let perOperationGas = OPERATION_GAS_GUESS

  /**
   * Sends one chunk; a chunk the node refuses for the gas cap goes out in two halves instead of failing (nothing was
   * sent for it), recursively, each half from its own account.
   */
  async function sendPlan(
    plan: BundlePlan,
    limit: bigint,
    now?: Parameters<TransactionSender['sendBundle']>[2],
  ): Promise<{ sent: SentBundle[]; failed: { plan: BundlePlan; error: unknown }[] }> {
    try {
      return { sent: [await sender.sendBundle(plan.items, plan.gas, now)], failed: [] }
    } catch (error) {
      if (error instanceof PrebuyError && error.code === 'transaction_over_gas_cap' && plan.items.length > 1) {
        ctx.log.warn({ operations: plan.items.length, gas: plan.gas.toString() }, 'handleOps refused for the gas cap; sending it in two halves')
        const halves = await Promise.all(halvePlan(ctx.handleOpsData, plan, limit).map((half) => sendPlan(half, limit, now)))
        return { sent: halves.flatMap((half) => half.sent), failed: halves.flatMap((half) => half.failed) }
      }
      return { sent: [], failed: [{ plan, error }] }
    }
  }

  async function submitInTurn(
    items: readonly BundleItem[],
    previousTurn: Promise<unknown>,
    endTurn: () => void,
    landsIn: LandingBlock | undefined,
    launchBlock?: bigint,
  ): Promise<BundleOutcome[]> {
    const refused = new Map<Hash, string>()
    // Sized against the per-transaction cap (EIP-7825), never the block gas limit alone: the simulation asks for no
    // more than a transaction may, and every chunk's gas limit stays within it.
    const { limit, maxGas } = transactionGasBudget(await blockGasLimit.get(), blockGasShare, ctx.txGasCap)
    // Fees and the starting block are fetched while the bundle is simulated: every round trip saved is latency.
    // A bundle expected to need more than one transaction is simulated in groups that each fit one, at once.
    const groups = simulationGroups(items, perOperationGas, maxGas)
    const [simulated, now] = await Promise.all([
      Promise.all(groups.map((group) => simulator.simulate(group, refused, limit, landsIn))),
      chainNow.recent({ launchBlock, landsIn: landsIn?.number }),
    ])
    const measured = simulated.reduce((sum, group) => ({ count: sum.count + group.items.length, gas: sum.gas + group.gasUsed }), { count: 0, gas: 0n })
    if (measured.count > 0) perOperationGas = measured.gas / BigInt(measured.count)
    const plans = simulated.flatMap((group) => planBundles(ctx.handleOpsData, group, limit, maxGas))
    // Send every chunk at once, each from the freest sender account (its own nonces: none waits for another's send),
    // then wait for them together: they can share a block. Accounts are taken in chunk order, before any await.
    await previousTurn
    const unsent = new Map<Hash, ErrorCode>()
    const attempts = plans.map((plan) => sendPlan(plan, limit, now))
    // The next submission may start sending once this one's accounts are taken: no global lock across the sends.
    endTurn()
    const results = await Promise.all(attempts)
    const sent = results.flatMap((result) => result.sent)
    const failures = results.flatMap((result) => result.failed)
    // Nothing sent at all: the caller gets the error. Otherwise the transactions in flight must not lose their
    // results: the failed chunks' operations are reported as not sent.
    if (sent.length === 0 && failures.length > 0) throw failures[0]!.error
    for (const { plan, error } of failures) {
      const code = error instanceof PrebuyError ? error.code : 'bundle_send_failed'
      for (const item of plan.items) unsent.set(item.userOpHash, code)
    }
    const settled = await Promise.all(sent.map((transaction) => settler.settle(transaction)))
    const outcomes = new Map<Hash, UserOperationOutcome>()
    for (const map of settled) for (const [hash, outcome] of map) outcomes.set(hash, outcome)
    return outcomesInOrder(items, outcomes, refused, unsent)
  }

  return {
    async submit(items, submitOptions = {}) {
      if (items.length === 0) return []
      const previousTurn = sendTurn
      let endTurn: () => void = () => undefined
      sendTurn = new Promise<void>((resolve) => (endTurn = resolve))
      try {
        const gate = Promise.all([previousTurn, submitOptions.sendAfter])
        // Awaited only after the simulation: a rejection meanwhile must not count as unhandled.
        gate.catch(() => undefined)
        return await submitInTurn(items, gate, endTurn, submitOptions.landsIn, submitOptions.launchBlock)
      } finally {
        endTurn()
      }
    },
  }
}
