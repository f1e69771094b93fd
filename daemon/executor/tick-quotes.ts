import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import { atomsNumber } from '../../src/domain/execution/atoms-number.ts'
import type { CandidateOrder } from '../../src/domain/execution/prepared-book.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import type { BuyQuote, BuyQuoter, QuoteAt, QuotedLaunch } from '../../src/launchpads/quote-buy.ts'
import { bridgeRouteFee } from '../../src/pricing/bridge-fee.ts'
import { compareFormulaAndQuote, DEFAULT_QUOTE_TOLERANCE_BPS, PROBE_SPEND_ATOMS, type QuoteComparison } from '../../src/pricing/quote/compare-quote.ts'
import { capFromQuote, MAX_QUOTED_BUCKETS, type QuotedCaps, spendBucket } from '../../src/pricing/quote/quoted-caps.ts'
import { parseDecimal } from '../../src/domain/decimal.ts'

/** A disagreement of formula and quote on a launch (what the daemon logs and counts per launchpad). */
export interface QuoteDisagreement {
  chain: ChainKey
  launchpad: string
  slug: string
  blockNumber: string
  comparison: Exclude<QuoteComparison, { kind: 'agree' }>
}

export interface TickQuotes {
  /**
   * The quoted caps a tick of a launched pool is decided on: one quote per spend bucket (`buckets`: the candidates'
   * buckets, `candidateBuckets` over those that may buy, active with a balance; the tick decider keeps them along its
   * held candidates, held-spends.ts), at the state after the tick's block and in the next block's context; quotes are
   * cached per launch and block, so the ticks of one block (a swap tick, then a block tick) share them. Undefined when
   * no bucket is given, or when the node did not answer a quote: the tick is then decided on the formula (the router's
   * minimum out still holds every buy to its limit; only gas is at stake). `alsoQuote`: spends quoted in the same round
   * (the batch total the clearing will ask, predict-batch-total.ts), cached for the block and not waited for.
   */
  quotedCaps(tick: PriceTick, launch: LaunchRecord, buckets: readonly bigint[], alsoQuote?: readonly bigint[]): Promise<QuotedCaps | undefined>
  /**
   * Compares the formula with a quote of the probe spend, once per launch and block, for a tick priced from the state
   * at the end of its block (a launch or block tick: a swap tick may be followed by other swaps in the block). Logs and
   * reports a disagreement above the tolerance. Never throws.
   */
  compare(tick: PriceTick, launch: LaunchRecord): Promise<QuoteComparison | undefined>
  /**
   * Gross tokens a buy of `spendAtoms` gets in the next block, quoted by the real swap (cached per launch and block like
   * the buckets): the batch clearing's pool function. 0 when the swap reverts; undefined when the chain has no quoter.
   * Rejects when the node did not answer.
   */
  tokensOut(tick: PriceTick, launch: LaunchRecord, spendAtoms: bigint): Promise<bigint | undefined>
  /**
   * A block arrived (the indexer's `block` signal, before the block is processed): starts, ahead of its ticks, the
   * quotes each launch still `ticking` asked at its last tick (the same spends, at this block and next timestamp, with
   * the paired price of that last tick). The block's `quotedCaps` finds them in the cache when its tick states exactly
   * this block, next timestamp and paired price (the same calls), and asks again otherwise (a wrong hint costs the
   * round it would have cost anyway). Issue 23 item 3: a launched pool's tick waits for the indexer's schedule refresh
   * (a gated Clanker v4 pool's, every block until its gate opens); its quote round now overlaps that refresh instead of
   * following it. Never throws; failed quotes are dropped (not cached).
   */
  quoteAhead(block: QuoteAhead, ticking: (slug: string) => boolean): void
  /**
   * A launch log arrived and its record is being read (the indexer's `launch_ahead` signal, issue 23 item 3): starts
   * the quotes its launch tick will ask (`spends`: the spend buckets and the batch total of the project's book), with the
   * launch's pool, token and paired route from its logs, at the launch block and its next timestamp, with the hinted
   * paired price (the block before's). The launch tick's `quotedCaps` finds them when its record and tick state exactly
   * these inputs (the cache is keyed on them: same eth_call), and asks again otherwise. Identical calls hinted for
   * several projects (a launch that may bind any of them) are asked once. Never throws; failed quotes are dropped.
   */
  quoteLaunchAhead(hint: LaunchQuoteAhead, spends: readonly bigint[]): void
  /** Whether buys on the chain are quoted by the real swap (it has a quoter). */
  canQuote(chain: ChainKey): boolean
}

