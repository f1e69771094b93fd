import type { Hash } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { BlockGasLimit } from './block-gas-limit.ts'
import { planBundles } from './bundle-gas.ts'
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

/**
 * One outcome per item, in item order: what the chain said, else why it was not sent, else why it was not included
 * (refused by the EntryPoint in validation, or dropped from the bundle otherwise).
 */
export function outcomesInOrder(
  items: readonly BundleItem[],
  outcomes: ReadonlyMap<Hash, UserOperationOutcome>,
  refused: ReadonlyMap<Hash, string>,
  unsent: ReadonlyMap<Hash, string>,
): BundleOutcome[] {
  return items.map((item): BundleOutcome => {
    const reason = refused.get(item.userOpHash)
    const outcome = outcomes.get(item.userOpHash)
    if (outcome) return { ...outcome, id: item.id }
    const notSent = unsent.get(item.userOpHash)
    if (notSent) return { status: 'not_sent', id: item.id, userOpHash: item.userOpHash, reason: notSent }
    return {
      status: 'refused',
      id: item.id,
      userOpHash: item.userOpHash,
      reason: reason ? `refused by the EntryPoint: ${reason}` : 'not included in any bundle',
    }
  })
}

export function createBundleSubmitter(ctx: Pick<BundlerContext, 'handleOpsData'>, parts: BundleSubmitterParts): BundleSubmitter {
  const { simulator, blockGasLimit, chainNow, sender, settler, blockGasShare } = parts

  // Transactions go out in the order submit was called, whatever order the simulations finish in: the caller's
  // chunks are in priority order, and one EOA's transactions are mined in nonce order.
  let sendTurn: Promise<void> = Promise.resolve()

  async function submitInTurn(
    items: readonly BundleItem[],
    previousTurn: Promise<unknown>,
    endTurn: () => void,
    landsIn: LandingBlock | undefined,
    launchBlock?: bigint,
  ): Promise<BundleOutcome[]> {
    const refused = new Map<Hash, string>()
    const gasLimit = await blockGasLimit.get()
    const maxGas = BigInt(Math.floor(Number(gasLimit) * blockGasShare))
    // Fees and the starting block are fetched while the bundle is simulated: every round trip saved is latency.
    const [simulated, now] = await Promise.all([
      simulator.simulate(items, refused, gasLimit, landsIn),
      chainNow.recent({ launchBlock, landsIn: landsIn?.number }),
    ])
    const plans = planBundles(ctx.handleOpsData, simulated, gasLimit, maxGas)
    // Send every chunk first (nonces in order), then wait for them together: they can share a block.
    await previousTurn
    const sent: SentBundle[] = []
    const unsent = new Map<Hash, string>()
    for (const plan of plans) {
      try {
        sent.push(await sender.sendBundle(plan.items, plan.gas, now))
      } catch (error) {
        // Nothing sent yet: the caller gets the error. Otherwise earlier transactions are in flight and their
        // results must not be lost: this chunk's operations are reported as not sent.
        if (sent.length === 0) throw error
        const code = error instanceof PrebuyError ? error.code : 'bundle_send_failed'
        for (const item of plan.items) unsent.set(item.userOpHash, `not sent (${code}); the operation did not run`)
      }
    }
    endTurn()
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
