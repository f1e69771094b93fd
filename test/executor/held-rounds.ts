import { createPublicClient, custom, type Hex, http, type PublicClient } from 'viem'
import { withLatestStateFallback } from '../../src/chain/latest-state-fallback.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import { type FlowHarness, startFlowHarness } from './flow-harness.ts'

/** What round 2 answers at once: the sync's block reads and the send path's own chain reads (see the client). */
export const PASS_IN_ROUND_2: ReadonlySet<string> = new Set([
  'eth_getLogs',
  'eth_getBlockByNumber',
  'eth_blockNumber',
  'eth_getTransactionCount',
  'eth_feeHistory',
  'eth_maxPriorityFeePerGas',
  'eth_gasPrice',
  'eth_chainId',
])

/** One request asked while the rounds held (from the head read of the armed block on). */
export interface HeldRequest {
  method: string
  /** The call's target and data (eth_call), lower case. */
  to: string
  data: string
  /**
   * The block asked: an eth_call's block tag; an eth_getLogs filter's block (`from-to` when a range, `hash` when by
   * block hash).
   */
  tag: string | undefined
  /** The eth_call's block overrides as sent (JSON): the executor's quotes state the next block's number. */
  overrides: string
  /** 1: asked while the block's first round was held; 2: asked after it was released. */
  round: 1 | 2
}

/**
 * Counts, round by round, what the daemon (indexer, executor, wallet service) asks the node for one block's work: every
 * request goes through `daemonClient`/`walletClient` (flow-harness.ts options). Armed on a block, the client starts
 * holding at the head read that tells the daemon the block exists: round 1 holds every answer until the test releases
 * them together (`sendInRound2`); round 2 holds every later request but PASS_IN_ROUND_2 until `disarm`. Only requests
 * and their order are counted: the test waits on conditions with deadlines.
 */
export interface HeldRounds {
  /** Every request asked while holding, in order. */
  readonly asked: HeldRequest[]
  daemonClient(rpcUrl: string): PublicClient
  /** The wallet service's client: its requests batched, as the daemon sends them. */
  walletClient(rpcUrl: string): PublicClient
  /** Holds from the head read that shows block `target` (or later) on: round 1. */
  arm(target: bigint): void
  /** Stops holding (a request still in flight does not start a round again) and releases every held answer. */
  disarm(): void
  roundOf(round: 1 | 2): HeldRequest[]
  /** A round's requests, one `method@block target` a request (`mark` notes some), for a failure's message. */
  describeRound(round: 1 | 2, mark?: Mark): string
  /** Waits (20 s deadline) until round 1's requests satisfy `done`; a failure says what round 1 asked. */
  untilRound1(waitFor: WaitFor, what: string, done: (one: HeldRequest[]) => boolean, mark?: Mark): Promise<void>
  /**
   * Releases round 1's answers together, from then on holding every request but PASS_IN_ROUND_2 (round 2), and waits (20 s deadline) for an eth_sendRawTransaction asked in it; returns round 2's requests asked
   * before it. A failure says what both rounds asked.
   */
  sendInRound2(waitFor: WaitFor, mark?: Mark): Promise<HeldRequest[]>
}

/** The flow harness's wait on a condition with a deadline (flow-harness.ts `waitFor`). */
type WaitFor = <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs?: number) => Promise<T>
/** A note to a request in a round's description (`' (quote)'`), or ''. */
type Mark = (a: HeldRequest) => string

interface Gate {
  target: bigint
  state: 'armed' | 'round1' | 'round2'
  held: Array<() => void>
}

function blockOfLogs(filter: { fromBlock?: string; toBlock?: string; blockHash?: string }): string | undefined {
  if (filter.blockHash) return 'hash'
  return filter.fromBlock === filter.toBlock ? filter.fromBlock : `${filter.fromBlock}-${filter.toBlock}`
}