/** A launch's quotes asked ahead of its record (see quoteLaunchAhead). */
export interface LaunchQuoteAhead {
  slug: string
  launch: QuotedLaunch & Pick<LaunchRecord, 'chain'>
  blockNumber: string
  nextBlockTimestamp: number
  pairedUsdAtoms: string
}

/** What a quote's call is asked with besides the launch and the spend (a tick's fields, or a hint of them). */
type QuotedTick = Pick<PriceTick, 'slug' | 'blockNumber' | 'nextBlockTimestamp' | 'pairedUsdAtoms'>

/** A block signal the quotes ahead are asked for. */
export interface QuoteAhead {
  chain: ChainKey
  blockNumber: bigint
  nextBlockTimestamp: number
}

export interface TickQuotesDeps {
  quoters: Partial<Record<ChainKey, BuyQuoter>>
  log: Logger
  toleranceBps?: number
  onDisagreement?: (disagreement: QuoteDisagreement) => void
  /** A quote the node did not answer (the tick fell back to the formula). */
  onQuoteFailure?: (chain: ChainKey, error: unknown) => void
}

/**
 * The spend buckets of the candidates that may buy: exponent of the power of two covering min(max spend, balance),
 * read with the fast decimal parser (this runs on every tick of a book of up to 100,000 orders).
 */
export function candidateBuckets(candidates: readonly CandidateOrder[], max: number = MAX_QUOTED_BUCKETS): bigint[] {
  const exponents = new Set<number>()
  for (const c of candidates) {
    if (c.order.status !== 'active' || c.balanceAtoms <= 0n) continue
    const fast = atomsNumber(c.order.maxSpendUsdc, USDC_DECIMALS)
    if (!Number.isFinite(fast) || c.balanceAtoms > BigInt(Number.MAX_SAFE_INTEGER)) {
      // Beyond exact doubles: the bigint bucket (rare; malformed amounts never reach a book).
      const exact = parseDecimal(c.order.maxSpendUsdc, USDC_DECIMALS)
      if (exact === undefined) continue
      const spend = exact < c.balanceAtoms ? exact : c.balanceAtoms
      if (spend > 0n) exponents.add(spendBucket(spend).toString(2).length - 1)
      continue
    }
    const balance = Number(c.balanceAtoms)
    const spend = fast < balance ? fast : balance
    if (!(spend > 0)) continue
    let e = spend <= 1 ? 0 : Math.ceil(Math.log2(spend))
    // Rounding of log2 near a power of two: the bucket must cover the spend.
    while (2 ** e < spend) e++
    exponents.add(e)
  }
  const sorted = [...exponents].sort((a, b) => a - b)
  return sorted.slice(Math.max(0, sorted.length - max)).map((e) => 1n << BigInt(e))
}

