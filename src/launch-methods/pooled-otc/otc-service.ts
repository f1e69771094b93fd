import { encodeFunctionData, erc20Abi, getAddress, isAddressEqual, keccak256, toHex, type Address, type Hex } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import { formatDecimal, parseDecimal } from '../../domain/decimal.ts'
import { isLocked, validateLockTerms } from '../vesting/domain/lock-terms.ts'
import { describeOtcDifferences, type OtcTerms, otcTermsDifferences, recordedOtcTerms } from './domain/otc-terms.ts'
import { FDV_DECIMALS, MAX_FDV_USDC } from '../../domain/order-bounds.ts'
import type { OtcOffer, ProjectRecord } from '../../domain/records.ts'
import { type OwnerEditOutcome, pendingOf, summarize, termsInForce, withOperatorChange, withProposal } from '../../domain/owner-changes.ts'
import type { OtcChain } from './chain/otc-chain.ts'
import { OTC_SETTLEMENT_ABI, otcOfferKey } from './chain/otc-settlement-contract.ts'
import type { Store } from '../../store/open-store.ts'
import { projectWriteOps } from '../../store/project-writes.ts'
import type { WalletService } from '../../wallets/wallet-service.ts'
import type { Logger } from '../../common/logger.ts'
import type { Clock } from '../../services/clock.ts'
import { PROJECT_LOCK } from '../../services/project-service.ts'
import { type LaunchMethodActor, ownedProjectOfMethod } from '../owned-project-of-method.ts'

/** PATCH /projects/{slug}/otc: the offer's terms, as the owner sends them. */
export interface OtcOfferInput {
  /** The OTC price as an FDV, decimal USD. */
  fdvUsdc: string
  tokenAddress: string
  /** Tokens offered, decimal in token units ("1000000" or "2500.5"). */
  tokenAmount: string
  /** Earliest settlement, ISO 8601. */
  settleAt: string
  /** Lock and vesting of the buyers' tokens after the settlement block (absent: none). */
  lockSeconds?: number | undefined
  vestingSeconds?: number | undefined
}

/** Who acts on an offer: the project's owner key (public API), or the operator on its behalf (admin API, CLI). */
export type OtcActor = LaunchMethodActor

export interface OtcService {
  /**
   * Sets (or, until the deposit, replaces) the offer of a pooled_otc project. The operator's offer is in force at once;
   * the owner's is a change the operator confirms first, in force after the notice period if orders placed before it
   * are live (docs/owner-changes.md). Either is recorded in the project's change history when it takes effect.
   */
  setOffer(slug: string, actor: OtcActor, input: OtcOfferInput): Promise<OwnerEditOutcome>
  /**
   * The owner's wallet deposits the offered tokens into the settlement contract (approve + deposit, one wallet
   * operation; the proceeds are paid to that wallet at settlement). Idempotent: an offer already on chain is recorded.
   */
  deposit(slug: string, actor: OtcActor): Promise<ProjectRecord>
  /**
   * Withdraws the offer before it settles: a deposited one is cancelled on chain by the owner's wallet (the tokens go
   * back to it); one not deposited yet is simply dropped. Refused while a settlement runs and once settled. The
   * project may then set a new offer (with a new id). Orders are not touched.
   */
  cancel(slug: string, actor: OtcActor): Promise<ProjectRecord>
}

export interface OtcServiceDeps {
  store: Store
  wallets: WalletService
  now: Clock
  /** Absent: this daemon has no chain access for OTC (tests of other parts); every OTC call is refused. */
  chain?: OtcChain
  /** Where an offer id left for a fresh one is reported to the operator (absent: only recorded on the offer). */
  logger?: Logger
}

/** Longest token symbol kept from the token contract. */
const MAX_SYMBOL_LENGTH = 32

/**
 * The offer's id on the settlement contract, derived from the project's slug and the offer's number (the first offer
 * is 0; each offer after a cancelled one takes the next): an id closed on chain is never reused.
 */
export const otcOfferId = (slug: string, round = 0): Hex => keccak256(toHex(round === 0 ? `prebuy-otc:${slug}` : `prebuy-otc:${slug}:${round}`))

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

