import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createJournal, type Journal } from '../../src/journal/journal.ts'
import type { CandidateRecord } from '../../src/journal/journal-records.ts'
import { createLaunchBindingService, type LaunchBindingService } from '../../src/services/launch-binding-service.ts'
import type { Store } from '../../src/store/open-store.ts'
import { projectLaunchOps, projectWriteOps } from '../../src/store/project-writes.ts'
import { projectRecord } from '../support/records.ts'
import { openTempStore } from '../support/temp-store.ts'

const TOKEN = '0x00000000000000000000000000000000000000A7'
const candidate = (status: CandidateRecord['status'], patch: Partial<CandidateRecord> = {}): CandidateRecord => ({
  slug: 'alpha',
  chain: 'base',
  launchpad: 'clanker',
  token: TOKEN,
  deployer: '0x00000000000000000000000000000000000000f1',
  claimedCreators: [],
  name: 'A',
  symbol: 'A',
  txHash: `0x${'11'.repeat(32)}`,
  blockNumber: '10',
  blockHash: `0x${'22'.repeat(32)}`,
  logIndex: 0,
  launchedAt: 1,
  status,
  reason: 'why',
  attempts: 0,
  seenAt: 1,
  updatedAt: 1,
  launch: { launchpad: 'clanker', token: TOKEN } as unknown as CandidateRecord['launch'],
  ...patch,
})