export function createTickQuotes(deps: TickQuotesDeps): TickQuotes {
  const { log } = deps
  const toleranceBps = deps.toleranceBps ?? DEFAULT_QUOTE_TOLERANCE_BPS
  // Per launch: what the cached quotes were asked with (the block, the next block's timestamp and the paired price:
  // every input of the call besides the spend), its quotes by spend, and whether it was compared. Keyed on all three,
  // not on the block alone, so that quotes asked ahead of the tick with a hinted timestamp or paired price are used only
  // when the tick states exactly those (the same eth_call); a wrong hint starts a new entry and the tick asks again.
  const cache = new Map<string, { key: string; quotes: Map<bigint, Promise<BuyQuote>>; compared?: Promise<QuoteComparison | undefined> }>()

  // What a quote's call reads of the launch (its pool, its token's side, the paired route's fee: quote-buy.ts), per
  // launch object: part of the cache key, so a quote asked ahead for a launch's logs is used only by a record whose
  // pool, token and route are exactly those (a forged or misread hint misses and the tick asks its own).
  const launchKeys = new WeakMap<QuotedLaunch, string>()
  const launchKeyOf = (launch: QuotedLaunch): string => {
    let found = launchKeys.get(launch)
    if (found === undefined) {
      const k = launch.poolKey
      const fee = bridgeRouteFee(launch.paired)
      found = [launch.token, k.currency0, k.currency1, k.fee, k.tickSpacing, k.hooks, `${fee.numerator}/${fee.denominator}`].join(':').toLowerCase()
      launchKeys.set(launch, found)
    }
    return found
  }
  // Quotes asked ahead for several projects at once, by their full call (launch, block, timestamp, paired price,
  // spend): one eth_call each, shared by the projects' cache entries. Bounded: the oldest dropped beyond 256.
  const sharedAhead = new Map<string, Promise<BuyQuote>>()

  function entryOf(tick: QuotedTick, launch: QuotedLaunch) {
    const key = `${tick.blockNumber}:${tick.nextBlockTimestamp}:${tick.pairedUsdAtoms}:${launchKeyOf(launch)}`
    let entry = cache.get(tick.slug)
    if (!entry || entry.key !== key) {
      entry = { key, quotes: new Map() }
      cache.set(tick.slug, entry)
    }
    return entry
  }

  // Per launch: what its last tick quoted (the spends, the paired price), for the quotes ahead of its next tick.
  const asked = new Map<string, { launch: LaunchRecord; blockNumber: string; pairedUsdAtoms: string; everyBlock: boolean; spends: bigint[] }>()

  const atOf = (tick: QuotedTick): QuoteAt => ({
    blockNumber: BigInt(tick.blockNumber),
    next: { number: BigInt(tick.blockNumber) + 1n, timestamp: tick.nextBlockTimestamp },
    pairedUsdAtoms: BigInt(tick.pairedUsdAtoms),
  })

  function quote(
    tick: QuotedTick,
    launch: QuotedLaunch & Pick<LaunchRecord, 'chain'>,
    spend: bigint,
    shared?: Map<string, Promise<BuyQuote>>,
  ): Promise<BuyQuote> {
    const quoter = deps.quoters[launch.chain]
    if (!quoter) return Promise.reject(new Error(`no quoter on ${launch.chain}`))
    const entry = entryOf(tick, launch)
    const { quotes } = entry
    let found = quotes.get(spend)
    if (!found) {
      const call = shared && `${launch.chain}:${entry.key}:${spend}`
      found = (call && shared.get(call)) || quoter.quoteBuy(launch, spend, atOf(tick))
      if (call && shared && !shared.has(call)) {
        shared.set(call, found)
        found.catch(() => shared.get(call) === found && shared.delete(call))
        for (const old of shared.keys()) if (shared.size > 256) shared.delete(old)
      }
      // A failed read is not kept: the next tick of the block asks again.
      found.catch(() => quotes.delete(spend))
      quotes.set(spend, found)
    }
    return found
  }

  const capOf = (launch: LaunchRecord, q: BuyQuote): bigint | null =>
    q.kind === 'quoted' ? capFromQuote(q.spendAtoms, q.tokensOut, BigInt(launch.totalSupply)) : null

  return {
    async quotedCaps(tick, launch, spends, alsoQuote = []) {
      if (!deps.quoters[launch.chain]) return undefined
      // Started with the buckets below: one round trip for both (the clearing's own ask finds it in the cache).
      for (const spend of alsoQuote) quote(tick, launch, spend).catch(() => undefined)
      if (spends.length === 0) return undefined
      asked.set(launch.slug, {
        launch,
        blockNumber: tick.blockNumber,
        pairedUsdAtoms: tick.pairedUsdAtoms,
        everyBlock: tick.feeDecaying,
        spends: [...new Set([...spends, ...alsoQuote])],
      })
      let quotes: BuyQuote[]
      try {
        quotes = await Promise.all(spends.map((spend) => quote(tick, launch, spend)))
      } catch (error) {
        deps.onQuoteFailure?.(launch.chain, error)
        log.warn({ err: error, slug: launch.slug, block: tick.blockNumber }, 'quote of the real swap failed: this tick is decided on the formula')
        return undefined
      }
      // A bucket whose swap reverts has no finite cap (its orders wait: a size-dependent refusal, such as a token's
      // balance limit, stops only the sizes it refuses); when every bucket reverts, swaps are not allowed at all.
      for (const q of quotes) {
        if (q.kind === 'reverted') {
          log.debug({ slug: launch.slug, block: tick.blockNumber, spendAtoms: q.spendAtoms.toString(), reason: q.reason }, 'quoted buy reverts')
        }
      }
      return {
        swapsAllowed: quotes.some((q) => q.kind === 'quoted'),
        buckets: quotes.map((q) => ({ spendAtoms: q.spendAtoms, capAtoms: capOf(launch, q) })),
      }
    },

    quoteAhead(block, ticking) {
      for (const [slug, last] of asked) {
        if (!ticking(slug)) {
          asked.delete(slug)
          continue
        }
        // Only a pool the indexer ticks on every block (a gate or fee still ahead: its last tick's feeDecaying) and
        // ticked on the block before: its tick of this block is certain, so are these quotes' use when the hint holds.
        if (last.launch.chain !== block.chain || !last.everyBlock || BigInt(last.blockNumber) + 1n !== block.blockNumber) continue
        const at = { slug, blockNumber: block.blockNumber.toString(), nextBlockTimestamp: block.nextBlockTimestamp, pairedUsdAtoms: last.pairedUsdAtoms }
        for (const spend of last.spends) quote(at, last.launch, spend).catch(() => undefined)
      }
    },

    quoteLaunchAhead(hint, spends) {
      if (!deps.quoters[hint.launch.chain]) return
      for (const spend of new Set(spends)) quote(hint, hint.launch, spend, sharedAhead).catch(() => undefined)
    },

    canQuote: (chain) => deps.quoters[chain] !== undefined,

    async tokensOut(tick, launch, spendAtoms) {
      if (!deps.quoters[launch.chain]) return undefined
      const q = await quote(tick, launch, spendAtoms)
      return q.kind === 'quoted' ? q.tokensOut : 0n
    },

    compare(tick, launch) {
      // A tick ahead (stateBlock: the formula from an older block's state than the quote's) is not compared: a swap in
      // between would read as a disagreement. The head block's own tick of the launch is.
      if (tick.reason === 'swap' || tick.stateBlock !== undefined || !deps.quoters[launch.chain]) return Promise.resolve(undefined)
      const entry = entryOf(tick, launch)
      entry.compared ??= (async () => {
        let probe: BuyQuote
        try {
          probe = await quote(tick, launch, PROBE_SPEND_ATOMS)
        } catch (error) {
          deps.onQuoteFailure?.(launch.chain, error)
          log.warn({ err: error, slug: launch.slug, block: tick.blockNumber }, 'quote of the real swap failed: formula and quote not compared')
          return undefined
        }
        const comparison = compareFormulaAndQuote({
          formula: { swapsAllowed: tick.swapsAllowed, capAtoms: tick.effectiveCapAtoms === null ? null : BigInt(tick.effectiveCapAtoms) },
          quote: { swapsAllowed: probe.kind === 'quoted', capAtoms: capOf(launch, probe) },
          toleranceBps,
        })
        const context = {
          slug: launch.slug,
          chain: launch.chain,
          launchpad: launch.launchpad,
          block: tick.blockNumber,
          reason: tick.reason,
          formulaCapAtoms: tick.effectiveCapAtoms,
          quotedCapAtoms: capOf(launch, probe)?.toString() ?? null,
          ...(probe.kind === 'reverted' ? { quoteReverted: probe.reason } : {}),
        }
        if (comparison.kind === 'agree') {
          log.debug({ ...context, deviationBps: comparison.deviationBps }, 'formula and quote agree')
        } else {
          // A cheaper real swap is expected where the formula prices an upper bound (a Clanker dynamic-fee pool): info.
          const cheaper = comparison.kind === 'cap_differs' && comparison.deviationBps < 0
          log[cheaper ? 'info' : 'warn']({ ...context, comparison }, 'formula and quote of the real swap disagree: the quote decides (a launchpad change?)')
          deps.onDisagreement?.({ chain: launch.chain, launchpad: launch.launchpad, slug: launch.slug, blockNumber: tick.blockNumber, comparison })
        }
        return comparison
      })()
      return entry.compared
    },
  }
}
