import type { Address, Hash } from 'viem'
import { txGasCapOf } from '../../src/chain/tx-gas-cap.ts'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { buyersPerTransaction, MAX_COLLECTS_PER_BATCH } from '../../src/domain/batch/split-batch-gas.ts'
import { planSplitBatch, splitOperators } from './plan-split-batch.ts'
import { SUPERSEDE_GAS } from './superseded-batches.ts'
import { batchIdOf } from '../../src/domain/batch/batch-id.ts'
import { validUntilBlockOf } from '../../src/domain/batch/batch-deadline.ts'
import { type BatchCandidate, type BatchClearing, clearBatch, clearBatchQuoted } from '../../src/domain/batch/clear-batch.ts'
import { type ClearingAhead, amountToPrice, clearBatchAfter, clearBatchAhead, sameClearingInputs } from '../../src/domain/batch/clear-batch-ahead.ts'
import type { ExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import type { ClearingRow } from '../../src/journal/compact-batch-commit.ts'
import { type BatchEntryForm, batchEntryForm, clearingRowOf } from './batch-entry-forms.ts'
import type { BuyToSubmit } from '../../src/domain/execution/executor-plan.ts'
import { type BatchClearingRecord, type BatchRecord, predictedShareRecord } from '../../src/journal/batch-records.ts'
import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import type { ExecutorContext } from './executor-context.ts'
import { createReadiedClearings, type ReadiedClearing, type ReadiedClearings, readiedEntrySource } from './readied-clearing.ts'
import { createBatchSequences } from './batch-sequences.ts'
import { fillPredictedShares, SHARES_PENDING, sharesLater } from './shares-later.ts'
import { type BatchRecordEntries, recordEntriesOf } from './batch-entry-records.ts'

/** A batch cleared for this tick, not journaled yet: its record (state `journaled`) and the planned buys it includes. */
export interface PlannedBatch {
  record: BatchRecord
  /** The included orders' planned buys, by keyId (the executing transitions are written from them). */
  buys: Map<string, BuyToSubmit>
}

/** A tick's buys split: the batch (approved wallets) and the rest, bought one UserOperation each as before. */
export interface BatchSplit {
  batch?: PlannedBatch | undefined
  perBuyer: BuyToSubmit[]
  /**
   * Buys left for a later tick: their wallet's allowance does not cover them (a single UserOperation would buy them)
   * while a released batch of the launch that includes them could still land (SupersededBatches.heldOrders). A single
   * UserOperation names no superseded batch, so it and the old batch could both pull the wallet; a later batch names
   * it, or its last block passes. Recorded `deferred`.
   */
  awaitingReleased?: BuyToSubmit[]
}

export type BatchPlannerContext = Pick<
  ExecutorContext,
  'batchBuyers' | 'wallets' | 'chains' | 'batchReads' | 'batchJournal' | 'quotes' | 'orders' | 'policy' | 'log' | 'now' | 'batchDeadline'
> &
  Partial<
    Pick<
      ExecutorContext,
      'batchOperators' | 'splitReads' | 'maxBuyersPerTransaction' | 'warmAllowances' | 'stage' | 'supersededBatches' | 'preparedEntries' | 'orderLockGroup'
    >
  >

export interface BatchPlanner extends ReadiedClearings {
  /**
   * Splits a tick's planned buys: those whose wallet approved the chain's batch buyer for at least the buy's spend (one
   * allowance multicall per block) are cleared together (clearBatchQuoted on the real swap's quotes, clearBatch on
   * the tick's formula cap where the chain has no quoter); the others go on as single buys.
   */
  split(
    tick: PriceTick,
    launch: LaunchRecord,
    buys: readonly BuyToSubmit[],
    /**
     * A wallet list holding every buy's wallet, asked for the allowances instead of the buys' own: the tick's book list
     * (book-wallets.ts), the array its allowance read ahead was asked with at this block, which the warm allowances
     * then know covered by its identity (no scan of its 5,000 wallets again, nor a list of the buys' made).
     */
    wallets?: readonly Address[],
  ): Promise<BatchSplit>
  /**
   * The launch's batch record cleared on the project's readied walk before the tick's plan (readied-launch.ts): only
   * when `readiedIsPlan` says the tick's inputs make the plan's batch exactly the walk's candidates (it is handed the
   * readied clearing, the batch buyer's allowances at the tick's block and the tick's gas cut). Priced with the pool
   * function and built by the record builder the split uses; the batch sequence it takes is the one the same block's
   * split then names. Undefined otherwise (nothing taken: the split clears as always). The readied walk stays for the
   * split.
   */
  clearReadied(
    tick: PriceTick,
    launch: LaunchRecord,
    wallets: readonly Address[],
    readiedIsPlan: (readied: ReadiedClearing, allowances: ReadonlyMap<string, bigint>, maxBuyers: number) => boolean,
  ): Promise<BatchRecord | undefined>
  /**
   * Starts the allowance read of `wallets` at the tick's block without waiting (issue 23 item 3: the tick calls it
   * before its quote, so the two round trips overlap); `split` then uses it. A failed prefetch is read again there.
   */
  prefetchAllowances(tick: Pick<PriceTick, 'blockNumber'>, launch: LaunchRecord, wallets: readonly Address[]): void
  /**
   * Starts the read of a launch's next batch sequence (batch-sequences.ts readSequenceSoon): the launch's reads ahead
   * ask it when its log arrives, so that the readied launch's commit does not wait on it (two LevelDB iterators, 4-8 ms
   * on the shared machine, were read after the launch's clearing: the split bench's profile, 2026-11-28).
   */
  readSequenceSoon(launch: Pick<LaunchRecord, 'chain' | 'slug' | 'blockNumber'>): void
  /**
   * The clearing's price-independent part (the priority order and the walk, clear-batch-ahead.ts) over the buys the
   * tick's plan is predicted to make, done while the tick's quote is out (issue 23 item 3). `split` of the same launch
   * and block uses it only when its own clearing inputs are exactly these (same order objects in the same order, same
   * spends, same gas cut and policy); otherwise it clears as always. A split that comes before the walk is done does
   * not wait for it (it clears as always) and the walk stops at its next step. Never rejects; resolves when done.
   */
  clearAhead(
    tick: Pick<PriceTick, 'blockNumber'>,
    launch: LaunchRecord,
    /** Settles when the predicted buys' forms are ready (the tick forms them in slices while its quote is out). */
    ready: Promise<unknown>,
    predict: () => readonly Pick<BuyToSubmit, 'candidate' | 'spendAtoms'>[],
  ): Promise<void>
}

/** The single buys an order of a released batch that could still land must not make (BatchSplit.awaitingReleased). */
function holdReleased(
  ctx: Pick<BatchPlannerContext, 'supersededBatches' | 'log'>,
  launch: LaunchRecord,
  tickBlock: string,
  singles: BuyToSubmit[],
  /** The orders already said to wait, per launch: each is warned about once, not on every block it waits. */
  warned: Map<string, Set<string>>,
): Pick<BatchSplit, 'perBuyer' | 'awaitingReleased'> {
  const key = `${launch.chain}!${launch.slug}!${launch.blockNumber}`
  const held = singles.length > 0 ? ctx.supersededBatches?.heldOrders(launch.chain, launch.slug, launch.blockNumber, BigInt(tickBlock)) : undefined
  if (!held || held.size === 0) {
    // Nothing held any more (the released batches' last blocks are final): an order held again later is said again.
    if (singles.length > 0) warned.delete(key)
    return { perBuyer: singles }
  }
  const perBuyer: BuyToSubmit[] = []
  const awaitingReleased: BuyToSubmit[] = []
  for (const buy of singles) (held.has(buy.candidate.order.keyId) ? awaitingReleased : perBuyer).push(buy)
  if (awaitingReleased.length === 0) return { perBuyer }
  const said = warned.get(key) ?? new Set<string>()
  warned.set(key, said)
  const fresh = awaitingReleased.map((b) => b.candidate.order.keyId).filter((keyId) => !said.has(keyId))
  for (const keyId of fresh) said.add(keyId)
  if (fresh.length > 0)
    ctx.log.warn(
      { slug: launch.slug, block: tickBlock, orders: fresh },
      'orders of a released batch that could still land wait for a batch: their allowance does not cover a batch buy',
    )
  return { perBuyer, awaitingReleased }
}

/** The gas cut of a batch naming `supersedes` (none before a launch: nothing of it was released yet). */
function gasCutNaming<S>(ctx: BatchPlannerContext, chain: ChainKey, supersedes: S[]) {
  const txGasCap = txGasCapOf(ctx.chains[chain])
  const budget = txGasCap - BigInt(supersedes.length) * SUPERSEDE_GAS
  const perTransaction = buyersPerTransaction(budget, ctx.maxBuyersPerTransaction)
  const operators = ctx.batchOperators ? splitOperators({ ...ctx, batchOperators: ctx.batchOperators }, chain) : undefined
  return { txGasCap, perTransaction, operators, maxBuyers: operators ? perTransaction * MAX_COLLECTS_PER_BATCH : perTransaction, supersedes }
}

/**
 * Whether a walk's candidates are the ones the split would build from its batchable buys and their forms: the same form
 * objects (a written order gets a new one, batch-entry-forms.ts) in the same order with the same spends. One pass, no
 * allocation. What sameClearingInputs (clear-batch-ahead.ts) checks of the built array, checked before building it.
 */
function sameWalkedCandidates(
  walked: readonly BatchCandidate<ExecutableOrder>[],
  batchable: readonly Pick<BuyToSubmit, 'spendAtoms'>[],
  forms: readonly BatchEntryForm[],
): boolean {
  if (walked.length !== batchable.length) return false
  for (let i = 0; i < walked.length; i++) {
    const c = walked[i]!
    if (c.order !== forms[i]!.executable || c.spend !== batchable[i]!.spendAtoms) return false
  }
  return true
}

/**
 * A cleared entry's index among `candidates`: by the walk's priority permutation at its rank when the clearing
 * finished a walk done ahead (its candidates match these index for index), else by its order id (a map built then).
 */
function placeOf(
  candidates: readonly BatchCandidate<ExecutableOrder>[],
  ahead: ClearingAhead | undefined,
): (entry: { candidate: BatchCandidate; rank: number }) => number {
  if (ahead) {
    const { permutation } = ahead
    return (entry) => permutation[entry.rank]!
  }
  const byId = new Map<string, number>()
  for (let i = 0; i < candidates.length; i++) byId.set(candidates[i]!.order.id, i)
  return (entry) => byId.get(entry.candidate.order.id)!
}

/** The clearing's stage: which walk done ahead it priced (the quote window's, the readying pass's), or none. */
function clearingStage(ahead: ClearingAhead | undefined, walkedAhead: ClearingAhead | undefined, walkedReadied: ClearingAhead | undefined): string {
  if (ahead) return ahead === walkedAhead ? 'executor.clearingAhead.used' : 'executor.clearingAhead.readied'
  return walkedAhead || walkedReadied ? 'executor.clearingAhead.differed' : 'executor.clearingAhead.none'
}

/**
 * The batch record (state `journaled`) of a clearing: one builder for the split and the readied launch's fast commit,
 * so that the record the fast path commits and the one the plan's split builds after its first send are made by the
 * same code; its entries built by batch-entry-records.ts (recordEntriesOf, or the readying pass's entries of the walk).
 */
function batchRecordFrom(
  ctx: Pick<BatchPlannerContext, 'batchBuyers' | 'batchDeadline' | 'now'>,
  tick: PriceTick,
  launch: LaunchRecord,
  clearing: Pick<BatchClearing, 'tokensOut' | 'lowestLimit'>,
  clearingRecord: BatchClearingRecord,
  sequence: number,
  gas: Pick<ReturnType<typeof gasCutNaming<Hash>>, 'perTransaction' | 'operators' | 'txGasCap' | 'supersedes'>,
  entries: BatchRecordEntries,
): BatchRecord {
  const batchBuyer = ctx.batchBuyers[launch.chain]!
  const { perTransaction, operators, txGasCap, supersedes } = gas
  const record: BatchRecord = {
    batchId: batchIdOf(launch.slug, launch.blockNumber, sequence),
    chain: launch.chain,
    slug: launch.slug,
    launchBlock: launch.blockNumber,
    sequence,
    tickBlock: tick.blockNumber,
    // Its pulls are refused after this block (a lost transaction can never land late): docs/execution.md §8.
    validUntilBlock: validUntilBlockOf(BigInt(tick.blockNumber), ctx.batchDeadline(launch.chain)).toString(),
    batchBuyer,
    token: launch.token,
    lowestLimitFdv: clearing.lowestLimit === null ? null : clearing.lowestLimit.toString(),
    predictedTokensOut: clearing.tokensOut.toString(),
    included: entries.included,
    excluded: entries.excluded,
    clearing: clearingRecord,
    state: 'journaled',
    at: ctx.now(),
    swept: 0,
  }
  // The launch's released batches that could still land: this one runs only if none of them pulled, and kills them
  // (docs/execution.md §8, "A price-reverted batch, superseded"). Journaled with it, so a resend encodes the same.
  if (supersedes.length > 0) record.supersedes = supersedes
  if (operators && record.included.length > perTransaction)
    record.split = planSplitBatch({ buyers: record.included.length, operators, txGasCap, maxBuyersPerChunk: perTransaction })
  return record
}

/** The pool function on the chain's quote at the tick (`priced`: the fast commit's answers first), each answer recorded. */
const quotedTokensOut =
  (
    quotes: BatchPlannerContext['quotes'],
    priced: (usdcIn: bigint) => bigint | undefined,
    tick: PriceTick,
    launch: LaunchRecord,
    evaluations: BatchClearingRecord['evaluations'],
  ) =>
  async (usdcIn: bigint) => {
    const out = priced(usdcIn) ?? (await quotes.tokensOut(tick, launch, usdcIn)) ?? 0n
    evaluations.push([usdcIn.toString(), out.toString()])
    return out
  }

/** The pool function on the tick's cap as a straight line (a chain without a quoter), each answer recorded. */
function formulaTokensOut(tick: PriceTick, launch: LaunchRecord, evaluations: BatchClearingRecord['evaluations']) {
  const totalSupply = BigInt(launch.totalSupply)
  const cap = tick.effectiveCapAtoms === null ? null : BigInt(tick.effectiveCapAtoms)
  return (usdcIn: bigint) => {
    const out = cap === null || cap <= 0n ? 0n : (usdcIn * totalSupply) / cap
    evaluations.push([usdcIn.toString(), out.toString()])
    return out
  }
}

/** The clearing record's candidate rows: the held rows ([keyId, max spend, limit, spend] as strings), rebuilt only for a spend other than the max. */
const clearingRowsOf = (candidates: readonly BatchCandidate[], candidateForms: readonly BatchEntryForm[]): ClearingRow[] =>
  candidates.map((c, i) => clearingRowOf(candidateForms[i]!, c.spend))

/** What a clearing was decided from, as its record holds it (`rows`: clearingRowsOf its candidates). */
const clearingRecordOf = (
  ctx: Pick<BatchPlannerContext, 'policy'>,
  pool: BatchClearingRecord['pool'],
  evaluations: BatchClearingRecord['evaluations'],
  rows: ClearingRow[],
  maxBuyers: number,
  totalSupply: bigint,
): BatchClearingRecord => ({
  pool,
  policy: ctx.policy.name,
  maxBuyers,
  totalSupply: totalSupply.toString(),
  candidates: rows,
  evaluations,
})

/**
 * A readied walk's total priced as the split's clearing prices it (the same pool function and record: `clear` in
 * createBatchPlanner), over the walk's own candidates: asked of the chain's quote where it quotes, else of the tick's
 * formula. Undefined where the split would not clear on this walk (nothing to price, no supply, another gas cut or
 * policy) or the quote failed (the split asks again).
 */
async function priceWalkTotal(
  ctx: Pick<BatchPlannerContext, 'quotes' | 'policy'>,
  priced: (usdcIn: bigint) => bigint | undefined,
  tick: PriceTick,
  launch: LaunchRecord,
  walked: ClearingAhead,
  forms: readonly BatchEntryForm[],
  maxBuyers: number,
  /** The walk's candidates' rows, if the readying pass built them (readied-clearing.ts `clearingRows`). */
  rows: ClearingRow[] | undefined,
) {
  const totalSupply = BigInt(launch.totalSupply)
  const amount = amountToPrice(walked)
  if (amount === undefined || totalSupply <= 0n || !sameClearingInputs(walked, walked.candidates, maxBuyers, ctx.policy)) return undefined
  const evaluations: BatchClearingRecord['evaluations'] = []
  const pool: BatchClearingRecord['pool'] = ctx.quotes.canQuote(launch.chain) ? 'quote' : 'formula'
  let out: bigint
  try {
    out = pool === 'quote' ? await quotedTokensOut(ctx.quotes, priced, tick, launch, evaluations)(amount) : formulaTokensOut(tick, launch, evaluations)(amount)
  } catch {
    return undefined
  }
  return {
    pool,
    amount,
    out,
    clearingRecord: clearingRecordOf(ctx, pool, evaluations, rows ?? clearingRowsOf(walked.candidates, forms), maxBuyers, totalSupply),
  }
}

export function createBatchPlanner(ctx: BatchPlannerContext): BatchPlanner {
  // The wallets' allowances to the batch buyer, per chain, as read at one block (re-read at the next).
  const allowanceCache = new Map<ChainKey, { block: string; values: Map<string, bigint>; reading: Promise<unknown>[] }>()
  // The walk done ahead of the tick's quote, per launch (the last tick's only): taken by the split of the same block.
  // `late`: the split came first (and cleared without it); the walk stops at its next step.
  const aheads = new Map<string, { block: string; walked?: ClearingAhead | undefined; late: boolean }>()
  // The orders holdReleased has said wait for a released batch, per launch (one warning per order, not per block).
  const heldWarned = new Map<string, Set<string>>()
  const aheadKey = (launch: LaunchRecord) => `${launch.chain}!${launch.slug}!${launch.blockNumber}`

  /** The buys whose wallet allowed the batch buyer their spend, with their forms, in the buys' order. */
  function batchableOf<B extends Pick<BuyToSubmit, 'candidate' | 'spendAtoms'>>(buys: readonly B[], allowances: ReadonlyMap<string, bigint>) {
    const batchable: B[] = []
    const batchForms: BatchEntryForm[] = []
    const perBuyer: B[] = []
    for (const b of buys) {
      const form = batchEntryForm(b.candidate.order, b.candidate.wallet, ctx.orders.idOf)
      if ((allowances.get(form.walletLower) ?? 0n) >= b.spendAtoms) {
        batchable.push(b)
        batchForms.push(form)
      } else perBuyer.push(b)
    }
    return { batchable, batchForms, perBuyer }
  }

  /**
   * Most buyers the clearing may include: one transaction's gas budget, or up to MAX_COLLECTS_PER_BATCH transactions'
   * worth where the executor can send a split batch (collects, then one settle: plan-split-batch.ts).
   */
  function gasCutOf(launch: LaunchRecord, tickBlock: string) {
    // The launch's released batches this one names (docs/execution.md §8, "A price-reverted batch, superseded"): every
    // transaction of the batch carries the list and pays for each name, so their gas comes out of each transaction's
    // budget before its buyers are counted; with the names' gas added, no transaction is planned above the cap.
    return gasCutNaming(ctx, launch.chain, ctx.supersededBatches?.of(launch.chain, launch.slug, launch.blockNumber, BigInt(tickBlock)) ?? [])
  }

  async function allowancesAt(chain: ChainKey, spender: Address, wallets: readonly Address[], block: string): Promise<Map<string, bigint>> {
    // Carried from the blocks before (read ahead of the launch): only the wallets the logs say changed are read.
    if (ctx.warmAllowances) return ctx.warmAllowances.at(chain, spender, wallets, BigInt(block))
    const cached = allowanceEntry(chain, block)
    // A prefetch of this block still reading: its answers first, then only what it did not cover.
    await Promise.allSettled(cached.reading)
    const values = cached.values
    const missing = [...new Set(wallets.map((w) => w.toLowerCase()))].filter((w) => !values.has(w)) as Address[]
    if (missing.length > 0) for (const [wallet, value] of await ctx.batchReads.allowances(chain, spender, missing, BigInt(block))) values.set(wallet, value)
    return values
  }

  function allowanceEntry(chain: ChainKey, block: string) {
    let cached = allowanceCache.get(chain)
    if (!cached || cached.block !== block) {
      cached = { block, values: new Map(), reading: [] }
      allowanceCache.set(chain, cached)
    }
    return cached
  }

  // The launch clearings readied ahead by the readying pass, per waiting project: taken by its launch's first split.
  const { take: takeReadied, ...readiedClearings } = createReadiedClearings({
    ...ctx,
    batchableOf,
    maxBuyersBeforeLaunch: (chain) => gasCutNaming(ctx, chain, []).maxBuyers,
  })

  const { readSequenceSoon, nextSequence } = createBatchSequences(ctx.batchJournal)

  /**
   * The pool function: the real swap quoted at the next block, or the tick's cap as a straight line without a quoter.
   * Every answer it gave is recorded with the batch (`clearing.evaluations`), so the replay decides it again exactly.
   */
  async function clear(
    tick: PriceTick,
    launch: LaunchRecord,
    candidates: readonly BatchCandidate[],
    /** The candidates' forms, in their order (their record rows). */
    candidateForms: readonly BatchEntryForm[],
    maxBuyers: number,
    /** The walk done while the quote was out, if any: used only when it was done from exactly these inputs. */
    walkedAhead: ClearingAhead | undefined,
    /** The walk the readying pass did before the launch, if any: likewise (tried after the quote's walk). */
    walkedReadied: ClearingAhead | undefined = undefined,
  ): Promise<{ clearing: BatchClearing; record: BatchClearingRecord; ahead: ClearingAhead | undefined }> {
    const totalSupply = BigInt(launch.totalSupply)
    const base = { candidates, totalSupply, maxBuyers, policy: ctx.policy }
    // The walk ahead answers the one question clearBatch would ask (the included total), with the same pool function
    // below, so the record's evaluations are the same too. A supply clearBatch refuses is left to it (it throws).
    const matches = (walk: ClearingAhead | undefined) => walk !== undefined && totalSupply > 0n && sameClearingInputs(walk, candidates, maxBuyers, ctx.policy)
    const ahead = matches(walkedAhead) ? walkedAhead : matches(walkedReadied) ? walkedReadied : undefined
    ctx.stage?.(clearingStage(ahead, walkedAhead, walkedReadied))
    const amount = ahead ? amountToPrice(ahead) : undefined
    try {
      if (ctx.quotes.canQuote(launch.chain)) {
        const evaluations: BatchClearingRecord['evaluations'] = []
        const tokensOut = quotedTokensOut(ctx.quotes, (usdcIn) => pricedFast(launch, tick, usdcIn), tick, launch, evaluations)
        const clearing = ahead ? clearBatchAfter(ahead, amount === undefined ? 0n : await tokensOut(amount)) : await clearBatchQuoted({ ...base, tokensOut })
        return { clearing, record: clearingRecordOf(ctx, 'quote', evaluations, clearingRowsOf(candidates, candidateForms), maxBuyers, totalSupply), ahead }
      }
    } catch (error) {
      ctx.log.warn({ err: error, slug: launch.slug, block: tick.blockNumber }, 'quote of the batch failed: cleared on the formula (the chain checks the limit)')
    }
    const evaluations: BatchClearingRecord['evaluations'] = []
    const tokensOut = formulaTokensOut(tick, launch, evaluations)
    const clearing = ahead ? clearBatchAfter(ahead, amount === undefined ? 0n : tokensOut(amount)) : clearBatch({ ...base, tokensOut })
    return { clearing, record: clearingRecordOf(ctx, 'formula', evaluations, clearingRowsOf(candidates, candidateForms), maxBuyers, totalSupply), ahead }
  }

  // The sequence a readied launch's fast commit took, per launch and tick block (readied-launch.ts): the same block's
  // split (the plan's, checked against that commit after its first send, or the old path's if the fast one stopped
  // before its commit) names the same batch id, not the next one.
  const fastSequences = new Map<string, { block: string; sequence: number }>()
  // The pool's answers the fast commit's clearing got, per launch and tick block: the same block's split prices with
  // them (the quote cache of the block may be gone by then, a block later, and a quote asked again that failed would
  // clear on the formula: another record than the one committed, a fail-stop for a network blip).
  const fastPrices = new Map<string, { block: string; answers: Map<string, bigint> }>()
  const pricedFast = (launch: LaunchRecord, tick: Pick<PriceTick, 'blockNumber'>, usdcIn: bigint): bigint | undefined => {
    const held = fastPrices.get(aheadKey(launch))
    return held && held.block === tick.blockNumber ? held.answers.get(usdcIn.toString()) : undefined
  }
  const takeSequence = (launch: LaunchRecord, tick: Pick<PriceTick, 'blockNumber'>): number | undefined => {
    const held = fastSequences.get(aheadKey(launch))
    if (!held) return undefined
    fastSequences.delete(aheadKey(launch))
    return held.block === tick.blockNumber ? held.sequence : undefined
  }

  return {
    ...readiedClearings,
    clearAhead(tick, launch, ready, predict) {
      const batchBuyer = ctx.batchBuyers[launch.chain]
      if (!batchBuyer || !ctx.wallets.operatorAddress?.(launch.chain) || !ctx.wallets.sendCall) return Promise.resolve()
      const entry: { block: string; walked?: ClearingAhead | undefined; late: boolean } = { block: tick.blockNumber, late: false }
      aheads.set(aheadKey(launch), entry)
      return (async (): Promise<void> => {
        await ready
        if (entry.late) return
        const predicted = predict()
        ctx.stage?.('executor.clearingAhead.predicted')
        if (predicted.length === 0) return
        // The same allowance read the split waits for (the prefetch of this block, or the warm allowances).
        const allowances = await allowancesAt(
          launch.chain,
          batchBuyer,
          predicted.map((b) => b.candidate.wallet),
          tick.blockNumber,
        )
        if (entry.late) return
        ctx.stage?.('executor.clearingAhead.allowances')
        const { batchable, batchForms } = batchableOf(predicted, allowances)
        if (batchable.length === 0) return
        const candidates = batchable.map((b, i): BatchCandidate => ({ order: batchForms[i]!.executable, spend: b.spendAtoms }))
        entry.walked = clearBatchAhead({ candidates, maxBuyers: gasCutOf(launch, tick.blockNumber).maxBuyers, policy: ctx.policy })
        ctx.stage?.('executor.clearingAhead.walked')
      })().catch((error: unknown) => {
        ctx.log.debug({ err: error, slug: launch.slug, block: tick.blockNumber }, 'clearing ahead of the quote failed; the split clears as always')
      })
    },
    readSequenceSoon,
    prefetchAllowances(tick, launch, wallets) {
      const batchBuyer = ctx.batchBuyers[launch.chain]
      if (!batchBuyer || !ctx.wallets.operatorAddress?.(launch.chain) || !ctx.wallets.sendCall || wallets.length === 0) return
      if (ctx.warmAllowances) {
        ctx.warmAllowances.at(launch.chain, batchBuyer, wallets, BigInt(tick.blockNumber)).catch(() => undefined)
        return
      }
      const cached = allowanceEntry(launch.chain, tick.blockNumber)
      const missing = [...new Set(wallets.map((w) => w.toLowerCase()))].filter((w) => !cached.values.has(w)) as Address[]
      if (missing.length === 0) return
      const read = ctx.batchReads.allowances(launch.chain, batchBuyer, missing, BigInt(tick.blockNumber)).then((answers) => {
        for (const [wallet, value] of answers) cached.values.set(wallet, value)
      })
      read.catch(() => undefined)
      cached.reading.push(read)
    },
    async clearReadied(tick, launch, wallets, readiedIsPlan) {
      const batchBuyer = ctx.batchBuyers[launch.chain]
      if (!batchBuyer || !ctx.wallets.operatorAddress?.(launch.chain) || !ctx.wallets.sendCall) return undefined
      const readied = readiedClearings.readied(launch.chain, launch.slug)
      const walked = readied?.walked
      if (!readied || !walked || walked.walk.chosen.length === 0) return undefined
      // A launch naming released batches is not its first tick's (their gas comes off every transaction).
      const gas = gasCutOf(launch, tick.blockNumber)
      if (gas.supersedes.length > 0) return undefined
      readSequenceSoon(launch)
      const allowances = await allowancesAt(launch.chain, batchBuyer, wallets, tick.blockNumber)
      ctx.stage?.('executor.batchAllowances')
      if (!readiedIsPlan(readied, allowances, gas.maxBuyers)) return undefined
      // The readied walk's total priced as the split prices it (priceWalkTotal).
      const priced = await priceWalkTotal(
        ctx,
        (usdcIn) => pricedFast(launch, tick, usdcIn),
        tick,
        launch,
        walked,
        readied.forms,
        gas.maxBuyers,
        readied.clearingRows,
      )
      if (!priced) return undefined
      const { pool, amount, out, clearingRecord } = priced
      if (pool === 'quote') fastPrices.set(aheadKey(launch), { block: tick.blockNumber, answers: new Map([[amount.toString(), out]]) })
      ctx.stage?.('executor.batchClearing')
      const sequence = takeSequence(launch, tick) ?? (await nextSequence(launch))
      fastSequences.set(aheadKey(launch), { block: tick.blockNumber, sequence })
      const at = readiedEntrySource(readied, walked)
      // The pool returns nothing: the clearing excludes every order (finishClearing), as the split's would.
      if (out <= 0n) {
        const clearing = clearBatchAfter(walked, out)
        return batchRecordFrom(ctx, tick, launch, clearing, clearingRecord, sequence, gas, recordEntriesOf(clearing, at, at, predictedShareRecord))
      }
      // The clearing of the walk (clearBatchAfter: the walk's chosen and excluded, its total priced) less the shares,
      // which are filled in after the sends (shares-later.ts) as clearBatchAfter computes them: the entries the
      // readying pass built for the walk (readied-clearing.ts), else built now.
      const { chosen, lowestLimit } = walked.walk
      const entries = readied.recordEntries ?? recordEntriesOf({ included: walked.walk.chosen, excluded: walked.walk.excluded }, at, at, () => SHARES_PENDING)
      const record = batchRecordFrom(ctx, tick, launch, { tokensOut: out, lowestLimit }, clearingRecord, sequence, gas, entries)
      // Only a split batch's sends wait for nothing but wallets and spends (send-split-batch.ts); a single transaction's
      // record has its shares at once.
      if (record.split) sharesLater(record, () => fillPredictedShares(record.included, out, chosen))
      else fillPredictedShares(record.included, out, chosen)
      return record
    },
    async split(tick, launch, buys, wallets) {
      const batchBuyer = ctx.batchBuyers[launch.chain]
      const operator = ctx.wallets.operatorAddress?.(launch.chain)
      if (!batchBuyer || !operator || !ctx.wallets.sendCall || buys.length === 0) return { perBuyer: [...buys] }
      readSequenceSoon(launch)
      const allowances = await allowancesAt(launch.chain, batchBuyer, wallets ?? buys.map((b) => b.candidate.wallet), tick.blockNumber)
      ctx.stage?.('executor.batchAllowances')
      // Each order's parsed amounts, lower-cased wallet, id and record row: held from the readying pass or the tick's
      // quote (batch-entry-forms.ts), computed here only for an order not seen since it was last written.
      const { batchable, batchForms, perBuyer: singles } = batchableOf(buys, allowances)
      // The singles, less those of a released batch that could still land (perBuyer and awaitingReleased).
      const singleBuys = holdReleased(ctx, launch, tick.blockNumber, singles, heldWarned)
      // The walk done while this block's quote was out (clearAhead), if it is done: not waited for (a walk still waiting
      // for its forms would hold the split back; the split forms what it needs itself), and stopped if not done.
      const held = aheads.get(aheadKey(launch))
      if (held) {
        aheads.delete(aheadKey(launch))
        held.late = true
      }
      const walkedAhead = held && held.block === tick.blockNumber ? held.walked : undefined
      // The readying pass's walk of the waiting book: the launch's first split takes it (its book is the ticks' now).
      const readied = takeReadied(launch.chain, launch.slug)
      if (batchable.length === 0) return singleBuys
      // The readied walk's candidates when they are the split's own, form for form and spend for spend (a launch whose
      // book, balances and allowances are as readied): taken as they are, not built again with a map by order id
      // (5,000 objects and map entries at a launch, 3-5 ms with their GC: docs/execution.md §8, "The launch tick's
      // split on the readied walk"). Otherwise built from the forms, as the clearing then needs its own.
      const walkedReadied = readied?.walked
      const candidates: readonly BatchCandidate<ExecutableOrder>[] =
        walkedReadied && sameWalkedCandidates(walkedReadied.candidates, batchable, batchForms)
          ? walkedReadied.candidates
          : batchable.map((b, i) => ({ order: batchForms[i]!.executable, spend: b.spendAtoms }))
      // More buyers than one transaction holds go out as a split batch (collects, then one settle) where the executor
      // can send one: the clearing may then include up to MAX_COLLECTS_PER_BATCH transactions' worth (plan-split-batch.ts).
      const { txGasCap, perTransaction, operators, maxBuyers, supersedes } = gasCutOf(launch, tick.blockNumber)
      const { clearing, record: clearingRecord, ahead } = await clear(tick, launch, candidates, batchForms, maxBuyers, walkedAhead, walkedReadied)
      ctx.stage?.('executor.batchClearing')
      // Each cleared entry's place among the candidates (batchable and batchForms are in their order). Cleared on a walk
      // done ahead from exactly these inputs (sameClearingInputs: index for index), the walk's priority order at the
      // entry's rank; else by its order id.
      const indexOf = placeOf(candidates, ahead)
      if (clearing.included.length === 0)
        ctx.log.info({ slug: launch.slug, block: tick.blockNumber, excluded: clearing.excluded.length }, 'batch cleared empty')
      const sequence = takeSequence(launch, tick) ?? (await nextSequence(launch))
      const included = new Map<string, BuyToSubmit>()
      const entries = recordEntriesOf(
        clearing,
        (inc) => {
          const at = indexOf(inc)
          included.set(batchable[at]!.candidate.order.keyId, batchable[at]!)
          return { candidate: batchable[at]!.candidate, form: batchForms[at]! }
        },
        (exc) => {
          const at = indexOf(exc)
          return { candidate: batchable[at]!.candidate, form: batchForms[at]! }
        },
        predictedShareRecord,
      )
      const record = batchRecordFrom(ctx, tick, launch, clearing, clearingRecord, sequence, { perTransaction, operators, txGasCap, supersedes }, entries)
      return { batch: { record, buys: included }, ...singleBuys }
    },
  }
}
