import { PrebuyError } from '../common/errors.ts'
import { withoutLaunchSalt } from '../launch-methods/dev-buy/domain/dev-buy-view.ts'
import { formatDecimal, parseDecimal } from '../domain/decimal.ts'
import { USDC_DECIMALS } from '../domain/order-bounds.ts'
import { ORDER_STATUSES, type OrderRecord, type OrderStatus, type ProjectRecord } from '../domain/records.ts'
import type { Journal } from '../journal/journal.ts'
import type { CandidateRecord, LaunchRecord, PriceTick } from '../journal/journal-records.ts'
import type { Store } from '../store/open-store.ts'
import type { ProjectService } from './project-service.ts'
import { readAll } from '../store/paginate.ts'

/** Orders of one status: how many and their max spend (filled: what was spent), decimal USDC. */
export interface OrderTally {
  count: number
  spendUsdc: string
}

export type OrderTallies = Record<OrderStatus, OrderTally>

/** A launched project at a glance (`prebuy launches list`). */
export interface LaunchSummary {
  slug: string
  chain: LaunchRecord['chain']
  launchpad: LaunchRecord['launchpad']
  token: string
  symbol: string
  poolId: string
  blockNumber: string
  launchedAt: number
  latestTick: Pick<PriceTick, 'blockNumber' | 'fdvUsdAtoms' | 'effectiveCapAtoms' | 'totalFeeFraction' | 'swapsAllowed'> | null
  orders: OrderTallies
}

/** `prebuy launches show`: the summary, the launch record and the candidates that touched the project. */
export interface LaunchDetail {
  summary: LaunchSummary
  launch: LaunchRecord
  candidates: CandidateRecord[]
}

/** `prebuy projects show`. */
export interface OperatorProjectDetail {
  project: ProjectRecord
  orders: OrderTallies
  launch: LaunchSummary | null
}

/** An order with its key's label (`prebuy orders list`). */
export interface OperatorOrderView extends OrderRecord {
  label: string
}

export interface OperatorViewsService {
  ordersOfProject(slug: string): Promise<OperatorOrderView[]>
  ordersOfKey(keyId: string): Promise<OperatorOrderView[]>
  launches(): Promise<LaunchSummary[]>
  launch(slug: string): Promise<LaunchDetail>
  project(slug: string): Promise<OperatorProjectDetail>
}

/** Read-only views the operator's commands show: orders by project or key, launches, one project. */
export function createOperatorViewsService(deps: { store: Store; journal: Journal; projects: Pick<ProjectService, 'ordersOfProject'> }): OperatorViewsService {
  const { store, journal } = deps
  const mustGetProject = async (slug: string): Promise<ProjectRecord> => {
    const project = await store.sub.projects.get(slug)
    if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
    return project
  }
  const labelled = async (orders: OrderRecord[]): Promise<OperatorOrderView[]> => {
    const keys = await store.sub.keys.getMany([...new Set(orders.map((o) => o.keyId))])
    const labels = new Map(keys.filter((k) => k !== undefined).map((k) => [k!.id, k!.label]))
    return orders.map((o) => ({ ...o, label: labels.get(o.keyId) ?? o.keyId }))
  }
  const ordersOfProject = async (slug: string): Promise<OrderRecord[]> =>
    (await deps.projects.ordersOfProject(slug, ORDER_STATUSES)).sort((a, b) => a.createdAt - b.createdAt)
  const tallies = (orders: readonly OrderRecord[]): OrderTallies => {
    const atoms = Object.fromEntries(ORDER_STATUSES.map((s) => [s, { count: 0, atoms: 0n }])) as Record<OrderStatus, { count: number; atoms: bigint }>
    for (const order of orders) {
      const spend = order.status === 'filled' && order.execution ? order.execution.spentUsdc : order.maxSpendUsdc
      atoms[order.status].count++
      atoms[order.status].atoms += parseDecimal(spend, USDC_DECIMALS) ?? 0n
    }
    return Object.fromEntries(
      ORDER_STATUSES.map((s) => [s, { count: atoms[s].count, spendUsdc: formatDecimal(atoms[s].atoms, USDC_DECIMALS) }]),
    ) as OrderTallies
  }
  const summaryOf = async (launch: LaunchRecord): Promise<LaunchSummary> => {
    const [tick, orders] = await Promise.all([journal.latestTick(launch.slug), ordersOfProject(launch.slug)])
    return {
      slug: launch.slug,
      chain: launch.chain,
      launchpad: launch.launchpad,
      token: launch.token,
      symbol: launch.symbol,
      poolId: launch.poolId,
      blockNumber: launch.blockNumber,
      launchedAt: launch.launchedAt,
      latestTick: tick
        ? {
            blockNumber: tick.blockNumber,
            fdvUsdAtoms: tick.fdvUsdAtoms,
            effectiveCapAtoms: tick.effectiveCapAtoms,
            totalFeeFraction: tick.totalFeeFraction,
            swapsAllowed: tick.swapsAllowed,
          }
        : null,
      orders: tallies(orders),
    }
  }
  return {
    async ordersOfProject(slug) {
      await mustGetProject(slug)
      return labelled(await ordersOfProject(slug))
    },
    async ordersOfKey(keyId) {
      return labelled((await readAll(store.sub.orders, `${keyId}!`)).map((e) => e.value).sort((a, b) => a.createdAt - b.createdAt))
    },
    async launches() {
      const launches: LaunchRecord[] = []
      for await (const launch of journal.sub.launches.values()) launches.push(launch)
      launches.sort((a, b) => b.launchedAt - a.launchedAt)
      return Promise.all(launches.map(summaryOf))
    },
    async launch(slug) {
      await mustGetProject(slug)
      const launch = await journal.getLaunchBySlug(slug)
      if (!launch) throw new PrebuyError('not_launched', `Project ${slug} has not launched yet.`)
      const candidates = (await journal.candidates()).filter((c) => c.slug === slug)
      return { summary: await summaryOf(launch), launch, candidates }
    },
    async project(slug) {
      const project = await mustGetProject(slug)
      const launch = await journal.getLaunchBySlug(slug)
      return { project: withoutLaunchSalt(project), orders: tallies(await ordersOfProject(slug)), launch: launch ? await summaryOf(launch) : null }
    },
  }
}
