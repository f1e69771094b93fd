/**
 * The split batch through the daemon's executor (a module of `npm run bench`, `--only split`; issue 23 item 2): the
 * flow harness (indexer, executor, wallet service with four sender accounts, the PrebuyBatchBuyer), 5,000 funded orders
 * without a limit on an ungated Doppler pool, a block every 200 ms of wall time (Base since Denim,
 * docs.base.org/base-chain/specs/upgrades/denim/overview; BENCH_SPLIT_BLOCK_MS to change). The executor clears them in
 * one tick and, since they are more than one executeBatch holds (679 under 2^24), sends a split batch: collects planned
 * by planCollectChunks over the sender accounts, then one settle. Reports the blocks used from the first block where
 * swaps are allowed, buyers per block, gas per transaction, the price spread within each block, and the time from the
 * launch log to each transaction sent; targets met or not. BENCH_SPLIT_RUNS launches (default 5), each on a fresh devnet
 * and daemon: the launch log to the first send's p50 and p99 over them (issue 23 item 3) and every other target in each.
 *
 * The 5,000 wallets are funded and approve the batch buyer through the devnet stablecoin's storage slots
 * (test/support/stablecoin-slots.ts, as test/bench/batch-bench.ts does): 5,000 approval UserOperations would measure the
 * wallets, not the batch, and the pull is the same transferFrom either way. The executor's wallet layer here has no
 * `prepareAhead` (no deployment ahead: a batch pulls from a counterfactual wallet's balance as from a deployed one);
 * it keeps `warmSends` (the send path's fees and nonces read on every block, as in the daemon).
 */
import { loadavg } from 'node:os'
import type { EventLoopUtilization } from 'node:perf_hooks'
import {
  createPublicClient,
  custom,
  getAbiItem,
  type AbiFunction,
  type Hash,
  type Hex,
  http,
  keccak256,
  parseTransaction,
  parseUnits,
  type PublicClient,
  toFunctionSelector,
} from 'viem'
import { batchBuyerAbi } from '../../daemon/executor/batch-buyer-abi.ts'
import { batchEntryFormsComputed } from '../../daemon/executor/batch-entry-forms.ts'
import type { ExecutorWallets } from '../../daemon/executor/executor-context.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { submitLaunch } from '../../devnet/launchpads/launch-token.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import type { OrderRecord } from '../../src/domain/records.ts'
import { createBatchJournal } from '../../src/journal/batch-journal.ts'
import type { BatchRecord } from '../../src/journal/batch-records.ts'
import { type Buyer, startFlowHarness } from '../executor/flow-harness.ts'
import { setStablecoinSlots } from '../support/stablecoin-slots.ts'
import type { BenchModule } from './bench-module.ts'
import { BENCH_DEVNET_STATE_DUMPS, benchDevnetStateDumps } from './devnet-state-dumps.ts'
import { quantile } from './launch-latency-bench.ts'

const round = (value: number): number => Math.round(value * 100) / 100
const BLOCK_MS = Number(process.env.BENCH_SPLIT_BLOCK_MS ?? 200)
const BUYERS = Number(process.env.BENCH_SPLIT_BUYERS ?? 5_000)
const SENDERS = 4
/**
 * Launches measured, each on its own fresh devnet and daemon (a run is one launch of BUYERS orders): item 3's "launch log
 * to the first transaction sent, p50 ≤ 50 ms, p99 ≤ 150 ms with 5,000 orders" is a figure over launches, not over one.
 * With 5 runs p99 is the slowest run (nearest rank). About a minute a run on the shared 2-core machine.
 */
const RUNS = Number(process.env.BENCH_SPLIT_RUNS ?? 5)
/** Issue 23 item 3. */
const FIRST_SEND_TARGET = { p50Ms: 50, p99Ms: 150 }
/** The issue's target: every order filled within 3 blocks of the first block where swaps are allowed. */
const TARGET_BLOCKS = 3
const selector = (name: string) => toFunctionSelector(getAbiItem({ abi: batchBuyerAbi, name }) as AbiFunction)
const KINDS: Array<[string, Hex]> = (['collect', 'settle', 'sweepChunk', 'executeBatch', 'cancel', 'refund'] as const).map((n) => [n, selector(n)])
/** Spends of 1 to 20 USDC (varied), each wallet holding 100 and allowing the batch buyer 100. */
const spendOf = (i: number): string => String(1 + (i % 20))

