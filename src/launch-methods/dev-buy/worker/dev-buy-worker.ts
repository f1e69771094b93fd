import { getAddress, type Address, type Hash, type Hex } from 'viem'
import type { ChainConfig, ChainKey } from '../../../chain/chain-keys.ts'
import { bounded, errorSummary } from '../../../common/error-summary.ts'
import { createLogBudget } from '../../../common/log-budget.ts'
import type { Logger } from '../../../common/logger.ts'
import { formatDecimal } from '../../../domain/decimal.ts'
import { USDC_DECIMALS } from '../../../domain/order-bounds.ts'
import type { DevBuyLaunchRecord, DevBuyLaunchState, OrderRecord, ProjectRecord } from '../../../domain/records.ts'
import { createJournal } from '../../../journal/journal.ts'
import type { DevBuyChain } from '../chain/dev-buy-chain.ts'
import { type DevBuyLaunched, launchDevBuy, type LaunchDevBuyOutcome } from '../chain/launch-dev-buy.ts'
import { newLaunchSalt } from '../chain/launch-salt.ts'
import type { Services } from '../../../services/services.ts'
import type { Store } from '../../../store/open-store.ts'
import type { WalletService } from '../../../wallets/wallet-service.ts'
import { createPollingWorker, type PollingWorker } from '../../../../daemon/workers/polling-worker.ts'
import { createPooledOrders, type PooledOrderMove } from '../../worker/pooled-orders.ts'

export interface DevBuyWorkerDeps {
  store: Store
  services: Services
  wallets: WalletService
  chains: Record<ChainKey, ChainConfig>
  devBuyChain: DevBuyChain
  logger: Logger
  now?: () => number
  /** How often requested launches are looked for (default 2 s). */
  intervalMs?: number
  /** Pause after a failed attempt before the next one (default 30 s), doubled after each further failure, at most an hour. */
  retryMs?: number
  /** The launch itself (default launchDevBuy); replaced by tests of the worker's bookkeeping. */
  launch?: typeof launchDevBuy
  /** Each attempt's secret Clanker salt (default newLaunchSalt); replaced by tests. */
  newSalt?: () => Hex
  /** Lines this worker logs per minute at most; the others are counted in one line (default 20). */
  logPerMinute?: number
}

/** Attempts of one launch request before it is given up (not_launched; the owner or the operator may ask again). */
export const DEV_BUY_MAX_ATTEMPTS = 8
/** The longest pause between two attempts. */
const MAX_RETRY_MS = 60 * 60_000
/** Longest reason stored (and shown) for a failed attempt. */
const REASON_CHARS = 400

/** The launch record changed between the round's read and its first write (the owner edited it): this round stops. */
class LaunchChanged extends Error {}

/**
 * Launches the dev_buy projects whose owner (or the operator) asked for it. For one project: its active orders move to
 * `executing` together with the launch's `launching` state (one batch, under the orders' locks: a PATCH or DELETE in
 * between is refused rather than paid for); launchDevBuy plans from the wallets' balances; the token it will deploy is
 * recorded as the project's expected token before anything is sent (so the indexer binds that launch and no other),
 * then the one launch transaction. What it did is read back from the chain (the coordinator's BuyerAllocated logs):
 * those orders become `filled`, the others return to `active` and buy on the open market under their limits once the
 * indexer sees the launch. A crash in between leaves `launching`: the next round asks the coordinator (a launch id
 * deploys once), which reports the launch, and its logs are applied the same way. Nothing is ever bought twice.
 * Each attempt deploys with a new secret salt (launch-salt.ts), recorded before anything is sent. An attempt that
 * cannot proceed (it would revert, it reverted, its token's address was taken by someone else, or it failed before
 * sending) moves the orders back to `active` with the reason and is retried after a pause that doubles, then given up;
 * only a round failing while its transaction may still land keeps the orders executing (looked at again after a
 * pause). Lines are short and within a budget (log-budget.ts).
 */
