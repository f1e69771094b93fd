import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { effectiveAtOf } from '../../src/domain/owner-changes.ts'
import { createJournal } from '../../src/journal/journal.ts'
import type { CandidateRecord } from '../../src/journal/journal-records.ts'
import { createServices, type Services } from '../../src/services/services.ts'
import type { Store } from '../../src/store/open-store.ts'
import { projectLaunchOps } from '../../src/store/project-writes.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { openTempStore } from '../support/temp-store.ts'

const TOKEN = '0x00000000000000000000000000000000000000A7'
const OTHER = '0x00000000000000000000000000000000000000B8'
const HOUR = 3_600_000
const walletOf = async (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}`
const wallets = { walletAddress: walletOf, verifiedWalletAddress: walletOf } as unknown as WalletService

describe('owner changes: confirmation, notice period, rejection', () => {
  let store: Store
  let remove: () => Promise<void>
  let services: Services
  let nowMs = 1_000_000
  let owner: string
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('owner-changes'))
    nowMs = 1_000_000
    services = createServices({ store, wallets, now: () => nowMs, ownerChangeNoticeMs: 48 * HOUR })
    owner = (await services.keys.issueKey('owner')).record.id
    await services.projects.createProject({
      slug: 'alpha',
      creatorAddress: '0x00000000000000000000000000000000000000c1',
      launchpad: 'clanker',
      chain: 'base',
      launchMethod: 'open_market',
      ownerKeyId: owner,
    })
  })
  afterEach(() => remove())
  const project = async () => (await store.sub.projects.get('alpha'))!

  it('the notice applies only when a live order predates the proposal; it counts from the confirmation', () => {
    expect(effectiveAtOf(100, 0, 50)).toBe(100)
    expect(effectiveAtOf(100, 2, 50)).toBe(150)
  })

  it('a change confirmed while older orders are live takes effect only after the notice; nothing before', async () => {
    const buyer = (await services.keys.issueKey('buyer')).record.id
    expect((await services.orders.createOrders(buyer, [{ slug: 'alpha', maxSpendUsdc: '10', maxFdvUsdc: null, expiresInMs: HOUR }]))[0]?.ok).toBe(true)
    nowMs += 1
    await services.launches.setExpectedToken('alpha', owner, TOKEN)
    expect(await services.ownerChanges.pending()).toMatchObject([{ slug: 'alpha', ordersBefore: 1, change: { confirmedAt: null } }])
    nowMs += HOUR
    const confirmed = await services.ownerChanges.confirm('alpha', 'launch_binding')
    expect(confirmed).toMatchObject({ outcome: 'awaiting_notice', change: { confirmedAt: nowMs, effectiveAt: nowMs + 48 * HOUR, ordersBefore: 1 } })
    // Confirming again changes nothing (the notice does not restart, nor shorten).
    expect(await services.ownerChanges.confirm('alpha')).toMatchObject({ outcome: 'awaiting_notice', change: { effectiveAt: nowMs + 48 * HOUR } })
    nowMs += 48 * HOUR - 1
    expect(await services.ownerChanges.applyDue()).toEqual([])
    expect((await project()).expectedTokenAddress).toBeNull()
    nowMs += 1
    expect(await services.ownerChanges.applyDue()).toEqual(['alpha'])
    expect(await project()).toMatchObject({ expectedTokenAddress: TOKEN, pendingChanges: [] })
    expect((await project()).changeHistory).toMatchObject([{ outcome: 'effective', effectiveAt: nowMs, decidedAt: nowMs - 48 * HOUR }])
  })

  it('refuses to guess which change, confirms nothing that is not pending, and rejects with the reason', async () => {
    await expect(services.ownerChanges.confirm('alpha')).rejects.toMatchObject({ code: 'change_not_found' })
    await expect(services.ownerChanges.confirm('nope')).rejects.toMatchObject({ code: 'project_not_found' })
    await services.launches.setExpectedToken('alpha', owner, TOKEN)
    // A new proposal replaces the earlier one.
    await services.launches.setExpectedToken('alpha', owner, OTHER)
    expect((await project()).pendingChanges).toMatchObject([{ binding: { expectedTokenAddress: OTHER } }])
    await expect(services.ownerChanges.confirm('alpha', 'otc_offer')).rejects.toMatchObject({ code: 'change_not_found' })
    const rejected = await services.ownerChanges.reject('alpha', 'not the project’s token')
    expect(rejected.pendingChanges).toEqual([])
    expect(rejected.changeHistory).toMatchObject([{ outcome: 'rejected', reason: 'not the project’s token', to: { expectedTokenAddress: OTHER } }])
    expect(rejected.expectedTokenAddress).toBeNull()
  })

  it('a change that can no longer take effect is refused at confirmation and dropped with the reason when due', async () => {
    const buyer = (await services.keys.issueKey('buyer')).record.id
    await services.orders.createOrders(buyer, [{ slug: 'alpha', maxSpendUsdc: '10', maxFdvUsdc: null, expiresInMs: HOUR }])
    nowMs += 1
    await services.launches.setExpectedToken('alpha', owner, TOKEN)
    await services.ownerChanges.confirm('alpha')
    const launch = { chain: 'base' as const, tokenAddress: OTHER, symbol: 'B', name: 'B', decimals: 18, launchedAt: nowMs }
    await store.batch(projectLaunchOps(store, await project(), launch, nowMs))
    nowMs += 49 * HOUR
    expect(await services.ownerChanges.applyDue()).toEqual(['alpha'])
    expect((await project()).changeHistory).toMatchObject([{ outcome: 'rejected', reason: 'the project launched before the change took effect' }])
    expect((await project()).expectedTokenAddress).toBeNull()
  })

  it('a change in force confirms the launch it binds, seen while it waited; never a squat of its expected address, nor a candidate of another rule', async () => {
    const journal = createJournal(store)
    const creator = '0x00000000000000000000000000000000000000c1'
    const base = {
      slug: 'alpha',
      chain: 'base' as const,
      launchpad: 'clanker' as const,
      claimedCreators: [],
      name: 'Alpha',
      symbol: 'ALPHA',
      txHash: `0x${'11'.repeat(32)}` as const,
      blockNumber: '10',
      blockHash: `0x${'22'.repeat(32)}` as const,
      logIndex: 0,
      launchedAt: 1,
      status: 'rejected' as const,
      attempts: 0,
      seenAt: 1,
      updatedAt: 1,
    }
    const stored = (token: string, deployer: string) =>
      ({ token, deployer, claimedCreators: [], name: 'Alpha', symbol: 'ALPHA' }) as unknown as CandidateRecord['launch']
    // The indexer's records while the change waited: the genuine launch (pending_owner_change); a squat at the proposed
    // address by someone else (its own rule), and the same squat wrongly marked pending (an older record): never confirmed.
    const squatter = '0x00000000000000000000000000000000000000ba'
    await store.batch([
      journal.putCandidate({ ...base, token: TOKEN, deployer: creator, reason: 'matches', rule: 'pending_owner_change', launch: stored(TOKEN, creator) }),
      journal.putCandidate({
        ...base,
        slug: 'alpha',
        token: OTHER,
        deployer: squatter,
        reason: 'squat',
        rule: 'pending_owner_change',
        launch: stored(OTHER, squatter),
      }),
    ])
    await services.launches.setExpectedToken('alpha', owner, TOKEN)
    expect(await services.ownerChanges.confirm('alpha')).toMatchObject({ outcome: 'in_force' })
    expect(await journal.getCandidate('base', 'alpha', TOKEN)).toMatchObject({ status: 'confirmed' })
    expect(await journal.getCandidate('base', 'alpha', OTHER)).toMatchObject({ status: 'rejected' })
    // A proposal of the symbol in force: a look-alike of it by someone else is never confirmed.
    await store.batch([
      journal.putCandidate({ ...base, token: OTHER, deployer: squatter, reason: 'look-alike', rule: 'lookalike', launch: stored(OTHER, squatter) }),
    ])
    await services.launches.proposeBinding('alpha', owner, { expectedTokenAddress: null, expectedSymbol: 'ALPHA' })
    expect(await services.ownerChanges.confirm('alpha')).toMatchObject({ outcome: 'in_force' })
    expect(await journal.getCandidate('base', 'alpha', OTHER)).toMatchObject({ status: 'rejected' })
  })
})
