import { getAddress, parseEventLogs, type Address, type Hash, type Hex } from 'viem'
import type { ChainConfig, ChainKey } from '../../../chain/chain-keys.ts'
import type { Logger } from '../../../common/logger.ts'
import { formatDecimal } from '../../../domain/decimal.ts'
import { USDC_DECIMALS } from '../../../domain/order-bounds.ts'
import type { OrderRecord, OtcOffer, OtcSettlementState, ProjectRecord } from '../../../domain/records.ts'
import { createJournal } from '../../../journal/journal.ts'
import type { OtcChain } from '../chain/otc-chain.ts'
import { recordedOtcTerms } from '../domain/otc-terms.ts'
import { OTC_SETTLEMENT_ABI, otcOfferKey } from '../chain/otc-settlement-contract.ts'
import { positionsCreated } from '../../vesting/chain/positions-created.ts'
import { settleOffer, type SettleOfferOutcome } from '../chain/settle-offer.ts'
import type { Services } from '../../../services/services.ts'
import type { Store } from '../../../store/open-store.ts'
import type { WalletService } from '../../../wallets/wallet-service.ts'
import { createPollingWorker, type PollingWorker } from '../../../../daemon/workers/polling-worker.ts'
import { createPooledOrders, type PooledOrderMove } from '../../worker/pooled-orders.ts'

/** The offer record changed between the round's read and its first write (cancelled, replaced, deposited again). */
class OfferChanged extends Error {}

export interface OtcWorkerDeps {
  store: Store
  services: Services
  wallets: WalletService
  chains: Record<ChainKey, ChainConfig>
  otcChain: OtcChain
  logger: Logger
  now?: () => number
  /** How often due offers are looked for (default 2 s). */
  intervalMs?: number
  /** Pause after a failed attempt before the next one (default 30 s). */
  retryMs?: number
  /** The settlement itself (default settleOffer); replaced by tests of the worker's bookkeeping. */
  settle?: typeof settleOffer
}

/**
 * Settles the pooled OTC offers that are due: deposited, past their settlement time, not settled. For one offer:
 * its live orders move to `executing` together with the offer's `settling` state (one batch, under the orders' locks,
 * so a PATCH or DELETE in between is refused rather than paid for), then settleOffer plans from the wallets' balances
 * and sends the one settlement transaction; what it did is read back from the chain (the contract's BuyerFilled logs),
 * the filled orders recorded with their execution and the others returned to `active`. A crash in between leaves
 * `settling`: the next round settles again, and the contract (an offer settles once) answers `closed` with the
 * settling transaction, whose logs are applied the same way. Nothing is ever paid twice.
 */
