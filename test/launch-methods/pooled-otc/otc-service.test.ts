import type { Address, Hash, Hex } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { OwnerEditOutcome } from '../../../src/domain/owner-changes.ts'
import type { OtcOffer } from '../../../src/domain/records.ts'
import type { OtcChain } from '../../../src/launch-methods/pooled-otc/chain/otc-chain.ts'
import { otcOfferKey } from '../../../src/launch-methods/pooled-otc/chain/otc-settlement-contract.ts'
import { createOtcService, otcOfferId } from '../../../src/launch-methods/pooled-otc/otc-service.ts'
import type { Store } from '../../../src/store/open-store.ts'
import { projectWriteOps } from '../../../src/store/project-writes.ts'
import type { WalletService } from '../../../src/wallets/wallet-service.ts'
import { projectRecord } from '../../support/records.ts'
import { openTempStore } from '../../support/temp-store.ts'

/**
 * The OTC service's rules on a real store, with the chain replaced (the chain paths run end to end in
 * test/launch-methods/pooled-otc/otc-daemon.e2e.test.ts): refusals, what is kept of a token's metadata, withdrawal states.
 */
const OWNER = 'key_owner'
const TOKEN: Address = '0x00000000000000000000000000000000000a0c02'
const SETTLED_TX: Hash = `0x${'55'.repeat(32)}`
/** The offer an edit set (the operator's) or proposed (the owner's, waiting for the operator). */
const offerOf = (edit: OwnerEditOutcome): OtcOffer => {
  if (edit.outcome === 'in_force') return edit.project.otc!
  if (edit.change.kind !== 'otc_offer') throw new Error('not an offer change')
  return edit.change.offer
}