interface Sent {
  hash: Hash
  kind: string
  gasLimit: bigint
  at: number
}

export async function benchSplitLaunch() {
  const loadAtStart = loadavg()
  let launchArrival: number | undefined
  // The event loop's utilization at the launch log and at the first send: how busy the loop was in the window measured
  // (docs/execution.md §8, "The launch log's first 30 ms": a full loop means only CPU taken out of the window counts).
  let launchUtilization: EventLoopUtilization | undefined
  let firstSendUtilization: EventLoopUtilization | undefined
  const sent: Sent[] = []
  const instrumented = (rpcUrl: string): PublicClient => {
    const inner = http(rpcUrl)({ retryCount: 2 })
    return createPublicClient({
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_sendRawTransaction' && launchArrival !== undefined) {
            // Stamped before the bench's own parse and hash of the raw transaction (2-14 ms for a 20 kB collect on
            // the shared machine), which the runs before split-send counted in the send's time; and those done on a
            // later turn, once the request is out, so that they delay neither it nor the daemon's next send (they ran
            // on the daemon's event loop, before the request, until 2026-11-28).
            const at = performance.now()
            if (sent.length === 0 && !firstSendUtilization) firstSendUtilization = performance.eventLoopUtilization()
            const raw = (params as [Hex])[0]
            setImmediate(() => {
              const tx = parseTransaction(raw)
              const kind = KINDS.find(([, s]) => tx.data?.startsWith(s))?.[0] ?? 'other'
              sent.push({ hash: keccak256(raw), kind, gasLimit: tx.gas ?? 0n, at })
            })
          }
          return inner.request({ method, params } as never)
        },
      }),
      pollingInterval: 50,
    }) as PublicClient
  }
  // The executor's and indexer's stages after the launch log (their first occurrence): where the time to the send goes.
  const stages: Array<[string, number]> = []
  const h = await startFlowHarness({
    devnetStateDumps: BENCH_DEVNET_STATE_DUMPS,
    walletClient: instrumented,
    onLaunchLogs: (info) => {
      if (launchArrival !== undefined) return
      launchArrival = info.arrivedAt
      launchUtilization = performance.eventLoopUtilization()
    },
    onStage: (name, at) => {
      if (launchArrival !== undefined && !stages.some(([n]) => n === name)) stages.push([name, at])
    },
    senderAccounts: SENDERS,
    batchBuyer: true,
    approvalsAhead: false,
    maxBuysPerTick: BUYERS + 1_000,
  })
  const clock = { stop: false, done: Promise.resolve() }
  try {
    // The executor's wallet layer without deployments ahead (see the header).
    const w = h.wallets
    const wallets: ExecutorWallets = {
      walletAddress: (i) => w.walletAddress(i),
      submitUserOperations: (chain, requests, options) => w.submitUserOperations(chain, requests, options),
      operatorAddress: (chain) => w.operatorAddress?.(chain),
      sendCall: (chain, call, fields) => w.sendCall!(chain, call, fields),
      sendFromPool: (chain, call, fields, moment) => w.sendFromPool(chain, call, fields, moment),
      sendFromAccount: (chain, account, call, fields, options) => w.sendFromAccount(chain, account, call, fields, options),
      senderAddresses: (chain) => w.senderAddresses(chain),
      // The send path's fees and nonces read ahead on every block, as the daemon's wallet layer does (ready-ahead.ts).
      warmSends: (chain) => w.warmSends(chain),
    }
    await h.restartExecutor(wallets)
    h.startMining()
    await h.waitFor('every sender account a batch operator', async () => h.executor.batchOperatorsReady('base'), 120_000)
    await h.stopMining()

    const { slug, creator } = await h.newProject('split-bench', 'doppler')
    const buyers: Buyer[] = []
    for (let i = 0; i < BUYERS; i++) {
      const issued = await h.services.keys.issueKey(`split-${i}`)
      buyers.push({ keyId: issued.record.id, userIndex: issued.record.userIndex, wallet: await h.wallets.walletAddress(issued.record.userIndex) })
    }
    await setStablecoinSlots(
      h.chain.rpcUrl,
      h.chain.addresses.stablecoin,
      buyers.map((b) => ({ owner: b.wallet, balance: parseUnits('100', 6), spender: h.batchBuyer!, allowance: parseUnits('100', 6) })),
    )
    for (const [i, buyer] of buyers.entries()) await h.order(buyer, slug, spendOf(i), null)
    const setupLoad = loadavg()

    // A block every BLOCK_MS of wall time from here on; a late tick mines one block, never a burst.
    clock.done = (async () => {
      let next = performance.now()
      while (!clock.stop) {
        await jsonRpc(h.chain.rpcUrl, 'evm_mine')
        next = Math.max(next + BLOCK_MS, performance.now())
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())))
      }
    })()
    // The daemon as users run it: buyers order well before a launch, so the executor's readying pass has run on the
    // final book before the launch transaction is sent (its book and batch entry forms prepared, the wallets'
    // allowances read ahead, the launch clearing walked: ready-ahead.ts, plan-batch.ts readyClearing). Waited for on
    // what the executor says (`launchReadied`): readied from a block the clock mined after every order was placed, with
    // every order predicted to buy and walked; then the passes already started finish (idle) and nothing is pending.
    const clockFrom = await h.client.getBlockNumber({ cacheTime: 0 })
    const readiedBefore = await h.waitFor(
      'the launch readied on the final book',
      async () => {
        const latest = await h.client.getBlockNumber({ cacheTime: 0 })
        await h.indexer.caughtUp('base', latest)
        await h.executor.idle()
        const readied = h.executor.launchReadied('base', slug)
        const ready = readied !== undefined && readied.blockNumber > clockFrom && readied.walked && readied.buys === BUYERS
        return ready && !(await h.bundlePending()) ? readied : undefined
      },
      120_000,
    )
    const formsComputedBeforeLaunch = batchEntryFormsComputed()
    const launchHash = await submitLaunch({ chain: h.chain, addresses: h.launchpads, launchpad: 'doppler', creator, name: 'Split bench', symbol: 'SPLIT' })
    // The launch's receipt read once its log reached the daemon and its first transaction went out (or 2 s later), not
    // polled every 20 ms from the moment it was sent: those polls ran on the daemon's event loop (this process) inside
    // the very window measured, from the launch log to the first send (until 2026-11-28, sixth session).
    await h.waitFor(
      'the launch log at the daemon and its first send',
      async () => launchArrival !== undefined && (sent.length > 0 || performance.now() - launchArrival > 2_000),
      60_000,
    )
    const launchReceipt = await h.client.waitForTransactionReceipt({ hash: launchHash, pollingInterval: 20 })
    const launchBlock = launchReceipt.blockNumber
    // Doppler on the devnet: swaps are open from the launch; the launch block holds only the launch.
    const firstSwapBlock = launchBlock + 1n
    const journal = createBatchJournal(h.store)
    const batchesOf = async (): Promise<BatchRecord[]> => {
      const out: BatchRecord[] = []
      for (let sequence = 0; ; sequence++) {
        const record = await journal.get('base', slug, launchBlock.toString(), sequence)
        if (!record) return out
        out.push(record)
      }
    }
    const batches = await h
      .waitFor(
        'every batch swept or released',
        async () => {
          const all = await batchesOf()
          return all.length > 0 && all.every((b) => b.state === 'swept' || b.state === 'released') ? all : undefined
        },
        300_000,
      )
      .catch(() => batchesOf())
    clock.stop = true
    await clock.done
    const formsComputedSinceLaunch = batchEntryFormsComputed() - formsComputedBeforeLaunch
    const orders: (OrderRecord | undefined)[] = []
    for (let i = 0; i < buyers.length; i += 500) orders.push(...(await Promise.all(buyers.slice(i, i + 500).map((b) => h.getOrder(b, slug)))))
    const filled = orders.filter((o): o is OrderRecord => o?.status === 'filled')

    const transactions = await Promise.all(
      sent.map(async (s) => {
        const receipt = await h.client.getTransactionReceipt({ hash: s.hash }).catch(() => undefined)
        return {
          kind: s.kind,
          hash: s.hash,
          sentAtMsAfterLaunchLog: launchArrival === undefined ? null : round(s.at - launchArrival),
          block: receipt ? Number(receipt.blockNumber - firstSwapBlock) : null,
          indexInBlock: receipt?.transactionIndex ?? null,
          status: receipt?.status ?? null,
          gasUsed: receipt ? Number(receipt.gasUsed) : null,
          gasLimit: Number(s.gasLimit),
          underCap: s.gasLimit <= EIP_7825_TX_GAS_CAP && (receipt === undefined || receipt.gasUsed < EIP_7825_TX_GAS_CAP),
        }
      }),
    )
    // Buyers per block: the collects' buyers by the block they landed in (ChunkCollected), the fills by the settle's.
    const buyersPerBlock: Record<string, number> = {}
    const fillsByBlock = new Map<number, Array<{ spend: bigint; gross: bigint; batch: BatchRecord }>>()
    for (const b of batches) {
      for (const c of b.split?.chunks ?? []) {
        const t = transactions.find((x) => x.hash === c.txHash)
        if (t?.status === 'success' && t.block !== null)
          buyersPerBlock[`firstSwapBlock+${t.block}`] = (buyersPerBlock[`firstSwapBlock+${t.block}`] ?? 0) + c.to - c.from
      }
    }
    const batchById = new Map(batches.map((b) => [b.batchId, b]))
    for (const o of filled) {
      const b = batchById.get(o.execution!.batch!.batchId as Hash)!
      const block = Number(BigInt(b.execution!.blockNumber) - firstSwapBlock)
      const gross = BigInt(o.execution!.tokensReceived) + BigInt(o.execution!.feeTokens)
      fillsByBlock.set(block, [...(fillsByBlock.get(block) ?? []), { spend: parseUnits(o.execution!.spentUsdc, 6), gross, batch: b }])
    }
    // One price: every gross share floor(tokensOut × spend / totalIn) of its batch; the spread of spend/gross in a block.
    let onePriceExact = filled.length > 0
    const priceSpreadByBlock: Record<string, { fills: number; swaps: number; relativeSpread: number }> = {}
    for (const [block, fills] of fillsByBlock) {
      const scale = 10n ** 36n
      const prices = fills.map((f) => (f.spend * scale) / f.gross)
      const min = prices.reduce((a, b) => (a < b ? a : b))
      const max = prices.reduce((a, b) => (a > b ? a : b))
      for (const f of fills) if (f.gross !== (BigInt(f.batch.execution!.tokensOut) * f.spend) / BigInt(f.batch.execution!.totalIn)) onePriceExact = false
      const swaps = new Set(fills.map((f) => f.batch.batchId)).size
      // Within a swap the price is one up to a token atom of rounding: reported as the spread of the swaps' prices.
      priceSpreadByBlock[`firstSwapBlock+${block}`] = {
        fills: fills.length,
        swaps,
        relativeSpread: swaps === 1 ? 0 : Number(((max - min) * 10n ** 15n) / min) / 1e15,
      }
    }
    const fillTxs = transactions.filter((t) => t.kind === 'collect' || t.kind === 'settle' || t.kind === 'executeBatch')
    const lastFillBlock = Math.max(...[...fillsByBlock.keys()], -1)
    const blocksUsed = filled.length === BUYERS ? lastFillBlock + 1 : null
    const lastCollect = Math.max(...fillTxs.filter((t) => t.status === 'success' && t.block !== null).map((t) => t.block!), -1)
    // The batch's own span: from the block of its first collect to the block of its settle (what the split costs once
    // sent; the rest of blocksFromFirstEligible is the tick's time from the launch log to the send).
    const landed = fillTxs.filter((t) => t.block !== null && t.status === 'success').map((t) => t.block!)
    const settleBlock = transactions.find((t) => t.kind === 'settle' && t.status === 'success')?.block ?? null
    const batchSpanBlocks = settleBlock === null || landed.length === 0 ? null : settleBlock - Math.min(...landed) + 1
    const maxGasUsed = Math.max(0, ...transactions.map((t) => t.gasUsed ?? 0))
    const maxGasLimit = Math.max(0, ...transactions.map((t) => t.gasLimit))
    const firstSent = fillTxs.map((t) => t.sentAtMsAfterLaunchLog).filter((x): x is number => x !== null)
    return {
      buyers: BUYERS,
      filled: filled.length,
      blockMs: BLOCK_MS,
      senderAccounts: SENDERS,
      devnetStateDumps: benchDevnetStateDumps(),
      loadAverage: { atStart: loadAtStart.map(round), afterSetup: setupLoad.map(round), atEnd: loadavg().map(round) },
      launchBlock: Number(launchBlock),
      firstSwapBlock: Number(firstSwapBlock),
      batches: batches.map((b) => ({
        sequence: b.sequence,
        state: b.state,
        included: b.included.length,
        excluded: b.excluded.length,
        kind: b.split ? 'split' : 'executeBatch',
        collects: b.split?.chunks.map((c) => ({ chunk: c.chunk, buyers: c.to - c.from, operator: c.operator, collected: c.collected ?? null })) ?? null,
        settleOperator: b.split?.settle.operator ?? null,
        tickBlock: Number(b.tickBlock) - Number(firstSwapBlock),
        settledIn: b.execution ? `firstSwapBlock+${Number(BigInt(b.execution.blockNumber) - firstSwapBlock)}` : null,
        notCollected: b.execution?.notCollected?.length ?? 0,
      })),
      transactions,
      buyersPerBlock,
      lastCollectOrSettleBlock: lastCollect,
      blocksFromFirstCollectToSettle: batchSpanBlocks,
      priceSpreadByBlock,
      onePriceExact,
      // What the launch tick found prepared by the readying pass (so a reader sees it only priced): the readied walk,
      // whether the split took it (`clearing`: readied = the readying pass's walk, used = the quote window's, differed
      // or none = cleared after the quote), the book (reused = prepared ahead), the re-read under the locks skipped,
      // and how many batch entry forms were computed from the launch on (0: all formed ahead; the later ticks of the
      // launch, on the few orders left, count too).
      preparedAtLaunch: {
        readiedBefore: {
          blockNumber: Number(readiedBefore.blockNumber),
          buys: readiedBefore.buys,
          batchable: readiedBefore.batchable,
          walked: readiedBefore.walked,
        },
        clearing: stages.find(([n]) => n.startsWith('executor.clearingAhead.'))?.[0].slice('executor.clearingAhead.'.length) ?? null,
        // Whether the launch tick predicted the buys (and walked them) in its quote window: false on a readied book.
        tickPredicted: stages.some(([n]) => n === 'executor.clearingAhead.predicted'),
        book: stages.find(([n]) => n.startsWith('executor.book.'))?.[0].slice('executor.book.'.length) ?? null,
        rereadSkipped: stages.some(([n]) => n === 'executor.rereadSkipped'),
        batchEntryFormsComputedSinceLaunch: formsComputedSinceLaunch,
      },
      // The launch log on the monotonic clock a CPU profile's timestamps use (µs; process.hrtime and V8's ticks both read
      // CLOCK_MONOTONIC on Linux): lines a `--cpu-prof` of this bench up with the stages (docs/execution.md §8).
      launchLogMonotonicUs: launchArrival === undefined ? null : Math.round((Number(process.hrtime.bigint()) / 1e6 - performance.now() + launchArrival) * 1000),
      stagesAfterLaunchLogMs: launchArrival === undefined ? {} : Object.fromEntries(stages.map(([n, at]) => [n, round(at - launchArrival!)])),
      msLaunchLogToFirstSend: firstSent.length > 0 ? Math.min(...firstSent) : null,
      // The share of that window the event loop was busy (not waiting for I/O or timers): 1 is a loop full throughout.
      eventLoopBusyLaunchLogToFirstSend:
        launchUtilization && firstSendUtilization ? round(performance.eventLoopUtilization(firstSendUtilization, launchUtilization).utilization) : null,
      msLaunchLogToLastCollectOrSettleSent: firstSent.length > 0 ? Math.max(...firstSent) : null,
      txGasCap: Number(EIP_7825_TX_GAS_CAP),
      targets: {
        everyOrderFilled: { target: BUYERS, value: filled.length, met: filled.length === BUYERS },
        blocksFromFirstEligible: { target: TARGET_BLOCKS, value: blocksUsed, met: blocksUsed !== null && blocksUsed <= TARGET_BLOCKS },
        everyTxUnder2pow24: {
          target: Number(EIP_7825_TX_GAS_CAP),
          maxGasUsed,
          maxGasLimit,
          met: transactions.length > 0 && transactions.every((t) => t.underCap),
        },
        onePricePerBlock: {
          target: 'spread 0 within each block: one swap per block, every gross share floor(tokensOut × spend / totalIn)',
          value: Math.max(0, ...Object.values(priceSpreadByBlock).map((p) => p.relativeSpread)),
          met: onePriceExact && Object.values(priceSpreadByBlock).every((p) => p.swaps === 1),
        },
      },
    }
  } finally {
    clock.stop = true
    await clock.done.catch(() => undefined)
    await h.stop()
  }
}

