import { PrebuyError } from '../common/errors.ts'
import { formatDecimal, parseDecimal } from '../domain/decimal.ts'
import { demandSlices } from '../domain/launch-methods/demand-slices.ts'
import { settleOtc } from '../domain/launch-methods/otc-fill.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from '../domain/order-bounds.ts'
import type { LaunchMethod } from '../domain/records.ts'
import type { Store } from '../store/open-store.ts'
import type { WalletService } from '../wallets/wallet-service.ts'
import type { Clock } from './clock.ts'
import type { ProjectService } from './project-service.ts'

/** What a launch would do with the live order book and the wallets' balances now (docs/launch-methods.md). */
export interface LaunchSimulation {
  slug: string
  launchMethod: LaunchMethod
  generatedAt: string
  /** Open-market demand: one slice per price limit, each eligible once the effective market cap is at or below it. */
  demand: Array<{ maxFdvUsdc: string | null; orderCount: number; fundedSpendUsdc: string; eligibleFundedSpendUsdc: string }>
  /** A pooled OTC settlement run now on the project's offer; null without an offer (or for other methods). */
  otc: {
    fdvUsdc: string
    offeredTokens: string
    demandUsdc: string
    oversubscribed: boolean
    fillRatio: number
    soldTokens: string
    unsoldTokens: string
    fills: Array<{ keyId: string; spendUsdc: string; tokens: string; creditedTokens: string }>
    skipped: Array<{ keyId: string; reason: 'limit_below_otc' | 'no_balance' }>
  } | null
}

export type SimulationViewer = { keyId: string } | 'operator'

export interface LaunchSimulationService {
  /** The project's owner key (or the operator) sees what its launch would do now. */
  simulate(slug: string, viewer: SimulationViewer): Promise<LaunchSimulation>
}

export function createLaunchSimulationService(deps: { store: Store; wallets: WalletService; projects: ProjectService; clock: Clock }): LaunchSimulationService {
  const { store, wallets, projects, clock } = deps
  return {
    async simulate(slug, viewer) {
      const project = await projects.getProject(slug)
      if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
      if (viewer !== 'operator' && (project.ownerKeyId === null || project.ownerKeyId !== viewer.keyId)) {
        throw new PrebuyError('not_project_owner', 'Only the key that owns the project may simulate its launch.')
      }
      const orders = await projects.ordersOfProject(slug, ['active'])
      const keys = await Promise.all(orders.map((o) => store.sub.keys.get(o.keyId)))
      const userIndexes = keys.flatMap((k) => (k ? [k.userIndex] : []))
      const balances = userIndexes.length === 0 ? new Map<number, bigint>() : await wallets.stablecoinBalances(project.chain, userIndexes)
      const funded = orders.map((order, i) => ({
        id: order.keyId,
        maxSpend: parseDecimal(order.maxSpendUsdc, USDC_DECIMALS) ?? 0n,
        limitFdv: order.maxFdvUsdc === null ? null : (parseDecimal(order.maxFdvUsdc, FDV_DECIMALS) ?? 0n),
        balance: keys[i] ? (balances.get(keys[i]!.userIndex) ?? 0n) : 0n,
      }))
      const usdc = (atoms: bigint) => formatDecimal(atoms, USDC_DECIMALS)
      // Funded spend: what each wallet can pay now, min(cap, balance).
      const demand = demandSlices(funded.map((o) => ({ limitFdv: o.limitFdv, spend: o.maxSpend < o.balance ? o.maxSpend : o.balance }))).map((s) => ({
        maxFdvUsdc: s.limitFdv === null ? null : formatDecimal(s.limitFdv, FDV_DECIMALS),
        orderCount: s.orders,
        fundedSpendUsdc: usdc(s.spend),
        eligibleFundedSpendUsdc: usdc(s.eligibleSpend),
      }))
      let otc: LaunchSimulation['otc'] = null
      if (project.launchMethod === 'pooled_otc' && project.otc) {
        const offer = project.otc
        const tokens = (atoms: bigint) => formatDecimal(atoms, offer.tokenDecimals)
        const offered = BigInt(offer.tokenAmount)
        const plan = settleOtc({ fdv: parseDecimal(offer.fdvUsdc, FDV_DECIMALS)!, totalSupply: BigInt(offer.totalSupply), offered }, funded)
        otc = {
          fdvUsdc: offer.fdvUsdc,
          offeredTokens: tokens(offered),
          demandUsdc: usdc(plan.demand),
          oversubscribed: plan.oversubscribed,
          fillRatio: plan.fillRatio,
          soldTokens: tokens(offered - plan.unsold),
          unsoldTokens: tokens(plan.unsold),
          fills: plan.fills.map((f) => ({ keyId: f.id, spendUsdc: usdc(f.spend), tokens: tokens(f.tokens), creditedTokens: tokens(f.credited) })),
          skipped: plan.skipped.map((s) => ({ keyId: s.id, reason: s.reason })),
        }
      }
      return { slug, launchMethod: project.launchMethod, generatedAt: new Date(clock()).toISOString(), demand, otc }
    },
  }
}
