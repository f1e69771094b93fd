import { terminalSafeLine } from '../../common/terminal-safe.ts'
import type { BatchBrief, OrderBrief } from '../../admin-api/console-events.ts'
import type { BatchExclusionReason } from '../../domain/batch/clear-batch.ts'
import type { LaunchRecord } from '../../journal/journal-records.ts'
import type { OrderVerdict } from '../../domain/execution/verdicts.ts'
import { median, percent, shortHex, sparkline, usd, usdAtoms, usdDecimal } from '../format-numbers.ts'
import { type ActionEntry, launchedSlugs, type WatchState } from './watch-state.ts'

/** What the dashboard shows, computed from the state alone: the Ink screen and the plain-text form render this. */
export interface WatchView {
  title: string
  connection: { text: string; tone: 'ok' | 'warn' | 'bad' }
  launched: LaunchPanel[]
  /** Index into `launched` of the panel shown in full. */
  selected: number
  candidates: CandidateRow[]
  waiting: WaitingRow[]
  /** What to say when there is nothing else to show. */
  empty: string | null
  help: string
}

export interface OrderCount {
  label: (typeof ORDER_GROUPS)[number]
  count: number
  spend: string
}

export interface LaunchPanel {
  slug: string
  heading: string
  /** Latest tick's block and the figures priced for the next block. */
  block: string
  spotFdv: string
  feeNow: string
  feeNext: string
  effectiveCap: string
  swapsAllowed: boolean
  sparkline: string
  orders: OrderCount[]
  latency: string
  swaps: string[]
  /**
   * The latest batches (one swap, one price per block), newest first: the block, buyers included, total spent, the
   * clearing price per token and as FDV, how many were left out and why; each followed by a few left-out orders.
   */
  batches: string[]
  actions: string[]
}

export interface CandidateRow {
  slug: string
  status: string
  token: string
  reason: string
}

export interface WaitingRow {
  slug: string
  chain: string
  launchpad: string
  method: string
  orders: number
  spend: string
  limits: string
}

export const ORDER_GROUPS = ['waiting for the price', 'eligible', 'executing', 'filled', 'expired', 'failed'] as const

/**
 * Active orders the latest decision found priced out or gated: waiting for the price (a limit below the block batch's
 * clearing price is one); every other active one is eligible.
 */
const WAITING_VERDICTS: ReadonlySet<OrderVerdict> = new Set(['limit_below_cap', 'swaps_not_allowed', 'backing_off', 'limit_below_clearing'])

/** Batches shown per launch, and left-out orders named under each. */
const BATCHES_SHOWN = 3
const LEFT_OUT_SHOWN = 3

/** The exclusion reasons in words. */
const EXCLUSION_WORDS: Readonly<Record<BatchExclusionReason, string>> = {
  limit_below_clearing: 'limit below the clearing price',
  gas_budget: 'over the gas budget',
  no_spend: 'nothing to spend',
}

const SPARK_WIDTH = 48

export function watchView(state: WatchState): WatchView {
  const slugs = launchedSlugs(state)
  const launched = slugs.map((slug) => launchPanel(state, slug))
  const candidates = [...state.candidates.values()]
    .filter((c) => c.status !== 'confirmed')
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .map((c) => ({ slug: c.slug, status: c.status, token: shortHex(c.token), reason: terminalSafeLine(c.reason) }))
  const waiting = [...state.projects.values()]
    .filter((p) => !state.launches.has(p.slug))
    .sort((a, b) => a.slug.localeCompare(b.slug))
    .map((p) => waitingRow(p.slug, p.chain, p.launchpad, p.launchMethod, [...(state.orders.get(p.slug)?.values() ?? [])]))
  const connection =
    state.connection.state === 'connected'
      ? { text: 'live', tone: 'ok' as const }
      : state.connection.state === 'connecting'
        ? { text: 'connecting to the daemon…', tone: 'warn' as const }
        : {
            text: `daemon unreachable: ${state.connection.message ?? 'disconnected'}; retrying in ${Math.ceil((state.connection.retryInMs ?? 0) / 1000)} s`,
            tone: 'bad' as const,
          }
  const nothing = launched.length === 0 && waiting.length === 0 && candidates.length === 0
  return {
    title: state.slug === null ? 'prebuy · launches watch' : `prebuy · launches watch ${state.slug}`,
    connection,
    launched,
    selected: Math.min(state.selected, Math.max(0, launched.length - 1)),
    candidates,
    waiting,
    empty: nothing && state.connection.state === 'connected' ? (state.slug === null ? 'No projects yet.' : `No project ${state.slug}.`) : null,
    help: launched.length > 1 ? '↑/↓ choose a launch · q quit' : 'q quit',
  }
}

