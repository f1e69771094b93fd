import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { blockDecided } from './block-decided.ts'
import { filledBlocks } from './filled-blocks.ts'
import type { Buyer, FlowHarness } from './flow-harness.ts'
import { createHeldRounds, type HeldRequest, startHeldRoundsHarness } from './held-rounds.ts'

/** ERC-20 allowance(address,address). */
const ALLOWANCE_SELECTOR = 'dd62ed3e'

/**
 * Issue 23 item 3, runs 18-... (docs/execution.md §5): Clanker v4's SniperAuction gate, counted end to end. Launch + 1
 * and the auction block launch + 2 are gated, launch + 3 is the first eligible block, so the batch for launch + 3 can
 * only be sent once launch + 2 is known. Everything the daemon (indexer, executor, wallet service) asks the node goes
 * through one client whose answers the test holds: from the moment an answer tells the daemon that launch + 2 exists
 * (its head read), every request is held (round 1) until the round holds the block's schedule refresh, the quotes,
 * the batch's allowances and the sender's pending-nonce check; then they are released together, and every later request
 * but the sync's reads of blocks (launch + 2's logs, the next polls) and the send path's own chain reads (PASS_IN_ROUND_2)
 * is held: round 2. The batch's eth_sendRawTransaction must be asked while round 2's eth_calls are unanswered: the batch
 * waits for one round. Before the change (quotes, allowances and the send check asked after the tick) the quotes are
 * never asked while the refresh is held, and the wait for round 1 fails. Only requests and their order are counted:
 * the waits are conditions with deadlines.
 */
describe('Clanker v4 SniperAuction gate: after launch + 2 arrives, the batch is sent after one round of requests (real devnet)', () => {
  let h: FlowHarness
  const rounds = createHeldRounds()

  beforeAll(async () => {
    h = await startHeldRoundsHarness(rounds)
  }, 180_000)
  afterAll(async () => {
    await h?.stopMining()
    await h?.stop()
  })

  const decided = (block: bigint) => blockDecided(h, block)

  it('the refresh, quotes, allowances and nonce check in one round; the send follows it; the batch fills in launch + 3', async () => {
    const { slug, creator } = await h.newProject('v4gate', 'clanker')
    const buyers: Buyer[] = []
    for (let i = 0; i < 3; i++) {
      const buyer = await h.newBuyer(`v4gate-${i}`, '100')
      await h.order(buyer, slug, String(20 + 5 * i), null)
      buyers.push(buyer)
    }
    await h.approveBatchBuyer(buyers, '100')

    const launched = await h.launch(slug, 'clanker', creator)
    const n = launched.blockNumber
    const mevModule = h.launchpads.clanker.mevModule.slice(2).toLowerCase()
    const quoter = h.chain.addresses.v4Quoter.slice(2).toLowerCase()
    expect(launched.launch.feeSources.mevModule?.toLowerCase()).toBe(`0x${mevModule}`)
    await decided(n)
    await h.mine()
    await decided(n + 1n)
    expect(await h.bundlePending()).toBe(false)

    rounds.arm(n + 2n)
    await h.mine()
    const block2 = `0x${(n + 2n).toString(16)}`
    const isRefresh = (a: HeldRequest) => a.method === 'eth_call' && a.tag === block2 && (a.to.includes(mevModule) || a.data.includes(mevModule))
    const isQuote = (a: HeldRequest) => a.method === 'eth_call' && (a.to.includes(quoter) || a.data.includes(quoter))
    const isAllowance = (a: HeldRequest) => a.method === 'eth_call' && a.data.includes(ALLOWANCE_SELECTOR)
    const isNonce = (a: HeldRequest) => a.method === 'eth_getTransactionCount'
    const { roundOf } = rounds

    // Round 1, every answer held: the block's refresh (the module's getters at launch + 2), the quotes (the spend
    // bucket's and the batch total's), the batch's allowances and the send's fee and pending-nonce check are all asked.
    await rounds.untilRound1(
      h.waitFor,
      'round 1 holding the refresh, the quotes, the allowances and the send check',
      (one) =>
        one.filter(isQuote).length >= 2 && [isRefresh, isAllowance, isNonce, (a: HeldRequest) => a.method === 'eth_feeHistory'].every((kind) => one.some(kind)),
    )
    expect(roundOf(1).some((a) => a.method === 'eth_sendRawTransaction')).toBe(false)
    // Released together; every request asked from now on but the sync's block reads is held (round 2). The batch is
    // sent while all of them are still unanswered: it waited for round 1 (and launch + 2's own logs) and nothing else.
    const beforeSend = await rounds.sendInRound2(h.waitFor)
    // What round 2 may hold before the send: the head polls, the send path's own chain reads (answered: the second
    // step of viem's fee estimate, or a fee cache gone stale on a slow machine refreshed), the background
    // formula-against-quote probe (tick-quotes.ts `compare`, held). None of the batch's inputs is read again there:
    // no refresh, no allowance.
    expect(beforeSend.filter((a) => isAllowance(a) || isRefresh(a))).toEqual([])
    rounds.disarm()

    // The batch was planned on the tick of launch + 2 and fills every buyer in launch + 3.
    const journal = createBatchJournal(h.store)
    const batch = await h.waitFor('the batch of the tick of launch + 2 journaled', async () => journal.get('base', slug, n.toString(), 0))
    expect(batch.tickBlock).toBe((n + 2n).toString())
    expect(batch?.included).toHaveLength(3)
    await h.waitFor('the batch pending', () => h.bundlePending())
    await h.mine()
    for (const block of await filledBlocks(h, buyers, slug)) expect(block).toBe(n + 3n)
  }, 120_000)
})
