import { randomBytes } from 'node:crypto'
import { type Address, bytesToHex, createPublicClient, custom, type Hex, http, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Launchpad } from '../../src/domain/records.ts'
import { predictTokenAddress } from '../../devnet/launchpads/launch-token.ts'
import { type FlowHarness, startFlowHarness } from '../executor/flow-harness.ts'

const USDC = 1_000_000n
const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address
/** A shared platform deployer (config launches.sharedDeployers): it launches for many creators. */
const PLATFORM = fresh()

describe('launch authenticity: only facts nobody else can forge bind a project (real devnet)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness({ sharedDeployers: [PLATFORM] })
  })
  afterAll(async () => {
    await h?.stop()
  })

  const candidateOf = (slug: string, token: Address) => h.journal.getCandidate('base', slug, token)
  // Clanker derives its CREATE2 salt from the token admin (the creator) and the caller's salt.
  const expectedAddress = (slug: string, launchpad: Launchpad, creator: Address, salt: Hex) =>
    predictTokenAddress({ chain: h.chain, addresses: h.launchpads, launchpad, creator, name: `${slug} token`, symbol: slug.slice(0, 5).toUpperCase() }, salt)

  it.each(['clanker', 'doppler', 'zora', 'clanker_v5'] as const)(
    '%s: a forged launch naming the creator is rejected and buys nothing; the genuine launch afterwards fills',
    async (launchpad) => {
      const creator = fresh()
      const { slug } = await h.newProject(`forged-${launchpad.replace('_', '-')}`, launchpad, creator)
      const buyer = await h.newBuyer(`forged-${launchpad}`, '100')
      await h.order(buyer, slug, '50', null)
      h.startMining()
      // Anyone can call the factory naming the registered creator (Clanker token admin, Zora payout recipient). A
      // Doppler launch under NoOp governance names nobody (timelock and governance are 0xdead): it is not even a
      // candidate of the project; nor does a Clanker v5 launch (found by its pool's hook: no field names a creator).
      const forged = await h.launch(slug, launchpad, creator, { sender: fresh() })
      if (launchpad === 'doppler' || launchpad === 'clanker_v5') {
        await h.indexer.caughtUp('base', forged.blockNumber)
        expect(await candidateOf(slug, forged.token)).toBeUndefined()
      } else {
        const rejected = await h.waitFor(
          'rejected candidate',
          async () => (await candidateOf(slug, forged.token))?.status === 'rejected' && candidateOf(slug, forged.token),
        )
        expect(rejected).toMatchObject({ deployer: expect.any(String), reason: expect.stringContaining('field anyone can set') })
      }
      expect((await h.services.projects.getProject(slug))?.launch).toBeNull()
      // The genuine launch, sent by the registered deployer, binds and fills.
      const genuine = await h.launch(slug, launchpad, creator)
      await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
      await h.stopMining()
      expect((await h.services.projects.getProject(slug))?.launch?.tokenAddress).toBe(genuine.token)
      expect(await h.tokenBalance(forged.token, buyer.wallet)).toBe(0n)
      expect(await h.tokenBalance(genuine.token, buyer.wallet)).toBeGreaterThan(0n)
      expect(await h.usdcOf(buyer.wallet)).toBe(50n * USDC)
    },
  )

  it('with an expected token address only that token sent by the deployer binds; the creator’s other launch is rejected', async () => {
    const creator = fresh()
    const salt = bytesToHex(randomBytes(32))
    const expected = await expectedAddress('expected-cl', 'clanker', creator, salt)
    const { slug } = await h.newProject('expected-cl', 'clanker', creator, { expectedTokenAddress: expected })
    const buyer = await h.newBuyer('expected-cl', '100')
    await h.order(buyer, slug, '40', null)
    h.startMining()
    const other = await h.launch(slug, 'clanker', creator)
    await h.waitFor('rejected', async () => (await candidateOf(slug, other.token))?.status === 'rejected')
    expect((await candidateOf(slug, other.token))?.reason).toContain(`not the expected token ${expected}`)
    const launched = await h.launch(slug, 'clanker', creator, { salt })
    expect(launched.token).toBe(expected)
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    expect(await h.tokenBalance(expected, buyer.wallet)).toBeGreaterThan(0n)
  })

  it('a shared deployer’s launch waits for the operator: nothing buys until it is confirmed, then it fills', async () => {
    const { slug } = await h.newProject('shared-zo', 'zora', PLATFORM)
    const buyer = await h.newBuyer('shared-zo', '100')
    await h.order(buyer, slug, '30', null)
    h.startMining()
    const launched = await h.launch(slug, 'zora', fresh(), { sender: PLATFORM })
    await h.waitFor('awaiting', async () => (await candidateOf(slug, launched.token))?.status === 'awaiting_confirmation')
    // More blocks: still nothing bought, the project still waits.
    const seen = await h.client.getBlockNumber({ cacheTime: 0 })
    await h.waitFor('three more blocks', async () => (await h.client.getBlockNumber({ cacheTime: 0 })) >= seen + 3n)
    expect((await h.getOrder(buyer, slug))?.status).toBe('active')
    expect((await h.services.projects.getProject(slug))?.launch).toBeNull()
    expect(await h.services.launches.confirm(slug, launched.token)).toMatchObject({ status: 'confirmed' })
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    expect((await h.services.projects.getProject(slug))?.launch?.tokenAddress).toBe(launched.token)
    expect(await candidateOf(slug, launched.token)).toBeUndefined()
  })

  it('a launch whose reads fail is quarantined and retried with backoff, while another project’s launch in the next block fills', async () => {
    const salt = bytesToHex(randomBytes(32))
    const brokenCreator = fresh()
    const token = await expectedAddress('quarantine-cl', 'clanker', brokenCreator, salt)
    const broken = await h.newProject('quarantine-cl', 'clanker', brokenCreator, { expectedTokenAddress: token })
    const healthy = await h.newProject('healthy-zo', 'zora')
    const first = await h.newBuyer('quarantine-a', '100')
    const second = await h.newBuyer('quarantine-b', '100')
    await h.order(first, broken.slug, '20', null)
    await h.order(second, healthy.slug, '20', null)
    // The node fails every read of the broken token's metadata until the test lets it through.
    let failing = true
    let failures = 0
    const inner = http(h.chain.rpcUrl)({ retryCount: 0 })
    const faulty = createPublicClient({
      transport: custom({
        async request({ method, params }) {
          const call = (params as Array<{ to?: string }> | undefined)?.[0]
          if (failing && method === 'eth_call' && call?.to?.toLowerCase() === token.toLowerCase()) {
            failures++
            throw new Error('injected RPC failure')
          }
          return inner.request({ method, params } as never)
        },
      }),
    }) as PublicClient
    await h.restartIndexer(faulty)
    const launched = await h.launch(broken.slug, 'clanker', broken.creator, { salt })
    await h.mine()
    await h.indexer.caughtUp('base', launched.blockNumber + 1n)
    const quarantined = await candidateOf(broken.slug, token)
    expect(quarantined).toMatchObject({ status: 'quarantined', attempts: expect.any(Number) })
    expect(failures).toBeGreaterThan(0)
    // Every other launch goes on: the next project's launch, a block later, fills.
    h.startMining()
    await h.launch(healthy.slug, 'zora', healthy.creator)
    await h.waitFor('healthy fill', async () => (await h.getOrder(second, healthy.slug))?.status === 'filled')
    expect((await h.getOrder(first, broken.slug))?.status).toBe('active')
    // The node recovers: the quarantined launch is completed on a later retry and its orders fill.
    failing = false
    await h.waitFor('quarantined fill', async () => (await h.getOrder(first, broken.slug))?.status === 'filled', 60_000)
    await h.stopMining()
    expect((await h.services.projects.getProject(broken.slug))?.launch?.tokenAddress).toBe(token)
    expect(await candidateOf(broken.slug, token)).toBeUndefined()
    await h.restartIndexer()
  })
})