export function createOtcSettlementWorker(deps: OtcWorkerDeps): PollingWorker {
  const { store, services, wallets, otcChain } = deps
  const log = deps.logger.child({ component: 'otc' })
  const now = deps.now ?? Date.now
  const intervalMs = deps.intervalMs ?? 2_000
  const retryMs = deps.retryMs ?? 30_000

  const pooled = createPooledOrders({ store, journal: createJournal(store), now })
  /** Writes the offer's settlement state and moves orders, in one batch, under the project and order locks. */
  const record = (slug: string, settlement: OtcSettlementState | null, moves: readonly PooledOrderMove[]) =>
    pooled.record(slug, (project) => ({ ...project, otc: { ...project.otc!, settlement } }), moves)

  /**
   * The fills a settling transaction made (BuyerFilled logs), by wallet, and its totals (OfferSettled); for a locked
   * offer, each wallet's vesting position (the vesting contract's PositionCreated logs in the same transaction).
   */
  async function readSettlement(chain: ChainKey, txHash: Hash) {
    const receipt = await otcChain.client(chain).getTransactionReceipt({ hash: txHash })
    const settlement = otcChain.settlement(chain)
    const vesting = otcChain.vesting(chain)
    const fills = new Map<string, { spend: bigint; tokens: bigint; fee: bigint }>()
    const positions = positionsCreated(chain, receipt.logs, vesting)
    let totals: { sold: bigint; unsold: bigint; proceeds: bigint } | undefined
    // Only our own contracts' logs count (a token could emit look-alike events).
    const ours = (address: Address, contract: Address | null) => contract !== null && getAddress(address) === getAddress(contract)
    for (const entry of parseEventLogs({ abi: OTC_SETTLEMENT_ABI, logs: receipt.logs.filter((l) => ours(l.address, settlement)) })) {
      const args = entry.args as Record<string, unknown>
      if (entry.eventName === 'BuyerFilled') {
        fills.set(getAddress(args.wallet as Address), { spend: args.spend as bigint, tokens: args.tokens as bigint, fee: args.fee as bigint })
      } else if (entry.eventName === 'OfferSettled') {
        totals = { sold: args.sold as bigint, unsold: args.unsold as bigint, proceeds: args.proceeds as bigint }
      }
    }
    return { fills, positions, totals, blockNumber: receipt.blockNumber }
  }

  async function applySettled(project: ProjectRecord, executing: readonly OrderRecord[], txHash: Hash) {
    const { fills, positions, totals, blockNumber } = await readSettlement(project.chain, txHash)
    const at = now()
    const moves = []
    let filledOrders = 0
    for (const order of executing) {
      const key = await store.sub.keys.get(order.keyId)
      const wallet = key ? getAddress(key.walletAddress as Address) : undefined
      const fill = wallet ? fills.get(wallet) : undefined
      const vesting = wallet ? positions.get(wallet) : undefined
      if (!fill) {
        moves.push({ order, to: 'active' as const, reason: 'not part of the OTC settlement (limit below the OTC FDV, or nothing to spend)' })
        continue
      }
      filledOrders += 1
      moves.push({
        order,
        to: 'filled' as const,
        reason: 'OTC settlement',
        txHash,
        patch: {
          execution: {
            spentUsdc: formatDecimal(fill.spend, USDC_DECIMALS),
            tokensReceived: (fill.tokens - fill.fee).toString(),
            feeTokens: fill.fee.toString(),
            txHash,
            executedAt: at,
            ...(vesting ? { vesting } : {}),
          },
        },
      })
    }
    await record(
      project.slug,
      {
        status: 'settled',
        txHash,
        blockNumber: blockNumber.toString(),
        sold: (totals?.sold ?? 0n).toString(),
        unsold: (totals?.unsold ?? 0n).toString(),
        proceedsAtoms: (totals?.proceeds ?? 0n).toString(),
        filledOrders,
        at,
      },
      moves,
    )
    log.info({ slug: project.slug, txHash, filledOrders }, 'OTC offer settled')
  }

  async function settle(project: ProjectRecord, offer: OtcOffer) {
    // The contract refuses before its settlement time on the chain's clock: nothing is moved until that clock says so.
    if ((await otcChain.now(project.chain)) < BigInt(Math.ceil(offer.settleAt / 1000))) return
    const wasSettling = offer.settlement?.status === 'settling'
    const settlingTx = offer.settlement?.status === 'settling' ? offer.settlement.txHash : undefined
    // Orders left executing by an interrupted settlement are this offer's; otherwise only active orders take part.
    const orders = await services.projects.ordersOfProject(project.slug, wasSettling ? ['active', 'executing'] : ['active'])
    const active = orders.filter((o) => o.status === 'active')
    // The first write is made only on the offer the round read: the round reads every project first and settles them
    // one after another (seconds to minutes each), and meanwhile the owner may cancel this offer and set a new one.
    // Written onto the new offer, `settling` would move the orders for it and this settlement (the old offer's terms,
    // answered `closed`) would then mark the new offer cancelled. Once `settling`, the API refuses to cancel or replace
    // it (otc-service.ts), so the later writes need no such check. The dev-buy worker guards its first write alike.
    try {
      await pooled.record(
        project.slug,
        (current) => {
          if (JSON.stringify(current.otc) !== JSON.stringify(offer)) throw new OfferChanged()
          // An earlier attempt's transaction stays recorded until this one sends its own.
          return { ...current, otc: { ...current.otc!, settlement: { status: 'settling', since: now(), ...(settlingTx ? { txHash: settlingTx } : {}) } } }
        },
        active.map((order) => ({ order, to: 'executing' as const, reason: 'OTC settlement' })),
      )
    } catch (error) {
      if (!(error instanceof OfferChanged)) throw error
      log.info({ slug: project.slug, offerId: offer.offerId }, 'the OTC offer changed since this round read it: left to the next round')
      return
    }
    const executing = (await services.projects.ordersOfProject(project.slug, ['executing'])).filter((o) => orders.some((x) => x.keyId === o.keyId))
    // The wallet that deposited (records before v3: the owner key's): the offer settled is the one under its key, at
    // the recorded terms, or none (settleOffer compares every field first; the contract checks them again).
    const ownerKey = project.ownerKeyId === null ? undefined : await store.sub.keys.get(project.ownerKeyId)
    const depositor = offer.deposit?.project ?? ownerKey?.walletAddress
    if (!depositor) throw new Error(`OTC offer of ${project.slug} has no depositing wallet on record and no owner key`)
    const terms = recordedOtcTerms(offer, getAddress(depositor))
    const input = {
      chain: deps.chains[project.chain],
      contract: otcChain.settlement(project.chain)!,
      offerId: offer.offerId as Hex,
      terms,
      buyers: await pooled.buyersOf(executing),
      ...(offer.deposit?.blockNumber ? { depositBlock: BigInt(offer.deposit.blockNumber) } : {}),
      ...(settlingTx ? { settlingTx: settlingTx as Hash } : {}),
      // The hash is recorded before the receipt is awaited: a crash then leaves a transaction to look up.
      onSent: (txHash: Hash) => record(project.slug, { status: 'settling', since: now(), txHash }, []),
    }
    const run = () => (deps.settle ?? settleOffer)({ wallets, client: otcChain.client(project.chain) }, input)
    let outcome: SettleOfferOutcome = await run()
    // A revert here may mean an earlier attempt's transaction (sent, not mined in time) settled the offer meanwhile:
    // asked again, the contract answers `closed` with that transaction, and its fills are recorded, not retried.
    if (
      (outcome.status === 'reverted' || outcome.status === 'refused') &&
      (await otcChain.readOffer(project.chain, otcOfferKey(terms.project as Address, offer.offerId as Hex))).closed
    ) {
      outcome = await run()
    }
    const backToActive = (reason: string) => executing.map((order) => ({ order, to: 'active' as const, reason }))
    switch (outcome.status) {
      case 'settled':
        return applySettled(project, executing, outcome.txHash)
      case 'closed':
        if (outcome.settledIn) return applySettled(project, executing, outcome.settledIn)
        log.warn({ slug: project.slug }, 'OTC offer cancelled on chain by the project')
        return record(project.slug, { status: 'cancelled', at: now() }, backToActive('the OTC offer was cancelled'))
      case 'not_mined':
        // Still `settling`: the next round settles again, and the contract tells whether this one landed.
        log.warn({ slug: project.slug, txHash: outcome.txHash, pending: outcome.pending }, 'OTC settlement not mined yet')
        return
      case 'too_early':
        return record(project.slug, null, backToActive('the chain has not reached the settlement time'))
      case 'mismatch': {
        // Not the offer the buyers were shown: never settled, and the deposit no longer counts (the owner's next deposit
        // takes it back and moves the offer to a fresh id, with this reason on the record).
        const reason = `${outcome.reason}; nothing settled, deposit again`
        const attempts = (offer.settlement?.status === 'retrying' ? offer.settlement.attempts : 0) + 1
        log.warn({ slug: project.slug, offerId: offer.offerId, fields: outcome.fields, reason }, 'OTC offer on chain differs from the record: not settled')
        return pooled.record(
          project.slug,
          (current) => ({ ...current, otc: { ...current.otc!, deposit: null, settlement: { status: 'retrying', reason, attempts, since: now() } } }),
          backToActive(reason),
        )
      }
      default: {
        const reason =
          outcome.status === 'refused'
            ? `the settlement would revert: ${outcome.revert.message}`
            : outcome.status === 'reverted'
              ? `the settlement reverted in ${outcome.txHash}`
              : outcome.status === 'not_sent' || outcome.status === 'over_gas_cap'
                ? outcome.reason
                : // A deposit recorded before the v3 contract (offers keyed by their depositor) is on the earlier one.
                  'no offer under the depositing wallet on this settlement contract (a deposit made before v3 is on the earlier contract: cancel the offer and deposit again)'
        const attempts = (offer.settlement?.status === 'retrying' ? offer.settlement.attempts : 0) + 1
        log.warn({ slug: project.slug, reason, attempts }, 'OTC settlement failed; nothing moved, retried later')
        return record(project.slug, { status: 'retrying', reason, attempts, since: now() }, backToActive(reason))
      }
    }
  }

  const due = (offer: OtcOffer | undefined): offer is OtcOffer => {
    if (!offer?.deposit || now() < offer.settleAt) return false
    const s = offer.settlement
    if (s === null || s.status === 'settling') return true
    return s.status === 'retrying' && now() >= s.since + retryMs
  }

  async function round(stopping: () => boolean): Promise<void> {
    const projects = await services.projects.listAllProjects()
    for (const project of projects) {
      if (stopping()) return
      if (project.launchMethod !== 'pooled_otc' || !due(project.otc) || !otcChain.settlement(project.chain)) continue
      try {
        await settle(project, project.otc)
      } catch (error) {
        log.error({ err: error, slug: project.slug }, 'OTC settlement round failed; retried on the next round')
      }
    }
  }

  return createPollingWorker({ name: 'otc settlement', intervalMs, log }, round)
}