function launchPanel(state: WatchState, slug: string): LaunchPanel {
  const launch = state.launches.get(slug)!
  const ticks = state.ticks.get(slug) ?? []
  const latest = ticks[ticks.length - 1]
  // The fee a swap in the latest tick's block paid: what the previous block's tick priced for its next block.
  const previous = latest ? [...ticks].reverse().find((t) => BigInt(t.blockNumber) < BigInt(latest.blockNumber)) : undefined
  const orders = [...(state.orders.get(slug)?.values() ?? [])]
  const verdicts = state.decisions.get(slug)?.verdicts ?? {}
  const fills = [...(state.fills.get(slug)?.values() ?? [])]
  return {
    slug,
    // The symbol is whatever the token's deployer chose: shown escaped, never as control sequences.
    heading: `${slug} · ${terminalSafeLine(launch.symbol)} · ${launch.chain} · ${launch.launchpad} · token ${shortHex(launch.token)} · pool ${shortHex(launch.poolId)}`,
    block: latest ? latest.blockNumber : launch.blockNumber,
    spotFdv: latest ? usdAtoms(latest.fdvUsdAtoms) : '-',
    feeNow: previous ? percent(previous.totalFeeFraction) : '-',
    feeNext: latest ? percent(latest.totalFeeFraction) : '-',
    effectiveCap: latest ? usdAtoms(latest.effectiveCapAtoms) : '-',
    swapsAllowed: latest?.swapsAllowed ?? false,
    sparkline: sparkline(
      ticks.map((t) => (t.effectiveCapAtoms === null ? null : Number(t.effectiveCapAtoms))),
      SPARK_WIDTH,
    ),
    orders: orderCounts(orders, (o) => (WAITING_VERDICTS.has(verdicts[o.keyId] ?? 'limit_below_cap') ? 'waiting for the price' : 'eligible')),
    latency:
      fills.length === 0
        ? 'no fills yet'
        : `median ${blocks(median(fills.map((f) => f.blocks)))} / ${seconds(median(fills.map((f) => f.seconds)))} · max ${blocks(Math.max(...fills.map((f) => f.blocks)))} / ${seconds(Math.max(...fills.map((f) => f.seconds)))} (${fills.length} fills)`,
    swaps: ticks
      .filter((t) => t.reason !== 'block')
      .slice(-5)
      .reverse()
      .map(
        (t) => `block ${t.blockNumber} ${t.reason === 'launch' ? 'launch' : 'swap  '} FDV ${usdAtoms(t.fdvUsdAtoms)} · cap ${usdAtoms(t.effectiveCapAtoms)}`,
      ),
    batches: (state.batches.get(slug) ?? [])
      .slice(-BATCHES_SHOWN)
      .reverse()
      .flatMap((b) => batchLines(b, launch)),
    actions: (state.actions.get(slug) ?? []).slice(-6).reverse().map(actionLine),
  }
}

/**
 * One batch: where it stands, who is in, the one clearing price (stablecoin in over tokens out before the fee, per
 * whole token and as FDV: the chain's figures once executed, the clearing's prediction before); then, when some were
 * left out, how many per reason and the first few (separate lines: each fits a narrow terminal). Escaped for the
 * terminal like every line built from records.
 */
function batchLines(b: BatchBrief, launch: Pick<LaunchRecord, 'totalSupply' | 'decimals'>): string[] {
  const where =
    b.blockNumber !== null
      ? `block ${b.blockNumber} batch ${b.sequence}`
      : `batch ${b.sequence} ${b.state === 'released' ? 'released' : b.state === 'sent' ? 'sent' : 'cleared'} at block ${b.tickBlock}`
  const totalIn = BigInt(b.totalInAtoms)
  const tokensOut = BigInt(b.tokensOut)
  const price =
    tokensOut > 0n && totalIn > 0n
      ? ` · ${b.blockNumber === null ? 'predicted ' : ''}clearing ${usdPrice(Number(totalIn) / 1e6 / (Number(tokensOut) / 10 ** launch.decimals))} per token (FDV ${usdAtoms(((totalIn * BigInt(launch.totalSupply)) / tokensOut).toString())})`
      : ''
  const reasons = Object.entries(b.excludedCounts) as Array<[BatchExclusionReason, number]>
  const leftOut = reasons.reduce((sum, [, n]) => sum + n, 0)
  const summary = leftOut === 0 ? [] : [`  left out ${leftOut}: ${reasons.map(([reason, n]) => `${n} ${EXCLUSION_WORDS[reason]}`).join(', ')}`]
  const skipped = b.skipped > 0 ? ` · ${b.skipped} skipped by the chain` : ''
  const released = b.state === 'released' && b.releaseReason ? ` · ${b.releaseReason}` : ''
  const head = `${where} · ${b.buyers} buyer${b.buyers === 1 ? '' : 's'} · ${usdAtoms(b.totalInAtoms)} spent${price}${skipped}${released}`
  const named = b.excluded
    .slice(0, LEFT_OUT_SHOWN)
    .map((e) => `    ${shortKey(e.keyId)} ${usdAtoms(e.spendAtoms)} (rank ${e.rank}): ${EXCLUSION_WORDS[e.reason]}`)
  const more = leftOut > named.length ? [`    … and ${leftOut - named.length} more`] : []
  return [head, ...summary, ...named, ...more].map(terminalSafeLine)
}

