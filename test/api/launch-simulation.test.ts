import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { approvedProject, bearer, createHarness, createKey, type Harness, markLaunched, PREFIX } from './harness.ts'

/**
 * The simulation's open-market placement through the HTTP API on a real store (the wallets' balances faked; the same
 * placement against a devnet chain, with Clanker's default start read from the chain, is in
 * test/launch-methods/pooled-otc/otc-daemon.e2e.test.ts): without chain access no default start is known; a start given in the
 * query places every slice; once the launch is known the placement is gone.
 */
describe('GET /projects/{slug}/simulation: the open market on the launch fee curve', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
  })
  afterEach(async () => {
    await h.destroy()
  })

  it('places each funded slice on Clanker’s reference curve, from the start the owner gives; refuses a malformed start; null after the launch', async () => {
    const owner = await approvedProject(h, 'alpha')
    const buyers = [await createKey(h, 'a'), await createKey(h, 'b')]
    const post = (apiKey: string, maxFdvUsdc: string | null) =>
      h.app.inject({
        method: 'POST',
        url: `${PREFIX}/orders`,
        headers: bearer(apiKey),
        payload: { items: [{ slug: 'alpha', maxSpendUsdc: '100', maxFdvUsdc, expiresInMs: 3_600_000 }] },
      })
    expect((await post(buyers[0]!.apiKey, '60000')).statusCode).toBe(200)
    expect((await post(buyers[1]!.apiKey, null)).statusCode).toBe(200)
    const keys = await h.services.keys.listKeys()
    for (const label of ['a', 'b']) h.wallets.setStable(keys.find((k) => k.label === label)!.userIndex, 'base', 70_000_000n)
    const simulate = (query = '') => h.app.inject({ method: 'GET', url: `${PREFIX}/projects/alpha/simulation${query}`, headers: bearer(owner.apiKey) })

    const unplaced = (await simulate()).json()
    expect(unplaced.openMarket).toMatchObject({
      launchpad: 'clanker',
      firstSwapAfterSeconds: 6,
      firstSwapFeePercent: '30.3844',
      settledAfterSeconds: 16,
      settledFeePercent: '1.1976',
      startFdvUsdc: null,
      startFdvSource: null,
    })
    // $60k at 30.3844% in fees: a spot FDV up to floor(60,000 * (1 - 1,600,260 / 5,266,710)) micro-USD; settled, 1.1976%.
    expect(unplaced.openMarket.slices).toEqual([
      {
        maxFdvUsdc: null,
        fundedSpendUsdc: '70',
        maxSpotFdvAtFirstSwapUsdc: null,
        maxSpotFdvSettledUsdc: null,
        eligibleAtStart: null,
        demandAheadUsdc: '0',
        effectiveCapWhenReachedUsdc: null,
      },
      {
        maxFdvUsdc: '60000',
        fundedSpendUsdc: '70',
        maxSpotFdvAtFirstSwapUsdc: '41769.339872',
        maxSpotFdvSettledUsdc: '59281.437125',
        eligibleAtStart: null,
        demandAheadUsdc: '70',
        // No chain access here: no default start, so no pool to walk (the devnet test walks Clanker's).
        effectiveCapWhenReachedUsdc: null,
      },
    ])

    const placed = (await simulate('?startFdvUsdc=45000')).json()
    expect(placed.openMarket).toMatchObject({ startFdvUsdc: '45000', startFdvSource: 'request' })
    // $45k spot: a $64.6k effective cap at 6 s, $56.7k at 8 s (20.6040%).
    expect(placed.openMarket.slices.map((s: { eligibleAtStart: unknown }) => s.eligibleAtStart)).toEqual([
      { block: 3, afterSeconds: 6, feePercent: '30.3844' },
      { block: 4, afterSeconds: 8, feePercent: '20.6040' },
    ])
    expect((await simulate('?startFdvUsdc=60000')).json().openMarket.slices[1].eligibleAtStart).toBeNull()

    for (const bad of ['', '-1', '0.0000001', '2000000000000000']) {
      const refused = await simulate(`?startFdvUsdc=${bad}`)
      expect(refused.statusCode, bad).toBe(400)
      expect(refused.json()).toMatchObject({ code: 'invalid_query' })
    }

    await markLaunched(h, 'alpha', {
      chain: 'base',
      tokenAddress: '0x00000000000000000000000000000000000a1fa0',
      symbol: 'A',
      name: 'A',
      decimals: 18,
      launchedAt: 1,
    })
    expect((await simulate()).json().openMarket).toBeNull()
  })

  it("a Clanker v5 project: placed on v5's reference curve (sniper fee 99% -> the 10% tax over 20 s, linear; no LP fee)", async () => {
    await h.services.reviews.submitRegistration(
      { projectName: 'Five', projectUrls: ['https://five.example'], projectInfo: 'Five.', contact: '@five', email: 'five@example.com' },
      '10.0.0.5',
    )
    const pending = (await h.services.reviews.list({ kind: 'registration', status: 'pending' })).at(-1)!
    const owner = await h.services.reviews.approveRegistration(pending.id, {
      slug: 'five',
      creatorAddress: '0x00000000000000000000000000000000000000c5',
      launchpad: 'clanker_v5',
      chain: 'base',
      label: 'owner-five',
    })
    const simulated = (await h.app.inject({ method: 'GET', url: `${PREFIX}/projects/five/simulation`, headers: bearer(owner.apiKey) })).json()
    // The first block after the launch (2 s): 990,000 - 890,000 * 2 / 20 = 901,000 pips; settled at 20 s on the tax.
    expect(simulated.openMarket).toMatchObject({
      launchpad: 'clanker_v5',
      firstSwapAfterSeconds: 2,
      firstSwapFeePercent: '90.1000',
      settledAfterSeconds: 20,
      settledFeePercent: '10.0000',
      startFdvSource: null,
    })
    expect(simulated.openMarket.reference).toContain('Clanker v5')
  })
})
