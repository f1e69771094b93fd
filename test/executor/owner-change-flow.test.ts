import { randomBytes } from 'node:crypto'
import { type Address, bytesToHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { predictTokenAddress } from '../../devnet/launchpads/launch-token.ts'
import { type FlowHarness, startFlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const HOUR = 3_600_000
const NOTICE_MS = 48 * HOUR
const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address

/**
 * Issue 19 item 4 on the devnet: a leaked owner key points an operator-verified project at a token a stranger launches
 * (an impersonated account stands in for the stranger's key). The change waits for the operator; nothing is bought
 * meanwhile; the operator rejects it with the reason. A genuine change confirmed while older orders are live takes
 * effect only after the notice period: a launch of it during the notice buys nothing, the buyer who left is not bought
 * for, the one who stayed is bought for once it is in force.
 */
describe('a leaked owner key does not redirect the orders (launch binding, real devnet)', () => {
  let h: FlowHarness
  let offsetMs = 0
  beforeAll(async () => {
    h = await startFlowHarness({ now: () => Date.now() + offsetMs, ownerChangeNoticeMs: NOTICE_MS })
  })
  afterAll(async () => {
    await h?.stop()
  })

  const candidateOf = (slug: string, token: Address) => h.journal.getCandidate('base', slug, token)
  const tokenOf = (slug: string, creator: Address, salt: `0x${string}`) =>
    predictTokenAddress(
      { chain: h.chain, addresses: h.launchpads, launchpad: 'clanker', creator, name: `${slug} token`, symbol: slug.slice(0, 5).toUpperCase() },
      salt,
    )
  /** Several blocks after `block`, all indexed: the executor had every chance to buy. */
  const indexedPast = async (block: bigint) => {
    await h.waitFor('three more blocks', async () => (await h.client.getBlockNumber({ cacheTime: 0 })) >= block + 3n)
    await h.indexer.caughtUp('base', block + 3n)
  }

  it('the owner key points the project at a stranger’s token: nothing is bought until the operator decides; rejected, with the reason', async () => {
    const slug = 'verified'
    const creator = fresh()
    const owner = await h.services.keys.issueKey('verified-owner')
    await h.services.projects.createProject({
      slug,
      creatorAddress: creator,
      launchpad: 'clanker',
      chain: 'base',
      launchMethod: 'open_market',
      ownerKeyId: owner.record.id,
    })
    expect((await h.services.projects.getProject(slug))?.profile.status.isLaunchVerified).toBe(true)
    const a = await h.newBuyer('verified-a', '100')
    const b = await h.newBuyer('verified-b', '100')
    await h.order(a, slug, '40', null)
    await h.order(b, slug, '30', null)

    // The stranger's token address is known before its launch (Clanker: the token admin and the caller's salt).
    const stranger = fresh()
    const salt = bytesToHex(randomBytes(32))
    const strangerToken = await tokenOf(slug, stranger, salt)
    await h.services.launches.setExpectedToken(slug, owner.record.id, strangerToken)
    h.startMining()
    const launched = await h.launch(slug, 'clanker', stranger, { salt })
    expect(launched.token).toBe(strangerToken)
    await indexedPast(launched.blockNumber)

    // Nothing bought: the project waits on the binding in force, both orders are active, the wallets untouched.
    expect((await h.services.projects.getProject(slug))?.launch).toBeNull()
    expect((await h.getOrder(a, slug))?.status).toBe('active')
    expect((await h.getOrder(b, slug))?.status).toBe('active')
    expect(await h.usdcOf(a.wallet)).toBe(100n * USDC)
    expect(await h.tokenBalance(strangerToken, b.wallet)).toBe(0n)
    // The launch is recorded with why it bought nothing; every buyer sees the pending change and when it was proposed.
    // Under the proposed binding it would not bind either (issue 22): its sender is not the registered deployer.
    expect(await candidateOf(slug, strangerToken)).toMatchObject({ status: 'rejected', rule: 'squatted_address' })
    expect((await candidateOf(slug, strangerToken))?.reason).toMatch(
      /under the owner's binding change proposed at .*\(not in force\): .*someone took the address first/,
    )
    const project = (await h.services.projects.getProject(slug))!
    expect(project.expectedTokenAddress).toBeNull()
    const detail = await h.services.projects.projectDetail(slug, a.keyId)
    expect(detail.changes.pending).toEqual([
      {
        kind: 'launch_binding',
        status: 'awaiting_confirmation',
        proposed: { kind: 'launch_binding', creatorAddress: creator, expectedTokenAddress: strangerToken, expectedSymbol: null, expectedName: null },
        proposedAt: expect.any(String),
        confirmedAt: null,
        effectiveAt: null,
      },
    ])

    // The operator checks the token, finds a stranger's launch and rejects the change: the reason is on the profile.
    await h.services.ownerChanges.reject(slug, 'the token was launched by an unknown account, not the registered creator')
    const after = await h.services.projects.projectDetail(slug, b.keyId)
    expect(after.changes.pending).toEqual([])
    expect(after.changes.history[0]).toMatchObject({
      kind: 'launch_binding',
      by: 'owner',
      outcome: 'rejected',
      to: { expectedTokenAddress: strangerToken },
      reason: 'the token was launched by an unknown account, not the registered creator',
      effectiveAt: null,
    })
    expect(await h.services.ownerChanges.applyDue()).toEqual([])
    await indexedPast(await h.client.getBlockNumber({ cacheTime: 0 }))
    expect((await h.getOrder(b, slug))?.status).toBe('active')
    await h.stopMining()

    // A genuine change, confirmed while the orders placed before it are live, waits out the notice period.
    const genuineSalt = bytesToHex(randomBytes(32))
    const genuineToken = await tokenOf(slug, creator, genuineSalt)
    const proposed = await h.services.launches.setExpectedToken(slug, owner.record.id, genuineToken)
    expect(proposed.outcome).toBe('pending_confirmation')
    const confirmed = await h.services.ownerChanges.confirm(slug)
    expect(confirmed.outcome).toBe('awaiting_notice')
    if (confirmed.outcome !== 'awaiting_notice') throw new Error('unreachable')
    expect(confirmed.change.effectiveAt).toBe(confirmed.change.confirmedAt! + NOTICE_MS)
    expect(confirmed.change.ordersBefore).toBe(2)
    // Buyer a sees the confirmed change on the profile, with its time, and leaves.
    const noticed = await h.services.projects.projectDetail(slug, a.keyId)
    expect(noticed.changes.pending[0]).toMatchObject({ status: 'confirmed', effectiveAt: new Date(confirmed.change.effectiveAt!).toISOString() })
    expect((await h.services.orders.deleteOrders(a.keyId, [{ slug }]))[0]?.ok).toBe(true)

    // The genuine launch, sent by the registered deployer (the binding in force has no second fact: only the new one,
    // its expected token, binds it), comes during the notice period: it buys nothing yet.
    h.startMining()
    const genuine = await h.launch(slug, 'clanker', creator, { salt: genuineSalt })
    expect(genuine.token).toBe(genuineToken)
    await indexedPast(genuine.blockNumber)
    expect((await h.services.projects.getProject(slug))?.launch).toBeNull()
    expect((await h.getOrder(b, slug))?.status).toBe('active')
    expect((await candidateOf(slug, genuineToken))?.reason).toContain('confirmed, in force from')
    offsetMs = NOTICE_MS - HOUR
    expect(await h.services.ownerChanges.applyDue()).toEqual([])
    await indexedPast(await h.client.getBlockNumber({ cacheTime: 0 }))
    expect((await h.getOrder(b, slug))?.status).toBe('active')

    // The notice passed: the change is in force, recorded with its times; the launch it names binds; b is bought for.
    offsetMs = NOTICE_MS + HOUR
    expect(await h.services.ownerChanges.applyDue()).toEqual([slug])
    expect((await h.services.projects.getProject(slug))?.expectedTokenAddress).toBe(genuineToken)
    await h.waitFor('fill', async () => (await h.getOrder(b, slug))?.status === 'filled')
    await h.stopMining()
    expect((await h.services.projects.getProject(slug))?.launch?.tokenAddress).toBe(genuineToken)
    expect(await h.tokenBalance(genuineToken, b.wallet)).toBeGreaterThan(0n)
    expect((await h.getOrder(a, slug))?.status).toBe('deleted')
    expect(await h.usdcOf(a.wallet)).toBe(100n * USDC)
    const history = (await h.services.projects.projectDetail(slug, b.keyId)).changes.history
    expect(history[0]).toMatchObject({
      kind: 'launch_binding',
      by: 'owner',
      outcome: 'effective',
      from: { expectedTokenAddress: null },
      to: { expectedTokenAddress: genuineToken },
      decidedAt: new Date(confirmed.change.confirmedAt!).toISOString(),
      effectiveAt: new Date(confirmed.change.effectiveAt!).toISOString(),
    })
    expect(history[1]).toMatchObject({ outcome: 'rejected' })
  })
})