describe('OTC service', () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store
  let closedOnChain: boolean
  let sent: number
  let readKeys: Hex[]
  const wallets = {
    submitUserOperations: async () => {
      sent++
      return []
    },
  } as unknown as WalletService
  const chain = {
    settlement: () => '0x00000000000000000000000000000000000a0c01',
    readToken: async (_: string, token: Address) => {
      if (token.toLowerCase() !== TOKEN) throw new Error('no contract')
      return { symbol: `SYM${'X'.repeat(100)}`, decimals: 18, totalSupply: 10n ** 27n }
    },
    readOffer: async (_: string, key: Hex) => {
      readKeys.push(key)
      return { closed: closedOnChain }
    },
    settledIn: async () => SETTLED_TX,
    vesting: () => null,
  } as unknown as OtcChain
  const input = { fdvUsdc: '1000000', tokenAddress: TOKEN, tokenAmount: '1000', settleAt: new Date(Date.now() + 3_600_000).toISOString() }
  const project = async () => (await store.sub.projects.get('otc'))!
  const setOtc = async (otc: OtcOffer) => {
    const current = await project()
    await store.batch(projectWriteOps(store, current, { ...current, otc }))
  }

  beforeEach(async () => {
    temp = await openTempStore('otc-service')
    store = temp.store
    closedOnChain = false
    sent = 0
    readKeys = []
    await store.batch(projectWriteOps(store, undefined, projectRecord('otc', { launchMethod: 'pooled_otc', ownerKeyId: OWNER })))
  })
  afterEach(async () => {
    await temp.remove()
  })

  it('refuses everything on a chain without a settlement contract (otc_unavailable), a non-positive FDV and an address that is no token', async () => {
    await expect(createOtcService({ store, wallets, now: Date.now }).setOffer('otc', { ownerKeyId: OWNER }, input)).rejects.toMatchObject({
      code: 'otc_unavailable',
    })
    const otc = createOtcService({ store, wallets, now: Date.now, chain })
    await expect(otc.setOffer('otc', { ownerKeyId: OWNER }, { ...input, fdvUsdc: '0' })).rejects.toMatchObject({ code: 'invalid_otc_fdv' })
    await expect(otc.setOffer('otc', { ownerKeyId: OWNER }, { ...input, tokenAddress: '0x00000000000000000000000000000000000a0c03' })).rejects.toMatchObject({
      code: 'invalid_otc_token',
    })
    expect((await project()).otc).toBeUndefined()
  })

  it('keeps the lock terms with the offer (absent: none), refuses terms out of bounds, and a locked offer on a chain without a vesting contract', async () => {
    const otc = createOtcService({ store, wallets, now: Date.now, chain })
    expect(offerOf(await otc.setOffer('otc', { ownerKeyId: OWNER }, input)).lock).toEqual({ lockSeconds: 0, vestingSeconds: 0 })
    await expect(otc.setOffer('otc', { ownerKeyId: OWNER }, { ...input, lockSeconds: -1 })).rejects.toMatchObject({ code: 'invalid_lock_seconds' })
    await expect(otc.setOffer('otc', { ownerKeyId: OWNER }, { ...input, vestingSeconds: 5 * 365 * 86_400 })).rejects.toMatchObject({
      code: 'invalid_vesting_seconds',
    })
    // This chain port has no vesting contract: an unlocked offer is fine, a locked one could never settle.
    await expect(otc.setOffer('otc', { ownerKeyId: OWNER }, { ...input, lockSeconds: 60 })).rejects.toMatchObject({ code: 'otc_unavailable' })
    const withVesting = createOtcService({ store, wallets, now: Date.now, chain: { ...chain, vesting: () => '0x00000000000000000000000000000000000a0c05' } })
    const locked = await withVesting.setOffer('otc', { ownerKeyId: OWNER }, { ...input, lockSeconds: 60, vestingSeconds: 600 })
    expect(offerOf(locked).lock).toEqual({ lockSeconds: 60, vestingSeconds: 600 })
  })

  it("keeps 32 characters of the token's symbol", async () => {
    const otc = createOtcService({ store, wallets, now: Date.now, chain })
    expect(offerOf(await otc.setOffer('otc', { ownerKeyId: OWNER }, input)).tokenSymbol).toBe(`SYM${'X'.repeat(29)}`)
  })

  it('withdraws an offer not deposited yet without any chain operation; the next offer takes the next id', async () => {
    const otc = createOtcService({ store, wallets, now: Date.now, chain })
    await otc.setOffer('otc', 'operator', input)
    expect((await otc.cancel('otc', { ownerKeyId: OWNER })).otc!.settlement).toMatchObject({ status: 'cancelled' })
    expect(sent).toBe(0)
    const next = await otc.setOffer('otc', 'operator', input)
    expect(next.project.otc).toMatchObject({ offerId: otcOfferId('otc', 1), round: 1, settlement: null })
    expect(otcOfferId('otc', 1)).not.toBe(otcOfferId('otc'))
  })

  it('refuses to withdraw while settling, and an offer the chain shows settled before the record does (otc_settled, nothing sent, record unchanged)', async () => {
    const otc = createOtcService({ store, wallets, now: Date.now, chain })
    const offer = (await otc.setOffer('otc', 'operator', input)).project.otc!
    const depositor: Address = '0x00000000000000000000000000000000000d0d01'
    const deposited = { ...offer, deposit: { txHash: `0x${'66'.repeat(32)}`, blockNumber: '7', at: 1, project: depositor } }
    await setOtc({ ...deposited, settlement: { status: 'settling', since: 1 } })
    await expect(otc.cancel('otc', { ownerKeyId: OWNER })).rejects.toMatchObject({ code: 'otc_settling' })

    await setOtc({ ...deposited, settlement: { status: 'retrying', reason: 'x', attempts: 1, since: 1 } })
    closedOnChain = true
    await expect(otc.cancel('otc', 'operator')).rejects.toMatchObject({ code: 'otc_settled' })
    expect(sent).toBe(0)
    expect((await project()).otc!.settlement).toMatchObject({ status: 'retrying' })
    expect(offer.offerId as Hex).toBe(otcOfferId('otc'))
    // The offer read is the one under the depositing wallet's key, not the bare (public) id.
    expect(readKeys).toEqual([otcOfferKey(depositor, otcOfferId('otc'))])
  })

  it("the owner's offer is a proposal: nothing in force, nothing deposited (change_pending); the operator's is in force at once and in the history", async () => {
    const otc = createOtcService({ store, wallets, now: Date.now, chain })
    const proposed = await otc.setOffer('otc', { ownerKeyId: OWNER }, input)
    expect(proposed).toMatchObject({ outcome: 'pending_confirmation', change: { kind: 'otc_offer', confirmedAt: null, effectiveAt: null } })
    expect((await project()).otc).toBeUndefined()
    await setOtc(offerOf(proposed)) // an offer in force meanwhile (as if set by the operator)
    await expect(otc.deposit('otc', { ownerKeyId: OWNER })).rejects.toMatchObject({ code: 'change_pending' })
    expect(sent).toBe(0)
    // Asking for the offer in force withdraws the proposal: nothing to confirm.
    expect((await otc.setOffer('otc', { ownerKeyId: OWNER }, input)).outcome).toBe('in_force')
    expect((await project()).pendingChanges).toEqual([])
    const byOperator = await otc.setOffer('otc', 'operator', { ...input, fdvUsdc: '2000000' })
    expect(byOperator.outcome).toBe('in_force')
    expect(byOperator.project.otc!.fdvUsdc).toBe('2000000')
    expect(byOperator.project.changeHistory!.at(-1)).toMatchObject({
      kind: 'otc_offer',
      by: 'operator',
      outcome: 'effective',
      from: { fdvUsdc: '1000000' },
      to: { fdvUsdc: '2000000' },
    })
  })

  it('a withdrawal whose offer was replaced meanwhile leaves the new offer standing (not marked cancelled)', async () => {
    const otc0 = createOtcService({ store, wallets, now: Date.now, chain })
    const offer = (await otc0.setOffer('otc', 'operator', input)).project.otc!
    const depositor: Address = '0x00000000000000000000000000000000000d0d01'
    await setOtc({ ...offer, deposit: { txHash: `0x${'66'.repeat(32)}`, blockNumber: '7', at: 1, project: depositor } })
    const replaced: OtcOffer = { ...offer, offerId: otcOfferId('otc', 1), round: 1, deposit: null, settlement: null }
    // While the withdrawal reads the chain, the deposit was found differing (cleared) and a new offer set.
    const racing = {
      ...chain,
      readOffer: async () => {
        await setOtc(replaced)
        return { closed: true }
      },
      settledIn: async () => null,
    } as unknown as OtcChain
    const returned = await createOtcService({ store, wallets, now: Date.now, chain: racing }).cancel('otc', 'operator')
    expect(returned.otc).toEqual(replaced)
    expect((await project()).otc).toEqual(replaced)
  })
})
