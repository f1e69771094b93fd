import { getAddress, type Address, type Hash, type PublicClient } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createOtcSettlementWorker } from '../../../src/launch-methods/pooled-otc/worker/otc-settlement-worker.ts'
import type { ChainConfig, ChainKey } from '../../../src/chain/chain-keys.ts'
import { silentLogger } from '../../../src/common/logger.ts'
import type { OtcOffer } from '../../../src/domain/records.ts'
import { createJournal } from '../../../src/journal/journal.ts'
import type { OtcChain } from '../../../src/launch-methods/pooled-otc/chain/otc-chain.ts'
import type { SettleOfferInput, SettleOfferOutcome } from '../../../src/launch-methods/pooled-otc/chain/settle-offer.ts'
import { createServices, type Services } from '../../../src/services/services.ts'
import type { Store } from '../../../src/store/open-store.ts'
import { projectWriteOps } from '../../../src/store/project-writes.ts'
import type { WalletService } from '../../../src/wallets/wallet-service.ts'
import { orderRecord, projectRecord } from '../../support/records.ts'
import { openTempStore } from '../../support/temp-store.ts'
import { writeOrderAs } from '../../support/write-order-as.ts'

/**
 * The OTC worker's bookkeeping on a real store, with the settlement itself replaced: which orders move when, what the
 * offer's state says after each outcome, when it retries. (The settlement on chain: test/launch-methods/.)
 */
const SETTLE_AT = 1_000_000
const CONTRACT: Address = '0x00000000000000000000000000000000000a0c01'
const offer: OtcOffer = {
  offerId: `0x${'11'.repeat(32)}`,
  fdvUsdc: '1000000',
  tokenAddress: '0x00000000000000000000000000000000000a0c02',
  tokenSymbol: 'OTC',
  tokenDecimals: 18,
  totalSupply: (10n ** 27n).toString(),
  tokenAmount: (10n ** 25n).toString(),
  settleAt: SETTLE_AT,
  deposit: { txHash: `0x${'22'.repeat(32)}`, blockNumber: '5', at: 1 },
  settlement: null,
}

