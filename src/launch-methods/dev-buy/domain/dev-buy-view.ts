import { formatEther } from 'viem'
import { formatDecimal } from '../../../domain/decimal.ts'
import { USDC_DECIMALS } from '../../../domain/order-bounds.ts'
import type { DevBuyLaunchRecord, ProjectRecord } from '../../../domain/records.ts'

/** Decimals of a Clanker token (all of them: clanker-devco/v4-contracts `ClankerToken`, an 18-decimal ERC-20). */
const CLANKER_DECIMALS = 18

/** A project's dev-buy launch as the API shows it (GET /projects/{slug}, the owner endpoints): amounts in units. */
export interface DevBuyLaunchView {
  launchId: string
  name: string
  symbol: string
  image: string
  metadata: string
  tokenAdmin: string
  /** Lock and vesting of the buyers' shares after the launch block, seconds (both 0: none). */
  lockSeconds: number
  vestingSeconds: number
  /** The launchpad settings the owner chose; null: the chain's defaults. */
  pool: { startingTick: number; positions: Array<{ tickLower: number; tickUpper: number; bps: number }>; lpFeeBps: number } | null
  requestedAt: string | null
  state: DevBuyStateView | null
}

export interface DevBuyStateView {
  status: 'launching' | 'launched' | 'retrying' | 'not_launched'
  /** The token deployed (launched), or the one the launch will deploy once predicted (launching). */
  tokenAddress: string | null
  txHash: string | null
  spentUsdc: string | null
  ethIn: string | null
  boughtTokens: string | null
  feeTokens: string | null
  filledOrders: number | null
  /** Why the last attempt moved nothing (retrying, not_launched), or why a launching round failed (it is looked at again). */
  reason: string | null
  at: string
}

export function devBuyLaunchView(launch: DevBuyLaunchRecord): DevBuyLaunchView {
  const s = launch.state
  const none = { tokenAddress: null, txHash: null, spentUsdc: null, ethIn: null, boughtTokens: null, feeTokens: null, filledOrders: null, reason: null }
  const tokens = (atoms: string) => formatDecimal(BigInt(atoms), CLANKER_DECIMALS)
  const state: DevBuyStateView | null =
    s === null
      ? null
      : s.status === 'launched'
        ? {
            status: 'launched',
            tokenAddress: s.token,
            txHash: s.txHash,
            spentUsdc: formatDecimal(BigInt(s.stableInAtoms), USDC_DECIMALS),
            ethIn: formatEther(BigInt(s.ethInWei)),
            boughtTokens: tokens(s.bought),
            feeTokens: tokens(s.fee),
            filledOrders: s.filledOrders,
            reason: null,
            at: new Date(s.at).toISOString(),
          }
        : s.status === 'launching'
          ? {
              ...none,
              status: 'launching',
              tokenAddress: s.token ?? null,
              txHash: s.txHash ?? null,
              reason: s.lastError ?? null,
              at: new Date(s.since).toISOString(),
            }
          : s.status === 'retrying'
            ? { ...none, status: 'retrying', reason: s.reason, at: new Date(s.since).toISOString() }
            : { ...none, status: 'not_launched', reason: s.reason, at: new Date(s.at).toISOString() }
  return {
    launchId: launch.launchId,
    name: launch.params.name,
    symbol: launch.params.symbol,
    image: launch.params.image,
    metadata: launch.params.metadata,
    tokenAdmin: launch.params.tokenAdmin,
    lockSeconds: launch.params.lock.lockSeconds,
    vestingSeconds: launch.params.lock.vestingSeconds,
    pool: launch.params.pool
      ? { startingTick: launch.params.pool.startingTick, positions: launch.params.pool.positions, lpFeeBps: launch.params.pool.lpFeePips / 100 }
      : null,
    requestedAt: launch.requestedAt === null ? null : new Date(launch.requestedAt).toISOString(),
    state,
  }
}

/**
 * A project record as the operator's raw views show it (`prebuy projects show|list --json`): a launching dev buy's salt
 * left out. It is secret until the launch transaction reveals it (src/launch-methods/dev-buy/chain/launch-salt.ts), and the
 * JSON of an operator's command is the kind of thing that gets pasted elsewhere.
 */
export function withoutLaunchSalt(project: ProjectRecord): ProjectRecord {
  const state = project.devBuy?.state
  if (state?.status !== 'launching' || state.salt === undefined) return project
  const { salt: _secret, ...rest } = state
  return { ...project, devBuy: { ...project.devBuy!, state: rest } }
}