type SplitRun = Awaited<ReturnType<typeof benchSplitLaunch>>

/**
 * RUNS launches, one after another: the first run's report whole (as with one run), each run's headline figures, and
 * the targets over every run (met when met in each; the first send's p50 and p99 over the runs).
 */
export async function benchSplitLaunches(runs = RUNS) {
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`BENCH_SPLIT_RUNS must be a whole number of launches, at least 1 (got ${runs})`)
  const reports: SplitRun[] = []
  for (let run = 0; run < runs; run++) reports.push(await benchSplitLaunch())
  const firstSends = reports.map((r) => r.msLaunchLogToFirstSend ?? Number.POSITIVE_INFINITY)
  const p50 = quantile(firstSends, 0.5)!
  const p99 = quantile(firstSends, 0.99)!
  const every = (name: keyof SplitRun['targets']) => reports.every((r) => r.targets[name].met)
  const first = reports[0]!
  return {
    ...first,
    runs: reports.map((r) => ({
      loadAverage: r.loadAverage,
      filled: r.filled,
      msLaunchLogToFirstSend: r.msLaunchLogToFirstSend,
      msLaunchLogToLastCollectOrSettleSent: r.msLaunchLogToLastCollectOrSettleSent,
      eventLoopBusyLaunchLogToFirstSend: r.eventLoopBusyLaunchLogToFirstSend,
      blocksFromFirstEligible: r.targets.blocksFromFirstEligible.value,
      maxGasUsed: r.targets.everyTxUnder2pow24.maxGasUsed,
      onePriceExact: r.onePriceExact,
    })),
    targets: {
      everyOrderFilled: { target: `${BUYERS} in every run`, values: reports.map((r) => r.filled), met: every('everyOrderFilled') },
      blocksFromFirstEligible: {
        target: `≤ ${TARGET_BLOCKS} in every run`,
        values: reports.map((r) => r.targets.blocksFromFirstEligible.value),
        met: every('blocksFromFirstEligible'),
      },
      everyTxUnder2pow24: {
        ...first.targets.everyTxUnder2pow24,
        maxGasUsed: Math.max(...reports.map((r) => r.targets.everyTxUnder2pow24.maxGasUsed)),
        maxGasLimit: Math.max(...reports.map((r) => r.targets.everyTxUnder2pow24.maxGasLimit)),
        met: every('everyTxUnder2pow24'),
      },
      onePricePerBlock: {
        ...first.targets.onePricePerBlock,
        value: Math.max(...reports.map((r) => r.targets.onePricePerBlock.value)),
        met: every('onePricePerBlock'),
      },
      // A run that sent nothing counts as an infinite time: it fails the target.
      launchLogToFirstSend: {
        target: `p50 ≤ ${FIRST_SEND_TARGET.p50Ms} ms, p99 ≤ ${FIRST_SEND_TARGET.p99Ms} ms over the runs, ${BUYERS} orders`,
        runs: reports.length,
        p50Ms: Number.isFinite(p50) ? p50 : null,
        p99Ms: Number.isFinite(p99) ? p99 : null,
        met: p50 <= FIRST_SEND_TARGET.p50Ms && p99 <= FIRST_SEND_TARGET.p99Ms,
      },
    },
    note: `${reports.length} launch(es) of ${BUYERS} orders, each on a fresh devnet and daemon (BENCH_SPLIT_RUNS); the fields above \`runs\` are the first run's, \`targets\` are over every run.`,
  }
}

export const splitLaunchBenchmark: BenchModule = { name: 'split', run: () => benchSplitLaunches() }