describe('OTC settlement worker', () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store
  let services: Services
  let now: number
  let chainSeconds: bigint
  let calls: SettleOfferInput[]
  let next: (input: SettleOfferInput) => Promise<SettleOfferOutcome>
  const walletOf = async (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}`
  const wallets = { walletAddress: walletOf, verifiedWalletAddress: walletOf } as unknown as WalletService
  let closedOnChain: boolean
  /** Runs when the worker asks the chain's clock, before it answers (a write meanwhile). */
  let onClockRead: (() => Promise<void>) | undefined
  const otcChain = {
    settlement: () => CONTRACT,
    now: async () => {
      await onClockRead?.()
      return chainSeconds
    },
    readOffer: async () => ({ closed: closedOnChain }),
    client: () => ({}) as PublicClient,
  } as unknown as OtcChain
  const worker = () =>
    createOtcSettlementWorker({
      store,
      services,
      wallets,
      chains: { base: { key: 'base' } } as unknown as Record<ChainKey, ChainConfig>,
      otcChain,
      logger: silentLogger,
      now: () => now,
      retryMs: 30_000,
      settle: async (_deps, input) => {
        calls.push(input)
        return next(input)
      },
    })
  const statuses = async () => (await services.projects.ordersOfProject('otc', ['active', 'executing', 'filled'])).map((o) => o.status).sort()
  const settlement = async () => (await store.sub.projects.get('otc'))!.otc!.settlement

  beforeEach(async () => {
    temp = await openTempStore('otc-worker')
    store = temp.store
    services = createServices({ store, wallets })
    now = SETTLE_AT + 1
    chainSeconds = BigInt(SETTLE_AT / 1000 + 1)
    calls = []
    closedOnChain = false
    onClockRead = undefined
    const owner = await services.keys.issueKey('owner')
    await store.batch(projectWriteOps(store, undefined, projectRecord('otc', { launchMethod: 'pooled_otc', ownerKeyId: owner.record.id, otc: offer })))
    for (const label of ['a', 'b']) {
      const key = await services.keys.issueKey(label)
      await writeOrderAs(store, orderRecord('otc', key.record.id))
    }
  })
  afterEach(async () => {
    await temp.remove()
  })

  it('does nothing before the settlement time, on the host clock or on the chain’s', async () => {
    next = async () => {
      throw new Error('not called')
    }
    now = SETTLE_AT - 1
    await worker().runOnce()
    now = SETTLE_AT + 1
    chainSeconds = BigInt(SETTLE_AT / 1000 - 1)
    await worker().runOnce()
    expect(calls).toHaveLength(0)
    expect(await statuses()).toEqual(['active', 'active'])
    expect(await settlement()).toBeNull()
  })

  it('a settlement that would revert: orders back to active, the offer retrying with the reason, tried again only after the pause', async () => {
    next = async () => ({
      status: 'refused',
      plan: {} as never,
      revert: { name: 'ContributionMismatch', args: [], message: 'ContributionMismatch(0x1, 5, 0)' },
    })
    await worker().runOnce()
    expect(calls).toHaveLength(1)
    // The buyers taking part were the project's active orders, moved to executing first.
    expect(calls[0]!.buyers.map((b) => b.maxSpend)).toEqual([100_000_000n, 100_000_000n])
    expect(await statuses()).toEqual(['active', 'active'])
    expect(await settlement()).toMatchObject({ status: 'retrying', attempts: 1, reason: 'the settlement would revert: ContributionMismatch(0x1, 5, 0)' })
    const events = await createJournal(store).orderEventsOf(calls[0]!.buyers[0]!.id, 'otc')
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(['active->executing', 'executing->active'])

    now += 29_000
    await worker().runOnce()
    expect(calls).toHaveLength(1)
    now += 2_000
    await worker().runOnce()
    expect(calls).toHaveLength(2)
    expect(await settlement()).toMatchObject({ status: 'retrying', attempts: 2 })
  })

  it('an on-chain offer that differs from the record (issue 19): never settled, the deposit no longer counts, the orders back to active, the reason shown; not retried until deposited again', async () => {
    next = async () => ({ status: 'mismatch', fields: ['token'], reason: 'the on-chain offer differs from the record: token (0xa recorded, 0xb on chain)' })
    await worker().runOnce()
    expect(calls).toHaveLength(1)
    // The settlement was asked for the recorded terms, under the owner's wallet (the record predates v3: no depositor).
    const ownerWallet = getAddress((await store.sub.keys.get((await store.sub.projects.get('otc'))!.ownerKeyId!))!.walletAddress)
    expect(calls[0]!.terms).toMatchObject({
      project: ownerWallet,
      token: offer.tokenAddress,
      offered: 10n ** 25n,
      fdv: 1_000_000_000_000n,
      settleAfter: 1_000n,
    })
    const otc = (await store.sub.projects.get('otc'))!.otc!
    expect(otc.deposit).toBeNull()
    expect(otc.settlement).toMatchObject({ status: 'retrying', attempts: 1, reason: expect.stringContaining('differs from the record: token') })
    expect(await statuses()).toEqual(['active', 'active'])
    now += 60_000
    await worker().runOnce()
    expect(calls).toHaveLength(1)
  })

  it('a settlement that reverts on an offer closed meanwhile is asked again and the contract’s answer recorded (here: closed with no settlement, so cancelled), not retried', async () => {
    closedOnChain = true
    let asked = 0
    next = async () => (asked++ === 0 ? { status: 'reverted', plan: {} as never, txHash: `0x${'44'.repeat(32)}` } : { status: 'closed', settledIn: null })
    await worker().runOnce()
    expect(calls).toHaveLength(2)
    expect(await settlement()).toMatchObject({ status: 'cancelled' })
    expect(await statuses()).toEqual(['active', 'active'])
  })

  it('a settlement sent without a receipt stays settling with its hash; the next round hands that hash over, and a cancelled offer ends it', async () => {
    const hash: Hash = `0x${'33'.repeat(32)}`
    next = async (input) => {
      await input.onSent!(hash)
      return { status: 'not_mined', plan: {} as never, txHash: hash, pending: true }
    }
    await worker().runOnce()
    expect(await settlement()).toMatchObject({ status: 'settling', txHash: hash })
    expect(await statuses()).toEqual(['executing', 'executing'])

    next = async () => ({ status: 'closed', settledIn: null })
    await worker().runOnce()
    expect(calls[1]).toMatchObject({ settlingTx: hash, depositBlock: 5n })
    // The orders left executing by the interrupted attempt took part again.
    expect(calls[1]!.buyers).toHaveLength(2)
    expect(await settlement()).toMatchObject({ status: 'cancelled' })
    expect(await statuses()).toEqual(['active', 'active'])
    // Over: never settled again.
    await worker().runOnce()
    expect(calls).toHaveLength(2)
  })

  it('an offer cancelled and replaced after the round read it is left alone: nothing moved, the new offer intact, settled by the next round', async () => {
    // The owner cancels the offer and a new one (its own id, deposited) takes its place while the round is between its
    // read of every project and this project's first write (here: while it asks the chain's clock).
    const replaced: OtcOffer = { ...offer, offerId: `0x${'12'.repeat(32)}`, round: 1, deposit: { txHash: `0x${'23'.repeat(32)}`, blockNumber: '6', at: 2 } }
    onClockRead = async () => {
      onClockRead = undefined
      const current = (await store.sub.projects.get('otc'))!
      await store.batch(projectWriteOps(store, current, { ...current, otc: replaced }))
    }
    next = async () => ({ status: 'closed', settledIn: null })
    await worker().runOnce()
    // Without the check, `settling` went onto the new offer and the old offer's `closed` marked it cancelled.
    expect(calls).toHaveLength(0)
    expect((await store.sub.projects.get('otc'))!.otc).toEqual(replaced)
    expect(await statuses()).toEqual(['active', 'active'])

    next = async (input) => {
      await input.onSent!(`0x${'34'.repeat(32)}`)
      return { status: 'not_mined', plan: {} as never, txHash: `0x${'34'.repeat(32)}`, pending: true }
    }
    await worker().runOnce()
    expect(calls.map((c) => c.offerId)).toEqual([replaced.offerId])
    expect(await settlement()).toMatchObject({ status: 'settling', txHash: `0x${'34'.repeat(32)}` })
  })
})
