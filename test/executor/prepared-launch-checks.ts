import { expect } from 'vitest'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import type { ExecutorWallets } from '../../daemon/executor/executor-context.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { readAll } from '../../src/store/paginate.ts'
import type { SentCall } from '../../src/wallets/bundler/bundler.ts'
import type { Buyer, FlowHarness } from './flow-harness.ts'

export const USDC = 1_000_000n
/** Buyers per launch in these tests. */
export const BUYERS = 6
/** 6 buyers at 2 per transaction: 3 collects and a settle. */
export const PER_TX = 2

/** Buyer i's order spends 30 + i USDC (each wallet holds 100). */
export const spendOf = (i: number): bigint => BigInt(30 + i) * USDC

type SendFromAccountArgs = Parameters<NonNullable<ExecutorWallets['sendFromAccount']>>
/** One send from a sender account, as the executor asks it. */
export interface SendFromAccount {
  chain: SendFromAccountArgs[0]
  account: SendFromAccountArgs[1]
  call: SendFromAccountArgs[2]
  fields: SendFromAccountArgs[3]
  options: SendFromAccountArgs[4]
}

/**
 * What the devnet tests of the batch share (batch-compact-commit.test.ts, readied-launch-crash.test.ts,
 * batch-commit-record.test.ts, batch-split-recovery.test.ts, batch-split.test.ts): the batch journal's records, buyers
 * and their launch, the sends held back where a test "crashes", and the checks after a restart. `harness` is read at
 * each call (the tests start it in beforeAll).
 */
export function preparedLaunchChecks(harness: () => FlowHarness) {
  const journal = () => createBatchJournal(harness().store)
  const preparedOf = async (slug: string) => (await readAll(journal().preparedSub, `base!${slug}!`)).map((e) => e.value)
  const ordersOf = (buyers: readonly Buyer[], slug: string) => Promise.all(buyers.map((b) => harness().getOrder(b, slug)))
  const commitsOf = async (slug: string) => (await readAll(journal().commitsSub, `base!${slug}!`)).map((e) => e.value)
  const fullOf = async (slug: string) => (await readAll(journal().sub, `base!${slug}!`)).map((e) => e.value)
  /** The harness's wallets, every sender account's send first shown to `intercept` (with the real send to make). */
  const withSendFromAccount = (intercept: (send: SendFromAccount, real: () => Promise<SentCall>) => Promise<SentCall>): ExecutorWallets => {
    const w = harness().wallets
    return {
      walletAddress: (i) => w.walletAddress(i),
      submitUserOperations: (chain, requests, options) => w.submitUserOperations(chain, requests, options),
      operatorAddress: (chain) => w.operatorAddress?.(chain),
      sendCall: (chain, call, fields) => w.sendCall!(chain, call, fields),
      sendFromPool: (chain, call, fields, moment) => w.sendFromPool(chain, call, fields, moment),
      senderAddresses: (chain) => w.senderAddresses(chain),
      sendFromAccount: (chain, account, call, fields, options) =>
        intercept({ chain, account, call, fields, options }, () => w.sendFromAccount(chain, account, call, fields, options)),
    }
  }
  return {
    journal,
    preparedOf,
    ordersOf,
    commitsOf,
    fullOf,
    async batchOf(slug: string, sequence: number): Promise<BatchRecord | undefined> {
      const launch = await harness().journal.getLaunchBySlug(slug)
      return launch ? journal().get('base', slug, launch.blockNumber, sequence) : undefined
    },
    events: (eventName: string) => harness().client.getContractEvents({ address: harness().batchBuyer!, abi: batchBuyerAbi, eventName, fromBlock: 0n }),
    async statusOf(batchId: `0x${string}`): Promise<number> {
      const h = harness()
      return Number(
        ((await h.client.readContract({ address: h.batchBuyer!, abi: batchBuyerAbi, functionName: 'collections', args: [batchId] })) as readonly unknown[])[2],
      )
    },

    /** `count` buyers with 100 USDC each, buyer i ordering 30 + i USDC without a limit, all approving the batch buyer. */
    async buyersWithOrders(slug: string, count: number = BUYERS): Promise<Buyer[]> {
      const h = harness()
      const buyers: Buyer[] = []
      for (let i = 0; i < count; i++) {
        const buyer = await h.newBuyer(`${slug}-${i}`, '100')
        await h.order(buyer, slug, String(30 + i), null)
        buyers.push(buyer)
      }
      await h.approveBatchBuyer(buyers, '100')
      return buyers
    },

    /** Mines until the readying pass has written the launch's entries (every buyer), then launches. */
    async launchPrepared(slug: string, creator: Parameters<FlowHarness['launch']>[2]): Promise<void> {
      const h = harness()
      h.startMining()
      await h.waitFor('the launch entries written ahead', async () => (await preparedOf(slug)).some((p) => p.rows.length === BUYERS), 120_000)
      await h.launch(slug, 'doppler', creator)
    },

    withSendFromAccount,

    /** The harness's wallets, a collect's send first shown to `collect`, the settle's to `settle` (either may never return). */
    withSends(
      collect: (real: () => Promise<SentCall>) => Promise<SentCall>,
      settle: (real: () => Promise<SentCall>) => Promise<SentCall> = (real) => real(),
    ): ExecutorWallets {
      return withSendFromAccount((send, real) => (send.fields?.chunk !== undefined ? collect(real) : send.fields?.settle ? settle(real) : real()))
    },

    /**
     * Every order filled once, by a batch other than `not` (if given), swept; each wallet pulled exactly once. Resolves
     * with the filled orders.
     */
    async expectFilledOnce(slug: string, buyers: readonly Buyer[], not?: BatchRecord) {
      const h = harness()
      await h.waitFor('every order filled', async () => (await ordersOf(buyers, slug)).every((o) => o?.status === 'filled'), 120_000)
      const orders = await ordersOf(buyers, slug)
      const launch = (await h.journal.getLaunchBySlug(slug))!
      await h.waitFor(
        'their batches swept',
        async () => {
          const all = await journal().ofLaunch('base', slug, launch.blockNumber)
          return orders.every((o) => all.find((b) => b.batchId === o?.execution?.batch?.batchId)?.state === 'swept')
        },
        120_000,
      )
      if (not) expect(orders.every((o) => o?.execution?.batch?.batchId !== not.batchId)).toBe(true)
      for (const [i, buyer] of buyers.entries()) {
        expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC - spendOf(i))
        expect(await h.tokenBalance(launch.token, buyer.wallet)).toBe(BigInt(orders[i]!.execution!.tokensReceived))
      }
      expect(await h.journal.inFlight('base')).toEqual([])
      return orders
    },

    /** After a restart: no compact commit left, no prepared entries of the launch, the full record in the batches. */
    async expectWrittenOut(slug: string): Promise<void> {
      expect(await commitsOf(slug)).toEqual([])
      expect(await preparedOf(slug)).toEqual([])
      expect((await fullOf(slug)).length).toBeGreaterThan(0)
    },
  }
}
