import type { OrderStatus, ProjectRecord, ReviewItem } from '../domain/records.ts'
import type { OrderVerdict } from '../domain/execution/verdicts.ts'
import type { CandidateRecord, LaunchRecord, OrderEvent, PriceTick } from '../journal/journal-records.ts'
import type { BatchState } from '../journal/batch-records.ts'
import type { BatchExclusionReason } from '../domain/batch/clear-batch.ts'

/**
 * The admin event stream (`GET /admin/v1/events`, server-sent events, operator token): what the indexer and the
 * executor commit, as they commit it (daemon/events/console-feed.ts reads every store batch), for the operator console.
 * Each message's `id` is `<boot>-<seq>`: a client reconnecting with `Last-Event-ID` gets what it missed when the daemon
 * still holds it, else (a restart, or too far behind) a fresh `snapshot` that replaces everything it knew.
 */

/** What a stream carries: `launches` (the dashboard, optionally one project: `slug`) or `reviews` (the review queue). */
export const EVENT_SCOPES = ['launches', 'reviews'] as const
export type EventScope = (typeof EVENT_SCOPES)[number]

/** An order as the dashboard counts it. */
export interface OrderBrief {
  keyId: string
  slug: string
  status: OrderStatus
  maxSpendUsdc: string
  maxFdvUsdc: string | null
  updatedAt: number
  /** Filled or failed orders: what was spent and the transaction. */
  spentUsdc?: string
  txHash?: string
}

/**
 * The verdict of every active order in the latest recorded decision of a project. `partial`: a quiet tick's record of
 * what changed (src/domain/execution/decision-delta.ts): `verdicts` holds only the changed and new verdicts, `removed`
 * the orders no longer decided; apply it to the project's brief before it (src/console/watch/watch-state.ts).
 */
export interface DecisionBrief {
  slug: string
  blockNumber: string
  at: number
  verdicts: Record<string, OrderVerdict>
  partial?: true
  removed?: string[]
}

/**
 * One batch of a launch (one swap, one price per block) as the dashboard shows it: src/admin-api/batch-brief.ts
 * builds it from the journaled record at each write (journaled, sent, executed, swept, released).
 */
export interface BatchBrief {
  slug: string
  batchId: string
  sequence: number
  /** The tick's block it was cleared at (it lands in the next). */
  tickBlock: string
  state: BatchState
  /** The block it executed in and its transaction (null: not executed). */
  blockNumber: string | null
  txHash: string | null
  /** Buyers sent with it; of those, skipped by the chain (their pull failed). */
  buyers: number
  skipped: number
  /** Stablecoin atoms paid in: the chain's once executed, else what the included spend. */
  totalInAtoms: string
  /**
   * Token atoms the swap returned (before the fee): the chain's once executed, else the clearing's prediction. With the
   * launch's supply and decimals, the clearing price per token and as FDV follow (watch-view.ts).
   */
  tokensOut: string
  /** The lowest limit committed with it (stablecoin atoms of FDV); null: none. */
  lowestLimitFdv: string | null
  /** Left out by the clearing: how many per reason, and the first few in priority order (BATCH_EXCLUDED_SHOWN). */
  excludedCounts: Partial<Record<BatchExclusionReason, number>>
  excluded: Array<{ keyId: string; spendAtoms: string; rank: number; reason: BatchExclusionReason }>
  /** Why a released batch took nothing. */
  releaseReason: string | null
}

export interface LaunchesSnapshot {
  type: 'snapshot'
  scope: 'launches'
  at: number
  projects: ProjectRecord[]
  launches: LaunchRecord[]
  /** Per launched project, its latest ticks (oldest first, at most SNAPSHOT_TICKS). */
  ticks: PriceTick[]
  orders: OrderBrief[]
  decisions: DecisionBrief[]
  candidates: CandidateRecord[]
  /** The executor's order events (oldest first) of every order it moved: what latencies and the action log start from. */
  actions: OrderEvent[]
  /** Per launched project, its latest batches (oldest first, at most SNAPSHOT_BATCHES). Absent from older daemons. */
  batches?: BatchBrief[]
}

export interface ReviewsSnapshot {
  type: 'snapshot'
  scope: 'reviews'
  at: number
  /** Every review item (all kinds and statuses), newest first. */
  reviews: ReviewItem[]
}

export type ConsoleEvent =
  | LaunchesSnapshot
  | ReviewsSnapshot
  | { type: 'project'; project: ProjectRecord }
  | { type: 'launch'; launch: LaunchRecord }
  /** A reorg removed the launch's block: the project waits for its launch again. */
  | { type: 'launch_reverted'; slug: string }
  | { type: 'tick'; tick: PriceTick }
  | { type: 'decision'; decision: DecisionBrief }
  | { type: 'order'; order: OrderBrief }
  | { type: 'order_event'; event: OrderEvent }
  | { type: 'candidate'; candidate: CandidateRecord }
  | { type: 'batch'; batch: BatchBrief }
  | { type: 'review'; item: ReviewItem }

export const SNAPSHOT_TICKS = 240
/** Batches per launched project in a snapshot (what the dashboard keeps). */
export const SNAPSHOT_BATCHES = 20

/** The project an event is about (undefined: snapshots, reviews). */
export function eventSlug(event: ConsoleEvent): string | undefined {
  switch (event.type) {
    case 'project':
      return event.project.slug
    case 'launch':
      return event.launch.slug
    case 'launch_reverted':
      return event.slug
    case 'tick':
      return event.tick.slug
    case 'decision':
      return event.decision.slug
    case 'order':
      return event.order.slug
    case 'order_event':
      return event.event.slug
    case 'candidate':
      return event.candidate.slug
    case 'batch':
      return event.batch.slug
    default:
      return undefined
  }
}

/** Which stream scope an event belongs to. */
export const scopeOf = (event: ConsoleEvent): EventScope =>
  event.type === 'review' || (event.type === 'snapshot' && event.scope === 'reviews') ? 'reviews' : 'launches'
