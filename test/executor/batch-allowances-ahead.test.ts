import { createPublicClient, custom, type Hex, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

/** ERC-20 allowance(address,address). */
const ALLOWANCE_SELECTOR = 'dd62ed3e'
/** ERC-20 Approval(address,address,uint256)'s topic. */
const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
const PER_TX = 2

/**
 * Issue 23 item 3, "the batch is prepared before the launch": the batch buyer's allowances of a waiting project's
 * wallets are read ahead (ready-ahead.ts, warm-allowances.ts) and carried to the launch block by the logs, so the
 * launch tick reads no allowance at all, and the split batch it sends still fills every buyer. Every eth_call the
 * daemon makes is recorded with its block: the assertion is about what the chain was asked, not about timing.
 */
describe('allowances read ahead of a launch: the launch tick reads none and the split batch fills (real devnet)', () => {
  let h: FlowHarness
  /** The daemon's allowance reads (eth_call whose data holds the allowance selector), with the wallets asked and the block. */
  const allowanceReads: Array<{ block: bigint | undefined; data: string }> = []
  /** The last block of each Approval log query (the snapshot carried forward to it). */
  const approvalLogsTo: bigint[] = []
  /** The executor's stages, in order (which walk the launch's split priced). */
  const stages: string[] = []
  const daemonClient = (rpcUrl: string): PublicClient => {
    const inner = http(rpcUrl)({ retryCount: 2 })
    return createPublicClient({
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_call') {
            const [call, tag] = params as [{ data?: Hex; input?: Hex }, string | undefined]
            const data = (call.data ?? call.input ?? '').toLowerCase()
            if (data.includes(ALLOWANCE_SELECTOR)) allowanceReads.push({ block: tag?.startsWith('0x') ? BigInt(tag) : undefined, data })
          }
          if (method === 'eth_getLogs') {
            const [filter] = params as [{ topics?: unknown[]; toBlock?: string }]
            if (JSON.stringify(filter.topics ?? []).includes(APPROVAL_TOPIC) && filter.toBlock?.startsWith('0x')) approvalLogsTo.push(BigInt(filter.toBlock))
          }
          return inner.request({ method, params } as never)
        },
      }),
      pollingInterval: 50,
    }) as PublicClient
  }

  beforeAll(async () => {
    // Six wallets would be read directly at the tick (DIRECT_READ_MAX_WALLETS): carried, as a book of thousands is.
    h = await startFlowHarness({
      batchBuyer: true,
      approvalsAhead: false,
      senderAccounts: 3,
      maxBuyersPerTransaction: PER_TX,
      daemonClient,
      allowancesDirectUpTo: 0,
      onStage: (name) => stages.push(name),
    })
    h.startMining()
    await h.waitFor('every sender an operator', async () => h.executor.batchOperatorsReady('base'), 60_000)
    await h.stopMining()
  }, 180_000)
  afterAll(async () => {
    await h?.stop()
  })

  it('six buyers over a per-transaction limit of two: allowances read before the launch block, none at it, all filled in one split batch', async () => {
    const { slug, creator } = await h.newProject('allowances-ahead', 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < 6; i++) {
      const buyer = await h.newBuyer(`ahead-${i}`, '100')
      await h.order(buyer, slug, String(20 + i), null)
      buyers.push(buyer)
    }
    await h.approveBatchBuyer(buyers, '100')
    const wallets = buyers.map((b) => b.wallet.slice(2).toLowerCase())
    // Blocks processed after the approvals landed: the readying pass reads the waiting wallets' allowances ahead (all
    // six once asked with all six orders placed), then carries them block by block with one Approval/Transfer log query.
    const approvedBy = await h.client.getBlockNumber({ cacheTime: 0 })
    await h.waitFor(
      'the allowances of every waiting wallet read ahead and carried past the approvals',
      async () => {
        await h.mine()
        await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
        await h.executor.idle()
        const everyWalletRead = wallets.every((w) => allowanceReads.some((r) => r.data.includes(w)))
        const pastApprovals = approvalLogsTo.some((to) => to > approvedBy) || allowanceReads.some((r) => r.block !== undefined && r.block > approvedBy)
        // The launch clearing readied on the approved book (ready-launches.ts): all six predicted and walked.
        const readied = h.executor.launchReadied('base', slug)
        return everyWalletRead && pastApprovals && readied?.walked === true && readied.batchable === 6 && readied.blockNumber > approvedBy
      },
      60_000,
    )
    const stagesBeforeLaunch = stages.length

    // The launch mines its own block; the next comes only once the launch tick journaled the batch. With blocks coming
    // meanwhile, an indexer that reads the launch block behind the head (a busy machine, the miner at ~150 ms) moves
    // the launch's tick to the next head block (docs/execution.md §2, "Ticks when behind"): a CI run under load had
    // the batch ticked at the block after the launch's.
    const launched = await h.launch(slug, 'doppler', creator)
    const journal = createBatchJournal(h.store)
    await h.waitFor('the launch tick journaled the batch', async () => journal.get('base', slug, launched.blockNumber.toString(), 0), 120_000)
    h.startMining()
    await h.waitFor('every order filled', async () => (await Promise.all(buyers.map((b) => h.getOrder(b, slug)))).every((o) => o?.status === 'filled'), 120_000)
    await h.stopMining()

    // The launch tick (priced at the launch block) found every allowance in the carried snapshot: nothing read at it.
    expect(allowanceReads.filter((r) => r.block === launched.blockNumber)).toEqual([])
    const batch = await journal.get('base', slug, launched.blockNumber.toString(), 0)
    expect(batch?.tickBlock).toBe(launched.blockNumber.toString())
    expect(batch?.included).toHaveLength(6)
    expect(batch?.split?.chunks).toHaveLength(3)
    expect(batch?.excluded).toEqual([])
    // The launch's split priced the walk readied before the launch (docs/execution.md §8, "The launch readied before
    // the launch"): no walk in the quote window, none after the quote.
    const launchStages = stages.slice(stagesBeforeLaunch)
    expect(launchStages.find((s) => s.startsWith('executor.clearingAhead.'))).toBe('executor.clearingAhead.readied')
    expect(launchStages).not.toContain('executor.clearingAhead.walked')
  }, 240_000)
})