export function createHeldRounds(): HeldRounds {
  const asked: HeldRequest[] = []
  let gate: Gate | undefined

  const gatedClient = (rpcUrl: string, batch: boolean): PublicClient => {
    const inner = createPublicClient({
      transport: withLatestStateFallback(http(rpcUrl, batch ? { batch: { batchSize: 100, wait: 0 } } : {})),
    }) as PublicClient
    return createPublicClient({
      transport: custom({
        async request({ method, params }) {
          const g = gate
          const holding = g !== undefined && g.state !== 'armed'
          if (holding) {
            const list = (params ?? []) as unknown[]
            const [call, tag] = (method === 'eth_call' ? list : [{}, undefined]) as [{ to?: string; data?: Hex; input?: Hex }, string | undefined]
            const filter = method === 'eth_getLogs' ? (list as [{ fromBlock?: string; toBlock?: string; blockHash?: string }])[0] : undefined
            asked.push({
              method,
              to: (call.to ?? '').toLowerCase(),
              data: (call.data ?? call.input ?? '').toLowerCase(),
              tag: filter ? blockOfLogs(filter) : typeof tag === 'string' ? tag : undefined,
              overrides: method === 'eth_call' ? JSON.stringify(list.slice(2)) : '',
              round: g.state === 'round1' ? 1 : 2,
            })
          }
          const answer = inner.request({ method, params } as never) as Promise<unknown>
          // Round 2 lets the sync's reads of blocks pass (head reads, logs by number or hash: the block's own logs may
          // come a read after its header, and the polls for the next head), not the block's work. It lets the send
          // path's own chain reads pass too (fees, block number, pending nonces: chain-now.ts), so that a send whose fee
          // cache went stale on a slow machine refreshes it instead of waiting on a held answer; they are recorded, and
          // only round 1 is asserted to hold the fee and nonce check.
          const passes = PASS_IN_ROUND_2.has(method)
          // Round 1 lets the sync's read of the armed block's logs by its hash pass: when the head read's logs-by-number
          // raced the block's mining (asked before it existed), the sync reads them by hash before the block's work can
          // start; held, nothing else was ever asked (seen once in a full run under load: round 1 held only it).
          const blockLogsByHash = method === 'eth_getLogs' && (params as [{ blockHash?: string }] | undefined)?.[0]?.blockHash !== undefined
          if (holding && (g.state === 'round1' ? !blockLogsByHash : !passes)) {
            answer.catch(() => undefined)
            const released = withResolvers<void>()
            g.held.push(() => released.resolve())
            await released.promise
          }
          const result = await answer
          // The head read that tells the daemon the armed block exists: everything asked from here on is its work. The
          // gate as it is now, not as it was when the request was asked: a head read asked before `arm` and answered
          // after the block was mined (a busy machine: the node answered it late) is such a read. Checked against the
          // gate of its asking (none), it armed nothing, the daemon did the block's work unseen, and round 1 began at
          // the send's own fee read (stop 40's CI: round 1 held only the send and a background probe).
          const now = gate
          if (now?.state === 'armed' && method === 'eth_getBlockByNumber') {
            const number = (result as { number?: Hex } | null)?.number
            if (number !== undefined && BigInt(number) >= now.target) now.state = 'round1'
          }
          return result
        },
      }),
      pollingInterval: 50,
    }) as PublicClient
  }

  const releaseAll = (g: Gate) => {
    for (const release of g.held.splice(0)) release()
  }

  const roundOf = (round: 1 | 2) => asked.filter((a) => a.round === round)
  const describeRound = (round: 1 | 2, mark: Mark = () => '') =>
    JSON.stringify(roundOf(round).map((a) => `${a.method}${a.tag ? `@${a.tag}` : ''}${a.to ? ` ${a.to}` : ''}${mark(a)}`))
  const isSend = (a: HeldRequest) => a.method === 'eth_sendRawTransaction'

  return {
    asked,
    daemonClient: (rpcUrl) => gatedClient(rpcUrl, false),
    walletClient: (rpcUrl) => gatedClient(rpcUrl, true),
    arm(target) {
      gate = { target, state: 'armed', held: [] }
    },
    disarm() {
      if (!gate) return
      // A head read in flight arms only the gate current when it is answered (none after this): nothing to reset here.
      releaseAll(gate)
      gate = undefined
    },
    roundOf,
    describeRound,
    async untilRound1(waitFor, what, done, mark) {
      await waitFor(what, async () => done(roundOf(1)), 20_000).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; round 1 asked ${describeRound(1, mark)}`)
      })
    },
    async sendInRound2(waitFor, mark) {
      if (!gate) throw new Error('the rounds are not armed')
      gate.state = 'round2'
      releaseAll(gate)
      await waitFor('the batch sent with round 2 unanswered', async () => roundOf(2).some(isSend), 20_000).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; round 1 asked ${describeRound(1, mark)}, round 2 ${describeRound(2, mark)}`)
      })
      const two = roundOf(2)
      return two.slice(0, two.findIndex(isSend))
    },
  }
}

/**
 * A flow harness whose daemon and wallet service ask the node through `rounds` (a batch buyer, approvals not ahead), its
 * sender an operator of the batch buyer; mining stopped.
 */
export async function startHeldRoundsHarness(rounds: HeldRounds): Promise<FlowHarness> {
  const h = await startFlowHarness({
    batchBuyer: true,
    approvalsAhead: false,
    daemonClient: rounds.daemonClient,
    walletClient: rounds.walletClient,
  })
  h.startMining()
  await h.waitFor('the sender an operator', async () => h.executor.batchOperatorsReady('base'), 60_000)
  await h.stopMining()
  return h
}