describe('launch binding service (operator and owner)', () => {
  let store: Store
  let journal: Journal
  let remove: () => Promise<void>
  let service: LaunchBindingService
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('launch-binding'))
    journal = createJournal(store)
    service = createLaunchBindingService({ store, journal, now: () => 42 })
    await store.batch(projectWriteOps(store, undefined, projectRecord('alpha', { ownerKeyId: 'owner' })))
  })
  afterEach(() => remove())

  it('confirms a candidate awaiting confirmation (or a rejected one the operator vouches for), not others', async () => {
    await store.batch([journal.putCandidate(candidate('awaiting_confirmation'))])
    expect(await service.confirm('alpha', TOKEN.toLowerCase())).toMatchObject({
      status: 'confirmed',
      reason: 'confirmed by the operator (was: why)',
      updatedAt: 42,
    })
    await expect(service.confirm('alpha', TOKEN)).rejects.toMatchObject({ code: 'candidate_not_confirmable' })
    await store.batch([journal.putCandidate(candidate('rejected'))])
    expect((await service.confirm('alpha', TOKEN)).status).toBe('confirmed')
    await store.batch([journal.putCandidate(candidate('awaiting_confirmation', { launch: undefined }))])
    await expect(service.confirm('alpha', TOKEN)).rejects.toMatchObject({ code: 'candidate_not_confirmable' })
    await expect(service.confirm('alpha', `0x${'99'.repeat(20)}`)).rejects.toMatchObject({ code: 'candidate_not_found' })
    await expect(service.confirm('nope', TOKEN)).rejects.toMatchObject({ code: 'project_not_found' })
  })

  it('lists candidates and quarantined logs newest first, by project', async () => {
    await store.batch([
      journal.putCandidate(candidate('rejected', { seenAt: 1 })),
      journal.putCandidate(candidate('quarantined', { token: `0x${'bb'.repeat(20)}`, seenAt: 5 })),
      journal.putCandidate(candidate('rejected', { slug: 'beta', seenAt: 3 })),
    ])
    expect((await service.candidates({ slug: 'alpha' })).candidates.map((c) => c.status)).toEqual(['quarantined', 'rejected'])
    expect((await service.candidates()).candidates).toHaveLength(3)
  })

  it('edits the binding of a waiting project; the owner may set the expected token; nothing changes once launched', async () => {
    expect(await service.updateBinding('alpha', { creatorAddress: '0x00000000000000000000000000000000000000c9' })).toMatchObject({
      creatorAddress: '0x00000000000000000000000000000000000000C9',
    })
    // The owner's edit is a proposal: the binding in force does not change until the operator confirms it.
    expect(await service.setExpectedToken('alpha', 'owner', TOKEN.toLowerCase())).toMatchObject({
      outcome: 'pending_confirmation',
      project: { expectedTokenAddress: null },
      change: { kind: 'launch_binding', binding: { expectedTokenAddress: TOKEN }, proposedAt: 42, confirmedAt: null },
    })
    expect((await store.sub.projects.get('alpha'))!.changeHistory).toMatchObject([
      { by: 'operator', to: { creatorAddress: '0x00000000000000000000000000000000000000C9' } },
    ])
    await expect(service.setExpectedToken('alpha', 'someone', TOKEN)).rejects.toMatchObject({ code: 'not_project_owner' })
    const waiting = (await store.sub.projects.get('alpha'))!
    await store.batch(projectLaunchOps(store, waiting, { chain: 'base', tokenAddress: TOKEN, symbol: 'A', name: 'A', decimals: 18, launchedAt: 1 }, 5))
    await expect(service.updateBinding('alpha', { expectedTokenAddress: null })).rejects.toMatchObject({ code: 'binding_fixed' })
    await store.batch([journal.putCandidate(candidate('awaiting_confirmation'))])
    await expect(service.confirm('alpha', TOKEN)).rejects.toMatchObject({ code: 'binding_fixed' })
  })

  it("a dev_buy project's expected token is its own launch's to record: neither the owner nor the operator sets it; its deployer still edits", async () => {
    await store.batch(projectWriteOps(store, undefined, projectRecord('devbuy', { ownerKeyId: 'owner', launchMethod: 'dev_buy' })))
    await expect(service.setExpectedToken('devbuy', 'owner', TOKEN)).rejects.toMatchObject({ code: 'binding_fixed' })
    await expect(service.updateBinding('devbuy', { expectedTokenAddress: TOKEN })).rejects.toMatchObject({ code: 'binding_fixed' })
    expect((await store.sub.projects.get('devbuy'))!.expectedTokenAddress).toBeNull()
    expect(await service.updateBinding('devbuy', { creatorAddress: '0x00000000000000000000000000000000000000c9' })).toMatchObject({
      creatorAddress: '0x00000000000000000000000000000000000000C9',
    })
  })

  it("a dev_buy project's rejected candidate cannot be confirmed: a token someone else deployed, even at the expected address, never binds it (issue 19)", async () => {
    await store.batch(projectWriteOps(store, undefined, projectRecord('devbuy', { ownerKeyId: 'owner', launchMethod: 'dev_buy', expectedTokenAddress: TOKEN })))
    await store.batch([journal.putCandidate(candidate('rejected', { slug: 'devbuy', reason: 'deployed by a stranger: someone deployed it first' }))])
    await expect(service.confirm('devbuy', TOKEN)).rejects.toMatchObject({ code: 'candidate_not_confirmable', message: expect.stringContaining('dev buy') })
    expect((await journal.getCandidate('base', 'devbuy', TOKEN))!.status).toBe('rejected')
  })

  it('warns about a deployer being registered: a contract, a 7702-delegated account, a shared deployer, one seen launching several tokens; candidates carry its notes', async () => {
    const codes: Record<string, string> = { '0x00000000000000000000000000000000000000f1': '0x6080', '0x00000000000000000000000000000000000000f2': '0xef0100aa' }
    const warned = createLaunchBindingService({
      store,
      journal,
      now: () => 42,
      readCode: async (_chain, address) => codes[address.toLowerCase()],
      sharedDeployers: ['0x00000000000000000000000000000000000000f3'],
    })
    expect(await warned.deployerWarnings('base', '0x00000000000000000000000000000000000000c1')).toEqual([])
    expect((await warned.deployerWarnings('base', '0x00000000000000000000000000000000000000f1')).join(' ')).toContain('is a contract on base')
    expect((await warned.deployerWarnings('base', '0x00000000000000000000000000000000000000f2')).join(' ')).toContain('EIP-7702-delegated')
    expect((await warned.deployerWarnings('base', '0x00000000000000000000000000000000000000f3')).join(' ')).toContain('shared deployer')
    expect((await warned.deployerWarnings('base', '0xcA11bde05977b3631167028862bE2a173976CA11')).join(' ')).toContain('Multicall3')
    // A deployer seen launching two tokens (two candidates of any project).
    await store.batch([
      journal.putCandidate(candidate('rejected', { deployer: '0x00000000000000000000000000000000000000c1' })),
      journal.putCandidate(
        candidate('rejected', { deployer: '0x00000000000000000000000000000000000000c1', token: '0x00000000000000000000000000000000000000A8' }),
      ),
    ])
    expect((await warned.deployerWarnings('base', '0x00000000000000000000000000000000000000C1')).join(' ')).toContain('has launched 2 tokens')
    const { candidates } = await warned.candidates({ slug: 'alpha' })
    expect(candidates[0]?.deployerNotes).toEqual(['launched 2 tokens seen by this service'])
  })
})
