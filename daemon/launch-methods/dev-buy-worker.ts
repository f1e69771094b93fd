import { getAddress, type Address, type Hash, type Hex } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import { formatDecimal } from '../../src/domain/decimal.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import type { DevBuyLaunchRecord, DevBuyLaunchState, OrderRecord, ProjectRecord } from '../../src/domain/records.ts'
import { createJournal } from '../../src/journal/journal.ts'
import type { DevBuyChain } from '../../src/launch-methods/dev-buy/dev-buy-chain.ts'
import { type DevBuyResult, launchDevBuy, type LaunchDevBuyOutcome } from '../../src/launch-methods/dev-buy/launch-dev-buy.ts'
import type { Services } from '../../src/services/services.ts'
import type { Store } from '../../src/store/open-store.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { createPollingWorker, type PollingWorker } from '../workers/polling-worker.ts'
import { createPooledOrders, type PooledOrderMove } from './pooled-orders.ts'

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
  /** Pause after a failed attempt before the next one (default 30 s). */
  retryMs?: number
  /** The launch itself (default launchDevBuy); replaced by tests of the worker's bookkeeping. */
  launch?: typeof launchDevBuy
}

/**
 * Launches the dev_buy projects whose owner (or the operator) asked for it. For one project: its active orders move to
 * `executing` together with the launch's `launching` state (one batch, under the orders' locks: a PATCH or DELETE in
 * between is refused rather than paid for); launchDevBuy plans from the wallets' balances; the token it will deploy is
 * recorded as the project's expected token before anything is sent (so the indexer binds that launch and no other),
 * then the one launch transaction. What it did is read back from the chain (the coordinator's BuyerAllocated logs):
 * those orders become `filled`, the others return to `active` and buy on the open market under their limits once the
 * indexer sees the launch. A crash in between leaves `launching`: the next round asks the coordinator (a launch id
 * deploys once), which reports the launch, and its logs are applied the same way. Nothing is ever bought twice.
 */
