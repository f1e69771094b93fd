import { createPublicClient, custom, type Hex, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Buyer, type FlowHarness, startFlowHarness } from './flow-harness.ts'

/** Waiting projects, each with an order of every buyer: many small books, each prepared and readied ahead. */
const PROJECTS = 40
const BUYERS = 2
/** ERC-20 allowance(address,address)'s selector (in a multicall's data too). */
const ALLOWANCE_SELECTOR = 'dd62ed3e'
/** ERC-20 Approval(address,address,uint256)'s topic (the warm allowances' log query asks for it). */
const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
/**
 * What the node takes to answer an allowance read (a multicall of allowances, the Approval/Transfer log query that
 * carries them): longer than the harness miner's block (~150 ms) by far, so that every readying pass, which waits for
 * its block's allowances, is slower than a block, however fast the machine (a loaded machine only makes blocks rarer,
 * never the node faster than this). Every other request goes through at the node's own speed.
 */
const SLOW_ALLOWANCE_READ_MS = 1_000

/**
 * Issue 23 item 3, the readyfirst hang (docs/execution.md §8, "The readying pass that never ended"). The latency bench
 * (80 waiting projects of 5 orders, 50 ms of injected latency, a block every 200 ms) stopped forever at
 * `executor.idle()`: the readying pass of every block readied each book's launch clearing on a read of the allowances
 * at its own block, one per book; the one-entry cache of those reads was evicted by the pass of the next block, so each
 * book cost a round trip and each pass seconds; passes piled up (one started every block), and idle(), which waited
 * until no pass ran, never saw that moment. Main's own code had the same latent faults without the readied clearings:
 * every block's read ahead queued a step of its own in the warm allowances, so with a step slower than a block the
 * queue grew without end (a launch tick of a large book waiting behind all of it), and idle() never resolved.
 *
 * Here: allowance reads slower than a block (passes slower than a block on any machine), on the real devnet with real
 * contracts, LevelDB and HTTP. idle() must settle while blocks keep coming, every waiting book's launch is readied, and
 * a launch then fills through the batch. Conditions with deadlines, no sleeps in the test's waits.
 */
describe('readying passes over many small waiting books, slower than a block, settle; the launch fills (real devnet)', () => {
  let h: FlowHarness
  const daemonClient = (rpcUrl: string): PublicClient => {
    const inner = http(rpcUrl)({ retryCount: 2 })
    return createPublicClient({
      transport: custom({
        async request({ method, params }) {
          const [first] = (params ?? []) as [{ data?: Hex; input?: Hex; topics?: unknown[] } | undefined]
          const slow =
            (method === 'eth_call' && (first?.data ?? first?.input ?? '').toLowerCase().includes(ALLOWANCE_SELECTOR)) ||
            (method === 'eth_getLogs' && JSON.stringify(first?.topics ?? []).includes(APPROVAL_TOPIC))
          if (slow) await new Promise((resolve) => setTimeout(resolve, SLOW_ALLOWANCE_READ_MS))
          return inner.request({ method, params } as never)
        },
      }),
      pollingInterval: 50,
    }) as PublicClient
  }

  beforeAll(async () => {
    h = await startFlowHarness({ batchBuyer: true, approvalsAhead: false, senderAccounts: 2, daemonClient })
    h.startMining()
    await h.waitFor('every sender an operator', async () => h.executor.batchOperatorsReady('base'), 90_000)
    await h.stopMining()
  }, 240_000)
  afterAll(async () => {
    await h?.stop()
  })

  it(`${PROJECTS} waiting books of ${BUYERS} orders, blocks every ~150 ms, allowance reads of 1 s: idle() settles, every launch is readied, the launch fills`, async () => {
    const buyers: Buyer[] = []
    for (let i = 0; i < BUYERS; i++) buyers.push(await h.newBuyer(`many-books-${i}`, '1000'))
    const projects: Array<{ slug: string; creator: `0x${string}` }> = []
    for (let p = 0; p < PROJECTS; p++) {
      const project = await h.newProject(`many-books-${p}`, 'doppler')
      projects.push(project)
      for (const buyer of buyers) await h.order(buyer, project.slug, '5', null)
    }
    await h.approveBatchBuyer(buyers, '1000')

    h.startMining()
    try {
      // Every waiting book's launch clearing readied on the approved book (ready-launches.ts): both buyers walked.
      await h.waitFor(
        'every waiting book readied',
        async () =>
          projects.every((p) => {
            const readied = h.executor.launchReadied('base', p.slug)
            return readied?.walked === true && readied.batchable === BUYERS
          }),
        120_000,
      )
      // idle() while blocks keep coming and every block starts a readying pass: it settles (it never did).
      for (let round = 0; round < 3; round++) {
        let settled = false
        const idle = h.executor.idle().then(() => {
          settled = true
        })
        await h.waitFor(`idle() settled (round ${round + 1}) while blocks keep coming`, async () => settled, 60_000)
        await idle
      }
      // A launch now: the launch tick is not held behind the readying passes, and every order fills through the batch.
      const [first] = projects
      await h.launch(first!.slug, 'doppler', first!.creator)
      await h.waitFor(
        'every order of the launch filled',
        async () => (await Promise.all(buyers.map((b) => h.getOrder(b, first!.slug)))).every((o) => o?.status === 'filled'),
        120_000,
      )
      const orders = await Promise.all(buyers.map((b) => h.getOrder(b, first!.slug)))
      expect(orders.map((o) => o?.status)).toEqual(buyers.map(() => 'filled'))
      // Bought together: one batch, one price.
      expect(orders.every((o) => o?.execution?.batch !== undefined)).toBe(true)
      expect(new Set(orders.map((o) => o?.execution?.batch?.batchId)).size).toBe(1)
      // And idle() still settles after the launch, with the other books still waiting and readied.
      let settled = false
      void h.executor.idle().then(() => {
        settled = true
      })
      await h.waitFor('idle() settled after the launch', async () => settled, 60_000)
    } finally {
      await h.stopMining()
    }
  }, 480_000)
})