/** A key id, shortened for a line. */
const shortKey = (keyId: string) => (keyId.length <= 14 ? keyId : `${keyId.slice(0, 12)}…`)

/** A price per token: three significant digits however small (a fresh token may cost a millionth of a cent). */
const usdPrice = (value: number): string =>
  value >= 1 ? usd(value) : `$${value.toLocaleString('en-US', { maximumSignificantDigits: 3, maximumFractionDigits: 20 })}`

function orderCounts(orders: readonly OrderBrief[], activeGroup: (order: OrderBrief) => OrderCount['label']): OrderCount[] {
  const totals = new Map<OrderCount['label'], { count: number; spend: number }>(ORDER_GROUPS.map((g) => [g, { count: 0, spend: 0 }]))
  for (const order of orders) {
    const group = order.status === 'active' ? activeGroup(order) : order.status === 'deleted' ? undefined : order.status
    if (group === undefined) continue
    const total = totals.get(group)!
    total.count++
    total.spend += Number(order.status === 'filled' && order.spentUsdc !== undefined ? order.spentUsdc : order.maxSpendUsdc)
  }
  return ORDER_GROUPS.map((label) => ({ label, count: totals.get(label)!.count, spend: usd(totals.get(label)!.spend) }))
}

function waitingRow(slug: string, chain: string, launchpad: string, method: string, orders: readonly OrderBrief[]): WaitingRow {
  const active = orders.filter((o) => o.status === 'active')
  const limits = active
    .map((o) => o.maxFdvUsdc)
    .filter((v): v is string => v !== null)
    .map(Number)
  const unlimited = active.length - limits.length
  const range = limits.length === 0 ? '' : `${usdDecimal(String(Math.min(...limits)))}–${usdDecimal(String(Math.max(...limits)))}`
  return {
    slug,
    chain,
    launchpad,
    method,
    orders: active.length,
    spend: usd(active.reduce((sum, o) => sum + Number(o.maxSpendUsdc), 0)),
    limits: [range, unlimited > 0 ? `${unlimited} without limit` : ''].filter(Boolean).join(', ') || '-',
  }
}

const blocks = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(1)} block${n === 1 ? '' : 's'}`
const seconds = (n: number) => `${n.toFixed(1)} s`

function actionLine(action: ActionEntry): string {
  const block = action.blockNumber === null ? '' : `block ${action.blockNumber} `
  const tx = action.txHash === null ? '' : ` tx ${shortHex(action.txHash)}`
  const buys = `${action.count} buy${action.count === 1 ? '' : 's'}`
  switch (action.kind) {
    case 'sent':
      return `${block}sent ${buys}`
    case 'mined':
      return `${block}mined ${buys}${tx}`
    case 'reverted':
      return `${block}reverted ${buys}${tx}${action.detail ? ` (${action.detail})` : ''}`
    case 'expired':
      return `expired ${action.count} order${action.count === 1 ? '' : 's'}`
  }
}

/** The dashboard as plain lines: the non-TTY form and what the README's capture shows. */
export function watchText(view: WatchView, options: { all?: boolean } = {}): string[] {
  const lines = [`${view.title} · ${view.connection.text}`]
  if (view.empty) lines.push('', view.empty)
  view.launched.forEach((panel, i) => {
    lines.push('')
    if (i !== view.selected && !options.all) {
      lines.push(`${panel.heading} · block ${panel.block} · cap ${panel.effectiveCap} · filled ${panel.orders[3]!.count}`)
      return
    }
    lines.push(panel.heading)
    lines.push(
      `  block ${panel.block} · spot FDV ${panel.spotFdv} · fee now ${panel.feeNow} · next block ${panel.feeNext} · effective cap ${panel.effectiveCap}${panel.swapsAllowed ? '' : ' · swaps not allowed yet'}`,
    )
    if (panel.sparkline) lines.push(`  cap since launch ${panel.sparkline}`)
    lines.push(`  orders  ${panel.orders.map((o) => `${o.label} ${o.count}${o.count > 0 ? ` (${o.spend})` : ''}`).join(' · ')}`)
    lines.push(`  latency ${panel.latency}`)
    for (const swap of panel.swaps) lines.push(`  ${swap}`)
    for (const batch of panel.batches) lines.push(`  ${batch}`)
    for (const action of panel.actions) lines.push(`  ${action}`)
  })
  if (view.candidates.length > 0) {
    lines.push('', 'Launch candidates held back')
    for (const c of view.candidates) lines.push(`  ${c.slug} · ${c.status} · token ${c.token} · ${c.reason}`)
  }
  if (view.waiting.length > 0) {
    lines.push('', 'Waiting to launch')
    for (const w of view.waiting) lines.push(`  ${w.slug} · ${w.chain} · ${w.launchpad} · ${w.method} · ${w.orders} orders · ${w.spend} · limits ${w.limits}`)
  }
  return lines
}