export function createDevBuyWorker(deps: DevBuyWorkerDeps): PollingWorker {
  const { store, services, wallets, devBuyChain } = deps
  const log = deps.logger.child({ component: 'dev-buy' })
  const now = deps.now ?? Date.now
  const pooled = createPooledOrders({ store, journal: createJournal(store), now })
  const intervalMs = deps.intervalMs ?? 2_000
  const retryMs = deps.retryMs ?? 30_000

  /** The project's launch state written with the orders' moves; `patch` edits the rest of the launch record. */
  const record = (
    slug: string,
    state: DevBuyLaunchState | null,
    moves: readonly PooledOrderMove[],
    patch: Partial<DevBuyLaunchRecord> = {},
    project: Partial<ProjectRecord> = {},
  ) => pooled.record(slug, (p) => ({ ...p, ...project, devBuy: { ...p.devBuy!, ...patch, state } }), moves)

  async function applyLaunched(project: ProjectRecord, executing: readonly OrderRecord[], result: DevBuyResult) {
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
    const deployment = coordinator ? devBuyChain.deployment(project.chain, launch.params, coordinator, launch.launchId as Hex) : null
    if (!coordinator || !deployment) {
      log.warn({ slug: project.slug, chain: project.chain }, 'no dev-buy coordinator or Clanker setup on this chain: launch not attempted')
      return
    }
    const previous = launch.state?.status === 'launching' ? launch.state : undefined
    // Orders left executing by an interrupted launch are this launch's (those it recorded as its own: another executing
    // order is an open-market buy in flight, which is the executor's to settle); otherwise only active orders take part.
    const own = previous?.orderKeyIds ? new Set(previous.orderKeyIds) : undefined
    const orders = own
      ? (await services.projects.ordersOfProject(project.slug, ['executing'])).filter((o) => own.has(o.keyId))
      : await services.projects.ordersOfProject(project.slug, previous ? ['active', 'executing'] : ['active'])
    // The orders read now; once moved, exactly those executing (an order an API call changed in between was not moved).
    let orderKeyIds = orders.map((o) => o.keyId)
    const launching = (extra: { txHash?: string; token?: string } = {}): DevBuyLaunchState => ({
      status: 'launching',
      since: now(),
      ...(previous?.txHash ? { txHash: previous.txHash } : {}),
      ...(previous?.token ? { token: previous.token } : {}),
      orderKeyIds,
      ...extra,
    })
    await record(
      project.slug,
      launching(),
      orders.filter((o) => o.status === 'active').map((order) => ({ order, to: 'executing' as const, reason: 'dev-buy launch' })),
    )
    const executing = (await services.projects.ordersOfProject(project.slug, ['executing'])).filter((o) => orders.some((x) => x.keyId === o.keyId))
    // Recorded with the next write (the expected token, before anything is sent): only then can the indexer bind the
    // launch and the executor start open-market buys of other orders, so from then on the list is exact.
    orderKeyIds = executing.map((o) => o.keyId)
    let token: string | undefined = previous?.token
    const outcome: LaunchDevBuyOutcome = await (deps.launch ?? launchDevBuy)(
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
        // Before anything is sent: the token it will deploy becomes the project's expected token (only it binds).
        beforeSend: async (predicted) => {
          token = predicted
          await record(project.slug, launching({ token: predicted }), [], {}, { expectedTokenAddress: getAddress(predicted) })
        },
        // The hash is recorded before the receipt is awaited: a crash then leaves a transaction to look up.
        onSent: (txHash) => record(project.slug, launching({ txHash, ...(token ? { token } : {}) }), []),
      },
    )
    const backToActive = (reason: string): PooledOrderMove[] => executing.map((order) => ({ order, to: 'active', reason }))
    switch (outcome.status) {
      case 'launched':
        return applyLaunched(project, executing, outcome.result)
      case 'already_launched':
        if (outcome.result) return applyLaunched(project, executing, outcome.result)
        // Launched, but its log is out of this node's reach: left `launching` for the operator; nothing is retried.
        log.error({ slug: project.slug, token: outcome.token }, 'dev buy launched on chain but its log was not found; orders left executing')
        return
      case 'not_mined':
        log.warn({ slug: project.slug, txHash: outcome.txHash, pending: outcome.pending }, 'dev-buy launch not mined yet')
        return
      case 'nothing_to_buy': {
        const reasons = [...new Set(outcome.plan.excluded.map((e) => e.reason))].join(', ') || 'no orders'
        const reason = `no order can take part in the dev buy (${reasons}); nothing was launched`
        log.warn({ slug: project.slug, reason }, 'dev buy not launched')
        return record(project.slug, { status: 'not_launched', reason, at: now() }, backToActive(reason), { requestedAt: null })
      }
      default: {
        const reason =
          outcome.status === 'refused'
            ? `the launch would revert: ${outcome.revert.message}`
            : outcome.status === 'reverted'
              ? `the launch reverted in ${outcome.txHash}`
              : outcome.reason
        const attempts = (launch.state?.status === 'retrying' ? launch.state.attempts : 0) + 1
        log.warn({ slug: project.slug, reason, attempts }, 'dev-buy launch failed; nothing moved, retried later')
        return record(project.slug, { status: 'retrying', reason, attempts, since: now() }, backToActive(reason))
      }
    }
  }

  const due = (launch: DevBuyLaunchRecord | undefined): launch is DevBuyLaunchRecord => {
    if (!launch || launch.requestedAt === null) return false
    const s = launch.state
    if (s === null || s.status === 'launching') return true
    return s.status === 'retrying' && now() >= s.since + retryMs
  }

  async function round(stopping: () => boolean): Promise<void> {
    const projects = await services.projects.listAllProjects()
    for (const project of projects) {
      if (stopping()) return
      if (project.launchMethod !== 'dev_buy' || !due(project.devBuy)) continue
      try {
        await launchOne(project, project.devBuy)
      } catch (error) {
        log.error({ err: error, slug: project.slug }, 'dev-buy launch round failed; retried on the next round')
      }
    }
  }

  return createPollingWorker({ name: 'dev-buy launch', intervalMs, log }, round)
}
