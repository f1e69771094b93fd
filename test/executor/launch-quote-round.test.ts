import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLANKER_V5_SNIPER } from '../../src/pricing/schedules/clanker-v5.ts'
import type { LaunchTokenOptions } from '../../devnet/launchpads/launch-token.ts'
import type { Launchpad } from '../../src/domain/records.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { blockDecided } from './block-decided.ts'
import { filledBlocks } from './filled-blocks.ts'
import type { Buyer, FlowHarness } from './flow-harness.ts'
import { createHeldRounds, type HeldRequest, startHeldRoundsHarness } from './held-rounds.ts'

/** ERC-20 allowance(address,address). */
const ALLOWANCE_SELECTOR = 'dd62ed3e'

/** Clanker v5 with its sniper fee off, as the latency bench launches it: launch + 1 is its first eligible block. */
const shapeOf = (launchpad: Launchpad): Partial<LaunchTokenOptions> =>
  launchpad === 'clanker_v5' ? { startFee: 10_000, endFee: 10_000, decaySeconds: CLANKER_V5_SNIPER.seconds } : {}

/**
 * Issue 23 item 3, runs 22-... (docs/execution.md §5): Clanker v5, Doppler and Zora launches are ungated, so their first
 * eligible block is launch + 1 and the batch must go out within the launch block's ~200 ms. Counted end to end: every
 * request the daemon (indexer, executor, wallet service) asks the node goes through one client whose answers the test
 * holds. From the head read that tells the daemon the launch block exists, every request is held (round 1: the launch
 * record's round) until it holds the launch's receipt, the executor's quotes of the launch pool (the spend bucket's and
 * the batch total's: V4Quoter calls stating the next block's number, which the indexer's own fee probes never do), the
 * batch's allowance multicall and the sends' fee and pending-nonce check; released together, every later request but
 * the sync's block reads and the send path's own chain reads is held (round 2), and the batch's eth_sendRawTransaction
 * must be asked while round 2's eth_calls are unanswered: the send follows the record's round with no quote round of
 * its own. Before the launch's reads ahead for the executor (launch_ahead), the executor's quotes are asked only after
 * the record, in round 2: the wait for round 1 fails. Only requests and their order are counted: the waits are
 * conditions with deadlines.
 */
describe('Clanker v5, Doppler, Zora: the launch tick quotes in the launch record round and sends after it (real devnet)', () => {
  let h: FlowHarness
  const rounds = createHeldRounds()
  const { asked } = rounds

  beforeAll(async () => {
    h = await startHeldRoundsHarness(rounds)
  }, 180_000)
  afterAll(async () => {
    await h?.stopMining()
    await h?.stop()
  })

  const decided = (block: bigint) => blockDecided(h, block)

  const cases: Array<{ launchpad: Launchpad; slug: string }> = [
    { launchpad: 'clanker_v5', slug: 'qv5-a' },
    { launchpad: 'doppler', slug: 'qdop-a' },
    { launchpad: 'zora', slug: 'qzor-a' },
  ]
  for (const { launchpad, slug: wanted } of cases) {
    it(`${launchpad}: receipt, quotes, allowances and the send check in one round; the send follows it; filled in launch + 1`, async () => {
      asked.length = 0
      const { slug, creator } = await h.newProject(wanted, launchpad)
      const buyers: Buyer[] = []
      for (let i = 0; i < 3; i++) {
        const buyer = await h.newBuyer(`${wanted}-${i}`, '100')
        await h.order(buyer, slug, String(20 + 5 * i), null)
        buyers.push(buyer)
      }
      await h.approveBatchBuyer(buyers, '100')
      // Two blocks processed with the project waiting: the indexer has a paired price of the block before the launch.
      for (let i = 0; i < 2; i++) {
        const before = await h.client.getBlockNumber({ cacheTime: 0 })
        await h.mine()
        await decided(before + 1n)
      }
      expect(await h.bundlePending()).toBe(false)

      const quoter = h.chain.addresses.v4Quoter.slice(2).toLowerCase()
      const target = (await h.client.getBlockNumber({ cacheTime: 0 })) + 1n
      rounds.arm(target)
      const launched = await h.launch(slug, launchpad, creator, shapeOf(launchpad))
      const n = launched.blockNumber
      expect(n).toBe(target)
      const next = `"number":"0x${(n + 1n).toString(16)}"`
      const isReceipt = (a: HeldRequest) => a.method === 'eth_getTransactionReceipt'
      // The quoter is asked through Multicall3 (quote-buy.ts): its address is in the call's data.
      const isExecutorQuote = (a: HeldRequest) => a.method === 'eth_call' && (a.to.includes(quoter) || a.data.includes(quoter)) && a.overrides.includes(next)
      const isAllowance = (a: HeldRequest) => a.method === 'eth_call' && a.data.includes(ALLOWANCE_SELECTOR)
      const isNonce = (a: HeldRequest) => a.method === 'eth_getTransactionCount'
      const { roundOf } = rounds
      const quoteMark = (a: HeldRequest) => (isExecutorQuote(a) ? ' (quote)' : '')

      // Round 1, every answer held: the launch's receipt and, with it, the executor's quotes (the spend bucket's and the
      // batch total's), the batch's allowances and the send's fee and pending-nonce check.
      await rounds.untilRound1(
        h.waitFor,
        'round 1 holding the receipt, the quotes, the allowances and the send check',
        (one) =>
          one.filter(isExecutorQuote).length >= 2 &&
          [isReceipt, isAllowance, isNonce, (a: HeldRequest) => a.method === 'eth_feeHistory'].every((kind) => one.some(kind)),
        quoteMark,
      )
      expect(roundOf(1).some((a) => a.method === 'eth_sendRawTransaction')).toBe(false)
      // Released together; every request asked from now on but the sync's block reads and the send path's chain reads
      // is held (round 2). The batch is sent while they are still unanswered: it waited for round 1 and nothing else.
      const beforeSend = await rounds.sendInRound2(h.waitFor, quoteMark)
      // Round 2 may hold, before the send, the head polls, the send path's own reads and the background
      // formula-against-quote probe (tick-quotes.ts `compare`, held); no allowance is read again.
      expect(beforeSend.filter(isAllowance)).toEqual([])
      rounds.disarm()

      // The batch was planned on the launch tick and fills every buyer in launch + 1, the first eligible block.
      const journal = createBatchJournal(h.store)
      const batch = await h.waitFor('the batch of the launch tick journaled', async () => journal.get('base', slug, n.toString(), 0))
      expect(batch.tickBlock).toBe(n.toString())
      expect(batch.included).toHaveLength(3)
      await h.waitFor('the batch pending', () => h.bundlePending())
      await h.mine()
      for (const block of await filledBlocks(h, buyers, slug)) expect(block).toBe(n + 1n)
    }, 120_000)
  }
})