export function createOtcService({ store, wallets, now, chain, logger }: OtcServiceDeps): OtcService {
  const ownedOtcProject = (slug: string, actor: OtcActor): Promise<ProjectRecord> =>
    ownedProjectOfMethod(store, slug, actor, { launchMethod: 'pooled_otc', wrongMethod: 'not_otc_project', what: 'OTC offer' })
  const settlementOf = (project: ProjectRecord): Address => {
    const address = chain?.settlement(project.chain)
    if (!chain || !address) throw new PrebuyError('otc_unavailable', `This service has no OTC settlement contract on ${project.chain}.`)
    return address
  }
  const write = async (project: ProjectRecord, otc: OtcOffer): Promise<ProjectRecord> => {
    const next: ProjectRecord = { ...project, otc, updatedAt: now() }
    await store.batch(projectWriteOps(store, project, next))
    return next
  }

  /**
   * Records the deposit of `offer` at `terms` (deposited by `terms.project`), under the projects lock: only if the
   * record still holds the same offer with the same terms (they could have been replaced while the deposit was sent;
   * that deposit is then not this offer's, and the next deposit call replaces it under a fresh id).
   */
  const recordDeposit = (slug: string, offer: OtcOffer, terms: OtcTerms, txHash: string | null, blockNumber: bigint | null) =>
    store.mutex.run(PROJECT_LOCK, async () => {
      const current = (await store.sub.projects.get(slug))!
      const inForce = current.otc
      if (!inForce || inForce.offerId !== offer.offerId || otcTermsDifferences(recordedOtcTerms(inForce, terms.project), terms).length > 0) {
        throw new PrebuyError('otc_terms_changed', 'The offer changed while its deposit was sent: that deposit does not count. Deposit again.')
      }
      return write(current, {
        ...inForce,
        deposit: { txHash, blockNumber: blockNumber === null ? null : blockNumber.toString(), at: now(), project: terms.project },
      })
    })
  /** Moves the offer to the next id, keeping its terms, with the left id and the reason on the record. */
  const supersede = (slug: string, offer: OtcOffer, reason: string) =>
    store.mutex.run(PROJECT_LOCK, async () => {
      const current = (await store.sub.projects.get(slug))!
      const inForce = current.otc!
      const round = Math.max(inForce.round ?? 0, offer.round ?? 0) + 1
      return write(current, {
        ...inForce,
        offerId: otcOfferId(slug, round),
        round,
        deposit: null,
        settlement: null,
        superseded: [...(inForce.superseded ?? []), { offerId: offer.offerId, reason, at: now() }],
      })
    })
  /** The owner wallet takes back its own open offer `offerId` (the contract keys it by that wallet). */
  const cancelOnChain = async (project: ProjectRecord, userIndex: number, contract: Address, offerId: Hex) => {
    const [result] = await wallets.submitUserOperations(project.chain, [
      {
        id: `otc-cancel:${project.slug}`,
        userIndex,
        callGasLimit: 200_000n,
        calls: [{ to: contract, data: encodeFunctionData({ abi: OTC_SETTLEMENT_ABI, functionName: 'cancel', args: [offerId] }) }],
      },
    ])
    if (result?.status !== 'included') {
      const why = result && 'revert' in result ? result.revert.message : result && 'reason' in result ? result.reason : (result?.status ?? 'not sent')
      throw new PrebuyError('otc_cancel_failed', `The cancellation did not go through: ${why}. The offer stands.`)
    }
  }

  return {
    async setOffer(slug, actor, input) {
      // Checked and read first, outside the projects lock (a chain read may be slow); re-checked under it.
      const before = await ownedOtcProject(slug, actor)
      settlementOf(before)
      const fdv = parseDecimal(input.fdvUsdc, FDV_DECIMALS)
      if (fdv === undefined || fdv <= 0n || fdv > MAX_FDV_USDC * 10n ** BigInt(FDV_DECIMALS)) {
        throw new PrebuyError('invalid_otc_fdv', `fdvUsdc must be a positive decimal USD amount up to ${MAX_FDV_USDC}.`)
      }
      const lock = validateLockTerms(input)
      if (isLocked(lock) && !chain!.vesting(before.chain)) {
        throw new PrebuyError('otc_unavailable', `This service has no vesting contract on ${before.chain}: a locked offer could not settle there.`)
      }
      const settleAt = Date.parse(input.settleAt)
      if (!Number.isFinite(settleAt) || settleAt <= now()) throw new PrebuyError('invalid_settle_at', 'settleAt must be an ISO 8601 time in the future.')
      let token: Address
      try {
        token = getAddress(input.tokenAddress)
      } catch {
        throw new PrebuyError('invalid_address', `"${input.tokenAddress}" is not a valid address.`)
      }
      const info = await chain!.readToken(before.chain, token).catch((cause: unknown) => {
        throw new PrebuyError('invalid_otc_token', `No ERC-20 token answers at ${token} on ${before.chain}.`, { cause })
      })
      const amount = parseDecimal(input.tokenAmount, info.decimals)
      if (amount === undefined || amount <= 0n || amount > info.totalSupply) {
        throw new PrebuyError('invalid_otc_amount', `tokenAmount must be positive, at most the total supply, with at most ${info.decimals} decimals.`)
      }
      return store.mutex.run(PROJECT_LOCK, async () => {
        const project = await ownedOtcProject(slug, actor)
        const previous = project.otc
        if (previous?.settlement?.status === 'settled') throw new PrebuyError('otc_settled', 'The offer is settled: the project sold by OTC already.')
        if (previous?.deposit && previous.settlement?.status !== 'cancelled') {
          throw new PrebuyError('otc_deposited', 'The tokens are deposited: the offer no longer changes (cancel it first).')
        }
        // After a cancelled offer (closed on chain for good) the next one takes a new id.
        const round = (previous?.round ?? 0) + (previous?.settlement?.status === 'cancelled' ? 1 : 0)
        const offer: OtcOffer = {
          offerId: otcOfferId(slug, round),
          round,
          fdvUsdc: formatDecimal(fdv, FDV_DECIMALS),
          tokenAddress: token,
          // A token's symbol is whatever its contract returns: kept short (it is shown in listings and terminals).
          tokenSymbol: info.symbol.slice(0, MAX_SYMBOL_LENGTH),
          tokenDecimals: info.decimals,
          totalSupply: info.totalSupply.toString(),
          tokenAmount: amount.toString(),
          settleAt,
          lock,
          deposit: null,
          settlement: null,
        }
        const at = now()
        const terms = { kind: 'otc_offer', offer } as const
        const sameAsInForce =
          previous?.settlement?.status !== 'cancelled' && JSON.stringify(termsInForce(project, 'otc_offer')) === JSON.stringify(summarize(terms))
        let next: ProjectRecord
        if (actor === 'operator') next = withOperatorChange(project, terms, at)
        else if (!sameAsInForce) next = withProposal(project, terms, at)
        else if (pendingOf(project, 'otc_offer')) {
          // The owner asks for the offer in force: its pending change is withdrawn, nothing to confirm.
          next = { ...project, pendingChanges: (project.pendingChanges ?? []).filter((c) => c.kind !== 'otc_offer'), updatedAt: at }
        } else return { outcome: 'in_force', project }
        await store.batch(projectWriteOps(store, project, next))
        const change = actor === 'operator' ? undefined : pendingOf(next, 'otc_offer')
        return change ? { outcome: 'pending_confirmation', project: next, change } : { outcome: 'in_force', project: next }
      })
    },

    async deposit(slug, actor) {
      return store.mutex.run(`otc-deposit:${slug}`, async () => {
        let project = await ownedOtcProject(slug, actor)
        const contract = settlementOf(project)
        if (!project.otc) throw new PrebuyError('otc_no_offer', 'Set the offer first (PATCH /projects/{slug}/otc).')
        if (project.otc.deposit) return project
        // What the orders buy does not change under them: an owner's change waits for the operator and its notice.
        const pending = pendingOf(project, 'otc_offer')
        if (pending) {
          throw new PrebuyError(
            'change_pending',
            pending.effectiveAt === null
              ? "A change of the offer waits for the operator's confirmation: nothing is deposited until it takes effect or is rejected."
              : `A change of the offer takes effect at ${new Date(pending.effectiveAt).toISOString()} (notice to the buyers): deposit after that.`,
          )
        }
        const key = project.ownerKeyId === null ? undefined : await store.sub.keys.get(project.ownerKeyId)
        if (!key || key.revokedAt !== null)
          throw new PrebuyError('otc_no_owner_wallet', 'The project has no owner key (or it is revoked): no wallet to deposit from.')
        const wallet = getAddress(key.walletAddress)

        // What is on chain under the owner wallet's key for this id. The contract keys offers by their depositor
        // (otcOfferKey), so only this wallet can have put anything there: a stranger's deposit under the same public
        // id lands under the stranger's own key and is never read here. Still, a deposit counts only when the offer
        // equals the record in every field; an offer of this wallet's with other terms (a record from an older
        // version, terms that changed while a deposit was sent) is taken back and the offer moves to a fresh id.
        for (let tries = 0; ; tries++) {
          const offer = project.otc!
          const terms = recordedOtcTerms(offer, wallet)
          const onChain = await chain!.readOffer(project.chain, otcOfferKey(wallet, offer.offerId as Hex))
          if (onChain.project === ZERO_ADDRESS) break
          const fields = otcTermsDifferences(terms, onChain)
          // The same offer, on chain already (a deposit whose record a crash lost): recorded, not sent again.
          if (fields.length === 0) return recordDeposit(slug, offer, terms, null, null)
          if (tries >= 2)
            throw new PrebuyError('otc_deposit_failed', `The offer's ids keep holding other terms on chain: ${describeOtcDifferences(terms, onChain, fields)}.`)
          const reason = describeOtcDifferences(terms, onChain, fields)
          if (!onChain.closed) await cancelOnChain(project, key.userIndex, contract, offer.offerId as Hex)
          project = await supersede(slug, offer, reason)
          logger?.warn(
            { slug, offerId: offer.offerId, next: project.otc!.offerId, reason },
            'OTC offer id superseded: the on-chain offer differs from the record',
          )
        }

        const offer = project.otc!
        const terms = recordedOtcTerms(offer, wallet)
        const held = await chain!.tokenBalance(project.chain, terms.token as Address, wallet)
        if (held < terms.offered) {
          throw new PrebuyError(
            'insufficient_token_balance',
            `The owner's wallet ${key.walletAddress} holds ${formatDecimal(held, offer.tokenDecimals)} ${offer.tokenSymbol} on ${project.chain}; the offer needs ${formatDecimal(terms.offered, offer.tokenDecimals)}.`,
          )
        }
        const [result] = await wallets.submitUserOperations(project.chain, [
          {
            id: `otc-deposit:${slug}`,
            userIndex: key.userIndex,
            callGasLimit: 400_000n,
            calls: [
              { to: terms.token as Address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [contract, terms.offered] }) },
              {
                to: contract,
                data: encodeFunctionData({
                  abi: OTC_SETTLEMENT_ABI,
                  functionName: 'deposit',
                  args: [
                    offer.offerId as Hex,
                    terms.token as Address,
                    terms.offered,
                    terms.fdv,
                    terms.totalSupply,
                    terms.settleAfter,
                    terms.lockSeconds,
                    terms.vestingSeconds,
                  ],
                }),
              },
            ],
          },
        ])
        if (result?.status !== 'included') {
          const why = result && 'revert' in result ? result.revert.message : result && 'reason' in result ? result.reason : (result?.status ?? 'not sent')
          throw new PrebuyError('otc_deposit_failed', `The deposit did not go through: ${why}. Nothing was deposited.`)
        }
        return recordDeposit(slug, offer, terms, result.txHash, result.blockNumber)
      })
    },

    async cancel(slug, actor) {
      return store.mutex.run(`otc-deposit:${slug}`, async () => {
        const project = await ownedOtcProject(slug, actor)
        const offer = project.otc
        if (!offer) throw new PrebuyError('otc_no_offer', 'The project has no OTC offer.')
        const state = offer.settlement?.status
        if (state === 'cancelled') return project
        if (state === 'settled') throw new PrebuyError('otc_settled', 'The offer is settled: the project sold by OTC already.')
        if (state === 'settling') throw new PrebuyError('otc_settling', 'The offer is being settled right now; see its outcome first.')
        const markCancelled = () =>
          store.mutex.run(PROJECT_LOCK, async () => {
            const current = (await store.sub.projects.get(slug))!
            if (current.otc?.settlement?.status === 'settling' || current.otc?.settlement?.status === 'settled') {
              throw new PrebuyError('otc_settling', 'The offer started settling meanwhile; see its outcome first.')
            }
            // Another offer took its place meanwhile (the worker found the deposit differing and cleared it, and a new
            // offer was set while this one was cancelled on chain): the offer asked for is withdrawn; the new one stands.
            if (current.otc?.offerId !== offer.offerId) return current
            return write(current, { ...current.otc!, settlement: { status: 'cancelled', at: now() } })
          })
        if (!offer.deposit) return markCancelled()
        const contract = settlementOf(project)
        const key = project.ownerKeyId === null ? undefined : await store.sub.keys.get(project.ownerKeyId)
        // The offer is stored under the depositing wallet's key (records before v3: the owner key's wallet).
        const depositor = offer.deposit.project ?? key?.walletAddress
        if (!depositor) throw new PrebuyError('otc_no_owner_wallet', 'The project has no owner key: no wallet to cancel from.')
        const offerKey = otcOfferKey(getAddress(depositor), offer.offerId as Hex)
        const onChain = await chain!.readOffer(project.chain, offerKey)
        // Closed already: settled by a settlement the worker has not recorded yet (it will), or cancelled on chain.
        const fromBlock = BigInt(offer.deposit.blockNumber ?? 0)
        if (onChain.closed && (await chain!.settledIn(project.chain, offerKey, fromBlock)) !== null) {
          throw new PrebuyError('otc_settled', 'The offer is settled on chain: the project sold by OTC already (the record follows shortly).')
        }
        if (!onChain.closed && onChain.project !== ZERO_ADDRESS) {
          // Only the depositing wallet can cancel (the contract derives the key from the caller).
          if (!key || !isAddressEqual(key.walletAddress as Address, depositor as Address)) {
            throw new PrebuyError('otc_no_owner_wallet', "The wallet that deposited the offer is no longer the owner key's: no wallet to cancel from.")
          }
          await cancelOnChain(project, key.userIndex, contract, offer.offerId as Hex)
        }
        // Closed on chain by now, by this call or by an earlier cancellation.
        return markCancelled()
      })
    },
  }
}