export function createDevBuyWorker(deps: DevBuyWorkerDeps): PollingWorker {
  const { store, services, wallets, devBuyChain } = deps
  const log = deps.logger.child({ component: 'dev-buy' })
  const now = deps.now ?? Date.now
  const pooled = createPooledOrders({ store, journal: createJournal(store), now })
  const intervalMs = deps.intervalMs ?? 2_000
  const retryMs = deps.retryMs ?? 30_000
  const newSalt = deps.newSalt ?? newLaunchSalt
  /** The pause after the `failures`-th failure in a row: retryMs, doubled each time, at most an hour. */
  const pauseAfter = (failures: number): number => Math.min(retryMs * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS)
  // Worker lines within a budget, as requests are (src/common/log-budget.ts): a launch failing every round must not
  // fill the disk, and each line is short (errorSummary: never a viem error's whole request).
  const budget = createLogBudget({ perWindow: deps.logPerMinute ?? 20, windowMs: 60_000, now })
  const logBounded = (level: 'warn' | 'error', kind: string, fields: Record<string, unknown>, message: string) => {
    const { admitted, summary } = budget.take()
    if (summary) {
      log.warn(
        { notLogged: summary.requests, since: new Date(summary.since).toISOString(), until: new Date(summary.until).toISOString() },
        'dev-buy worker lines not logged (over the log budget)',
      )
    }
    if (admitted) log[level](fields, message)
    else budget.suppressed(kind)
  }

  /** The project's launch state written with the orders' moves; `patch` edits the rest of the launch record. */
  const record = (
    slug: string,
    state: DevBuyLaunchState | null,
    moves: readonly PooledOrderMove[],
    patch: Partial<DevBuyLaunchRecord> = {},
    project: Partial<ProjectRecord> = {},
  ) => pooled.record(slug, (p) => ({ ...p, ...project, devBuy: { ...p.devBuy!, ...patch, state } }), moves)

  async function applyLaunched(project: ProjectRecord, executing: readonly OrderRecord[], result: DevBuyLaunched) {
    const byWallet = new Map(result.fills.map((f) => [getAddress(f.wallet), f]))
    const at = now()
    const moves: PooledOrderMove[] = []
    for (const order of executing) {
      const key = await store.sub.keys.get(order.keyId)
      const fill = key ? byWallet.get(getAddress(key.walletAddress as Address)) : undefined
      if (!fill) {
        moves.push({ order, to: 'active', reason: 'not part of the dev buy (limit below its price, or nothing to spend): open-market rules apply' })
        continue
      }
      moves.push({
        order,
        to: 'filled',
        reason: 'dev buy',
        txHash: result.txHash,
        patch: {
          execution: {
            spentUsdc: formatDecimal(fill.spend, USDC_DECIMALS),
            tokensReceived: fill.tokens.toString(),
            // The fee is taken once on the whole buy; an order's part of it is its contribution's share, rounded down.
            feeTokens: ((result.fee * fill.spend) / result.stableIn).toString(),
            txHash: result.txHash,
            executedAt: at,
            ...(fill.vesting ? { vesting: fill.vesting } : {}),
          },
        },
      })
    }
    const filledOrders = moves.filter((m) => m.to === 'filled').length
    await record(
      project.slug,
      {
        status: 'launched',
        txHash: result.txHash,
        blockNumber: result.blockNumber.toString(),
        token: result.token,
        stableInAtoms: result.stableIn.toString(),
        ethInWei: result.ethIn.toString(),
        bought: result.bought.toString(),
        fee: result.fee.toString(),
        filledOrders,
        at,
      },
      moves,
      {},
      { expectedTokenAddress: getAddress(result.token) },
    )
    log.info({ slug: project.slug, token: result.token, txHash: result.txHash, filledOrders }, 'dev buy launched')
  }

  async function launchOne(project: ProjectRecord, launch: DevBuyLaunchRecord) {
    const coordinator = devBuyChain.coordinator(project.chain)
    if (!coordinator) {
      logBounded('warn', 'unavailable', { slug: project.slug, chain: project.chain }, 'no dev-buy coordinator on this chain: launch not attempted')
      return
    }
    const previous = launch.state?.status === 'launching' ? launch.state : undefined
    // A new attempt draws a new secret salt (launch-salt.ts); one resumed after a crash keeps its own (its transaction
    // may still land), and one a record from before salts left behind used the launch id.
    const salt = previous ? ((previous.salt ?? launch.launchId) as Hex) : newSalt()
    const attempt = previous ? (previous.attempt ?? 1) : launch.state?.status === 'retrying' ? launch.state.attempts + 1 : 1
    const deployment = devBuyChain.deployment(project.chain, launch.params, coordinator, salt)
    if (!deployment) {
      logBounded('warn', 'unavailable', { slug: project.slug, chain: project.chain }, 'no Clanker setup for dev buys on this chain: launch not attempted')
      return
    }
    // Orders left executing by an interrupted launch are this launch's (those it recorded as its own: another executing
    // order is an open-market buy in flight, which is the executor's to settle); otherwise only active orders take part.
    const own = previous?.orderKeyIds ? new Set(previous.orderKeyIds) : undefined
    const orders = own
      ? (await services.projects.ordersOfProject(project.slug, ['executing'])).filter((o) => own.has(o.keyId))
      : await services.projects.ordersOfProject(project.slug, previous ? ['active', 'executing'] : ['active'])
    // The orders read now; once moved, exactly those executing (an order an API call changed in between was not moved).
    let orderKeyIds = orders.map((o) => o.keyId)
    // This attempt's transaction (an earlier round's, or this round's once sent) and the token it deploys.
    let sentTx: string | undefined = previous?.txHash
    let token: string | undefined = previous?.token
    const launching = (extra: Partial<Extract<DevBuyLaunchState, { status: 'launching' }>> = {}): DevBuyLaunchState => ({
      status: 'launching',
      since: now(),
      ...(sentTx ? { txHash: sentTx } : {}),
      ...(token ? { token } : {}),
      salt,
      attempt,
      orderKeyIds,
      ...extra,
    })
    try {
      // The first write checks, under the project lock, that the launch is still the one read: the owner may have
      // changed the parameters of a retrying launch meanwhile (which withdraws its request).
      await pooled.record(
        project.slug,
        (p) => {
          const current = p.devBuy
          if (
            !current ||
            current.requestedAt !== launch.requestedAt ||
            current.state?.status !== launch.state?.status ||
            JSON.stringify(current.params) !== JSON.stringify(launch.params)
          ) {
            throw new LaunchChanged()
          }
          return { ...p, devBuy: { ...current, coordinator, state: launching() } }
        },
        orders.filter((o) => o.status === 'active').map((order) => ({ order, to: 'executing' as const, reason: 'dev-buy launch' })),
      )
    } catch (error) {
      if (error instanceof LaunchChanged) return
      throw error
    }
    const executing = (await services.projects.ordersOfProject(project.slug, ['executing'])).filter((o) => orders.some((x) => x.keyId === o.keyId))
    // Recorded with the next write (the expected token, before anything is sent): only then can the indexer bind the
    // launch and the executor start open-market buys of other orders, so from then on the list is exact.
    orderKeyIds = executing.map((o) => o.keyId)
    const backToActive = (reason: string): PooledOrderMove[] => executing.map((order) => ({ order, to: 'active', reason }))

    /** Nothing moved and nothing can land: the orders go back to active, the attempt is retried later or given up. */
    const failed = async (reason: string) => {
      const why = bounded(reason, REASON_CHARS)
      if (attempt >= DEV_BUY_MAX_ATTEMPTS) {
        const gaveUp = bounded(`gave up after ${attempt} attempts; the last: ${why}`, REASON_CHARS)
        logBounded('warn', 'failed', { slug: project.slug, reason: gaveUp, attempt }, 'dev-buy launch given up; nothing moved')
        return record(project.slug, { status: 'not_launched', reason: gaveUp, at: now() }, backToActive(gaveUp), { requestedAt: null })
      }
      logBounded('warn', 'failed', { slug: project.slug, reason: why, attempt }, 'dev-buy launch failed; nothing moved, retried later')
      return record(project.slug, { status: 'retrying', reason: why, attempts: attempt, since: now() }, backToActive(why))
    }
    /** A round failed while the attempt's transaction may still land: left launching, looked at again after a pause. */
    const stillLaunching = async (reason: string, level: 'warn' | 'error', message: string) => {
      const failures = (previous?.failures ?? 0) + 1
      const why = bounded(reason, REASON_CHARS)
      logBounded(level, 'launching', { slug: project.slug, reason: why, failures }, message)
      return record(project.slug, launching({ lastError: why, failures, nextAttemptAt: now() + pauseAfter(failures) }), [])
    }

    let outcome: LaunchDevBuyOutcome
    try {
      outcome = await (deps.launch ?? launchDevBuy)(
        { wallets, client: devBuyChain.client(project.chain) },
        {
          chain: deps.chains[project.chain],
          coordinator,
          launchId: launch.launchId as Hex,
          buyers: await pooled.buyersOf(executing),
          deployment,
          lock: launch.params.lock,
          vesting: devBuyChain.vesting(project.chain),
          ...(previous?.txHash ? { launchTx: previous.txHash as Hash } : {}),
          ...(previous?.token ? { expectedToken: previous.token as Address } : {}),
          // Before anything is sent: the token it will deploy becomes the project's expected token (it binds only as
          // deployed by the coordinator: judge-launch.ts).
          beforeSend: async (predicted) => {
            token = predicted
            await record(project.slug, launching(), [], {}, { expectedTokenAddress: getAddress(predicted) })
          },
          // The hash is recorded before the receipt is awaited: a crash then leaves a transaction to look up.
          onSent: (txHash) => {
            sentTx = txHash
            return record(project.slug, launching(), [])
          },
        },
      )
    } catch (error) {
      const reason = `the launch failed: ${errorSummary(error)}`
      // Once this attempt's transaction may be on its way, its orders stay executing whatever fails here.
      if (sentTx !== undefined) return stillLaunching(reason, 'warn', 'dev-buy launch round failed after its transaction was sent; looked at again later')
      return failed(reason)
    }
    switch (outcome.status) {
      case 'launched':
        return applyLaunched(project, executing, outcome.result)
      case 'already_launched':
        if (outcome.result) return applyLaunched(project, executing, outcome.result)
        // Launched, but its log is out of this node's reach: left `launching` for the operator; looked at again later.
        return stillLaunching(
          `launched ${outcome.token} on chain, but its log was not found`,
          'error',
          'dev buy launched on chain but its log was not found; orders left executing',
        )
      case 'not_mined':
        logBounded('warn', 'not_mined', { slug: project.slug, txHash: outcome.txHash, pending: outcome.pending }, 'dev-buy launch not mined yet')
        return
      case 'nothing_to_buy': {
        const reasons = [...new Set(outcome.plan.excluded.map((e) => e.reason))].join(', ') || 'no orders'
        const reason = `no order can take part in the dev buy (${reasons}); nothing was launched`
        logBounded('warn', 'not_launched', { slug: project.slug, reason }, 'dev buy not launched')
        return record(project.slug, { status: 'not_launched', reason, at: now() }, backToActive(reason), { requestedAt: null })
      }
      case 'squatted':
        // Safe to unwind even after sending: a launch cannot deploy at an address that has code, so it cannot land.
        return failed(
          `the token address ${getAddress(outcome.token)} was deployed by someone else first${outcome.txHash ? ` (the launch ${outcome.txHash} reverted)` : ''}; it is not this launch's and binds nothing; nothing moved, and the next attempt uses a new secret salt`,
        )
      case 'refused':
        return failed(`the launch would revert: ${outcome.revert.message}`)
      case 'reverted':
        return failed(`the launch reverted in ${outcome.txHash}`)
      case 'not_sent':
        return failed(outcome.reason)
    }
  }

  const due = (launch: DevBuyLaunchRecord | undefined): launch is DevBuyLaunchRecord => {
    if (!launch || launch.requestedAt === null) return false
    const s = launch.state
    if (s === null) return true
    if (s.status === 'launching') return s.nextAttemptAt === undefined || now() >= s.nextAttemptAt
    return s.status === 'retrying' && now() >= s.since + pauseAfter(s.attempts)
  }

  async function round(stopping: () => boolean): Promise<void> {
    const projects = await services.projects.listAllProjects()
    for (const project of projects) {
      if (stopping()) return
      if (project.launchMethod !== 'dev_buy' || !due(project.devBuy)) continue
      try {
        await launchOne(project, project.devBuy)
      } catch (error) {
        logBounded('error', 'round', { slug: project.slug, error: errorSummary(error) }, 'dev-buy launch round failed; retried on the next round')
      }
    }
  }

  return createPollingWorker({ name: 'dev-buy launch', intervalMs, log }, round)
}
