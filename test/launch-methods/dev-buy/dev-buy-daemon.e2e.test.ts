import { createPublicClient, erc20Abi, getAddress, http, isAddressEqual, parseUnits, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatDecimal } from '../../../src/domain/decimal.ts'
import { allocateDevBuy } from '../../../src/launch-methods/dev-buy/domain/dev-buy-allocation.ts'
import type { OrderRecord, ProjectRecord } from '../../../src/domain/records.ts'
import { openStore } from '../../../src/store/open-store.ts'
import { orderWriteOps } from '../../../src/store/order-writes.ts'
import { projectWriteOps } from '../../../src/store/project-writes.ts'
import { ConsoleHarness } from '../../console/console-harness.ts'
import { runCli } from '../../daemon/helpers.ts'

/**
 * The dev-buy launch end to end on a running daemon (devnet, real HTTP, real LevelDB, the daemon's own coordinator,
 * dev-buy worker, indexer and executor): a dev_buy project is approved on Clanker, its owner sets the token's
 * parameters, the operator (or the owner) asks to launch, and one transaction deploys the token with a block-zero buy
 * for the orders that can take part, split pro rata less 3%; the others stay active. A crash between submission and
 * receipt is reconciled from the chain without buying twice; a launch nobody can take part in ends not_launched.
 */
const USDC = 10n ** 6n
const HIGH_LIMIT = '10000000000' // $10B FDV: far above any launch price
const LOW_LIMIT = '1000' // $1,000 FDV: below any Clanker launch price

interface Buyer {
  apiKey: string
  wallet: Address
  keyId: string
}

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
type Json = any

describe('the dev-buy launch through the API and the CLI', () => {
  let h: ConsoleHarness
  const stable = () => h.daemon.chains.base.addresses.stablecoin
  const client = () => createPublicClient({ transport: http(h.daemon.chains.base.rpcUrl) })
  const balance = (of: Address, asset: Address) => client().readContract({ address: asset, abi: erc20Abi, functionName: 'balanceOf', args: [of] })
  /** Polls `read` until it answers (not undefined), or fails naming what never showed (and what was last seen). */
  const waitFor = async <T>(what: string | (() => string), read: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`never saw ${typeof what === 'string' ? what : what()}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  /** The project's devBuy once its state is `status`; an attempt that failed instead fails the wait at once. */
  const devBuyState = (slug: string, status: 'launched' | 'not_launched', newerThan = 0) => {
    let last: unknown
    return waitFor(
      () => `${slug}'s dev buy ${status} (last seen: ${JSON.stringify(last)})`,
      async () => {
        const answer = await h.call('GET', `/projects/${slug}`, viewer)
        if (answer.status !== 200) throw new Error(`GET /projects/${slug} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
        const devBuy = answer.body.devBuy
        last = devBuy?.state
        const state = devBuy?.state
        if (state?.status === 'retrying') throw new Error(`${slug}'s dev buy failed and waits to retry: ${state.reason}`)
        if (state?.status === status && Date.parse(state.at) >= newerThan) return devBuy as Json
        if (state && state.status !== 'launching' && state.status !== status) throw new Error(`${slug}'s dev buy ended ${state.status}: ${state.reason}`)
        return undefined
      },
    )
  }
  const buyer = async (slug: string, label: string, fund: string, order: { maxSpendUsdc: string; maxFdvUsdc: string | null }): Promise<Buyer> => {
    const created = await h.call('POST', '/api-keys', undefined, { label })
    if (fund !== '0') await h.admin.devnetFund({ address: created.body.serviceWalletAddress, chain: 'base', usdc: fund })
    const placed = await h.call('POST', '/orders', created.body.apiKey, { items: [{ slug, ...order, expiresInMs: 3_600_000 }] })
    expect(placed.body.results[0].ok, JSON.stringify(placed.body)).toBe(true)
    const keyId = (await h.admin.listKeys()).find((k) => k.label === label)!.keyId
    return { apiKey: created.body.apiKey as string, wallet: getAddress(created.body.serviceWalletAddress), keyId }
  }
  const orderOf = async (b: Buyer) => (await h.call('GET', '/orders', b.apiKey)).body.data[0]

  let projects = 0
  const creator = () => `0x${(0xde0b0 + ++projects).toString(16).padStart(40, '0')}`
  /** A registration approved as a dev_buy project on Clanker (base), with its owner's key. */
  const approve = async (name: string, slug: string) =>
    h.admin.approveRegistration(await h.submitRegistration(name), { slug, creator: creator(), launchpad: 'clanker', chain: 'base', method: 'dev_buy' })

  let ownerKey: string
  let ownerWallet: Address
  /**
   * A key that owns nothing: what anyone with a key sees of a project, and the stranger refused the owner's calls. The
   * daemon creates 10 keys an hour per IP: this one, 5 buyers of moon, 2 of low, 2 of crash (owners' keys come with
   * their approval).
   */
  let viewer: string

  beforeAll(async () => {
    h = await ConsoleHarness.start('dev-buy')
    viewer = (await h.call('POST', '/api-keys', undefined, { label: 'viewer' })).body.apiKey
  })
  afterAll(async () => {
    await h?.remove()
  })

  it('approves a dev_buy project on Clanker; on Zora it is refused (launch_method_unsupported)', async () => {
    const zora = await h.submitRegistration('Zoradev')
    await expect(
      h.admin.approveRegistration(zora, { slug: 'zoradev', creator: creator(), launchpad: 'zora', chain: 'base', method: 'dev_buy' }),
    ).rejects.toMatchObject({ code: 'launch_method_unsupported' })
    expect((await h.call('GET', '/projects/zoradev', viewer)).status).toBe(404)

    const approved = await approve('Moon', 'moon')
    ownerKey = approved.key.apiKey
    ownerWallet = getAddress(approved.key.serviceWalletAddress)
    const detail = (await h.call('GET', '/projects/moon', ownerKey)).body
    expect(detail.project).toMatchObject({ launchpad: 'clanker', chain: 'base', launchMethod: 'dev_buy' })
    expect(detail.devBuy).toBeNull()
    expect(detail.launch).toMatchObject({ status: 'pending', tokenAddress: null })
  })

  it('the owner sets the parameters (refused to a stranger, when invalid, and a launch before them); the operator sees them', async () => {
    const params = { name: 'Moon', symbol: 'MOON', metadata: 'the moon token' }
    const refused = await h.call('PATCH', '/projects/moon/dev-buy', viewer, params)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'not_project_owner' })
    for (const bad of [{ symbol: 'S'.repeat(17) }, { name: ' ' }, { tokenAdmin: '0x123' }]) {
      const answer = await h.call('PATCH', '/projects/moon/dev-buy', ownerKey, { ...params, ...bad })
      expect(answer.status, JSON.stringify(bad)).toBe(400)
    }
    const early = await h.call('POST', '/projects/moon/dev-buy/launch', ownerKey)
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ code: 'dev_buy_no_params' })

    // The launchpad settings: the owner's (checked as Clanker's locker and hook would), shown to the operator; then
    // replaced by parameters without them (the chain's defaults), which the launch below uses.
    const pool = {
      startingTick: -220_000,
      positions: [
        { tickLower: -220_000, tickUpper: -150_000, bps: 6_000 },
        { tickLower: -150_000, tickUpper: -120_000, bps: 4_000 },
      ],
      lpFeeBps: 200,
    }
    const shaped = await h.call('PATCH', '/projects/moon/dev-buy', ownerKey, { ...params, pool })
    expect(shaped.status, JSON.stringify(shaped.body)).toBe(200)
    expect(shaped.body.pool).toEqual(pool)
    const badPool = await h.call('PATCH', '/projects/moon/dev-buy', ownerKey, { ...params, pool: { ...pool, startingTick: -230_000 + 100 } })
    expect(badPool.status).toBe(400)
    expect(badPool.body).toMatchObject({ code: 'invalid_dev_buy_params', message: expect.stringContaining('multiple of the tick spacing 200') })
    // Issue 24: a start the factory refuses (its single range would need more than uint128 of liquidity) is refused
    // here, so the simulation never meets it.
    const farPool = { startingTick: 887_000, positions: [{ tickLower: 887_000, tickUpper: 887_200, bps: 10_000 }], lpFeeBps: 100 }
    const refusedFar = await h.call('PATCH', '/projects/moon/dev-buy', ownerKey, { ...params, pool: farPool })
    expect(refusedFar.status).toBe(400)
    expect(refusedFar.body).toMatchObject({ code: 'invalid_dev_buy_params', message: expect.stringContaining('more liquidity than a pool holds') })
    const cliShaped = await runCli(
      h.dataDir,
      ['devbuy', 'set', 'moon', '--name', 'Moon', '--symbol', 'MOON', '--starting-tick=-200000', '--position=-200000:-120000:10000', '--lp-fee-bps', '50'],
      { human: true },
    )
    expect(cliShaped.code, cliShaped.stderr).toBe(0)
    expect(cliShaped.stdout).toContain('Pool:        starting tick -200000, 50 bps LP fee, positions [-200000, -120000] 10000 bps')
    const cliBad = await runCli(
      h.dataDir,
      ['devbuy', 'set', 'moon', '--name', 'Moon', '--symbol', 'MOON', '--starting-tick=-200000', '--position=-200000:x:1'],
      {
        human: true,
      },
    )
    expect(cliBad.code).toBe(2)
    expect(cliBad.stderr).toContain('bad --position -200000:x:1: want LOWER:UPPER:BPS')

    const set = await h.call('PATCH', '/projects/moon/dev-buy', ownerKey, params)
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body).toMatchObject({
      ...params,
      pool: null,
      image: '',
      tokenAdmin: ownerWallet,
      requestedAt: null,
      state: null,
      launchId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
    expect((await h.call('GET', '/projects/moon', viewer)).body.devBuy).toEqual(set.body)

    const shown = await runCli<{ slug: string; devBuy: Json }>(h.dataDir, ['devbuy', 'show', 'moon'])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.json).toMatchObject({ slug: 'moon', devBuy: set.body })
    const human = await runCli(h.dataDir, ['devbuy', 'show', 'moon'], { human: true })
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toContain(`moon: Moon (MOON), token admin ${ownerWallet}`)
    expect(human.stdout).toContain("Pool:        the service's defaults")
    expect(human.stdout).toContain('Requested:   not yet (prebuy launches start moon)')
    expect(human.stdout).toContain('Launch:      not started')
  })

  // Set by the big test below, read by the idempotence test.
  let moon: { token: Address; devBuy: Json; buyers: Record<'a' | 'b' | 'c' | 'd' | 'e', Buyer> }

  it('launched by the operator: one buy for the orders whose limits allow, split pro rata less 3% at the balances of launch time; the others stay active; the indexer binds the token', async () => {
    const b = {
      a: await buyer('moon', 'moon-a', '1000', { maxSpendUsdc: '600', maxFdvUsdc: null }), // spends its cap
      b: await buyer('moon', 'moon-b', '400', { maxSpendUsdc: '1000', maxFdvUsdc: HIGH_LIMIT }), // spends its balance
      c: await buyer('moon', 'moon-c', '500', { maxSpendUsdc: '500', maxFdvUsdc: LOW_LIMIT }), // limit below the price: left out
      d: await buyer('moon', 'moon-d', '0', { maxSpendUsdc: '100', maxFdvUsdc: null }), // an empty wallet: left out
      e: await buyer('moon', 'moon-e', '800', { maxSpendUsdc: '800', maxFdvUsdc: null }), // withdraws $300 after the simulation
    }

    // The owner's simulation (and the operator's) shows the dev buy the launch would make now; a stranger sees nothing.
    expect((await h.call('GET', '/projects/moon/simulation', viewer)).status).toBe(403)
    const simulation = (await h.call('GET', '/projects/moon/simulation', ownerKey)).body
    const sim = simulation.devBuy
    expect(sim, JSON.stringify(simulation)).not.toBeNull()
    expect(sim.spendUsdc).toBe('1800')
    const spendOf = (list: { keyId: string; spendUsdc: string }[]) => Object.fromEntries(list.map((x) => [x.keyId, x.spendUsdc]))
    expect(spendOf(sim.allocations)).toEqual({ [b.a.keyId]: '600', [b.b.keyId]: '400', [b.e.keyId]: '800' })
    expect(sim.excluded).toEqual(
      expect.arrayContaining([
        { keyId: b.c.keyId, reason: 'limit_below_price' },
        { keyId: b.d.keyId, reason: 'nothing_to_spend' },
      ]),
    )
    expect(sim.excluded).toHaveLength(2)
    // The simulated split is the pure one on the simulated buy.
    const simulatedSplit = allocateDevBuy(
      parseUnits(sim.boughtTokens, 18),
      sim.allocations.map((x: { keyId: string; spendUsdc: string }) => ({ id: x.keyId, amount: parseUnits(x.spendUsdc, 6) })),
    )
    expect(sim.feeTokens).toBe(formatDecimal(simulatedSplit.fee, 18))
    expect(Object.fromEntries(sim.allocations.map((x: { keyId: string; tokens: string }) => [x.keyId, x.tokens]))).toEqual(
      Object.fromEntries(simulatedSplit.allocations.map((x) => [x.id, formatDecimal(x.tokens, 18)])),
    )
    expect(Number(sim.averageFdvUsdc)).toBeGreaterThan(Number(LOW_LIMIT))
    const simulated = await runCli(h.dataDir, ['launches', 'simulate', 'moon'], { human: true })
    expect(simulated.code, simulated.stderr).toBe(0)
    // The token's address is drawn secretly by the launch (a new salt per attempt): not shown before it.
    expect(sim.tokenAddress).toBeNull()
    expect(simulated.stdout).toContain('Dev buy: $1800 (')
    expect(simulated.stdout).toContain(`left out: ${b.c.keyId} (limit below price)`)
    expect(simulated.stdout).toContain(`left out: ${b.d.keyId} (nothing to spend)`)
    const simulatedJson = await runCli<{ devBuy: Json }>(h.dataDir, ['launches', 'simulate', 'moon']) // checked against its schema
    expect(simulatedJson.code, simulatedJson.stderr).toBe(0)
    expect(spendOf(simulatedJson.json.devBuy.allocations)).toEqual(spendOf(sim.allocations))

    // e withdraws $300 after the simulation: the launch uses the balances of its own moment.
    const withdrawal = await h.call('POST', '/wallet/withdrawals', b.e.apiKey, {
      tokenAddress: stable(),
      withdrawAddress: '0x00000000000000000000000000000000000e0e01',
      amount: '300',
    })
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(200)
    await waitFor("e's withdrawal on chain", async () => ((await balance(b.e.wallet, stable())) === 500n * USDC ? true : undefined))
    const usdcBefore = Object.fromEntries(await Promise.all(Object.entries(b).map(async ([k, x]) => [k, await balance(x.wallet, stable())] as const)))
    const spends = { a: 600n * USDC, b: 400n * USDC, e: 500n * USDC }

    // The operator launches from the terminal.
    const started = await runCli<{ devBuy: Json }>(h.dataDir, ['launches', 'start', 'moon'])
    expect(started.code, started.stderr).toBe(0)
    expect(started.json.devBuy.requestedAt).not.toBeNull()
    const devBuy = await devBuyState('moon', 'launched')
    const state = devBuy.state
    const token = getAddress(state.tokenAddress)
    // The token is deployed on chain, by the service's coordinator (the one the project records).
    expect(await client().getCode({ address: token })).toMatch(/^0x.+/)
    expect(state).toMatchObject({ spentUsdc: '1500', filledOrders: 3, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })

    // The chain's split is the pure one on what was bought, with the contributions of launch time.
    const bought = parseUnits(state.boughtTokens, 18)
    const split = allocateDevBuy(
      bought,
      (['a', 'b', 'e'] as const).map((k) => ({ id: k, amount: spends[k] })),
    )
    expect(parseUnits(state.feeTokens, 18)).toBe(split.fee)
    for (const k of ['a', 'b', 'e'] as const) {
      const tokens = split.allocations.find((x) => x.id === k)!.tokens
      expect(await balance(b[k].wallet, token), `${k}'s tokens`).toBe(tokens)
      expect(await balance(b[k].wallet, stable()), `${k}'s stablecoin`).toBe(usdcBefore[k]! - spends[k])
      const order = await orderOf(b[k])
      expect(order.status, k).toBe('filled')
      expect(order.execution, k).toMatchObject({ spentUsdc: formatDecimal(spends[k], 6), tokensReceived: tokens.toString(), txHash: state.txHash })
    }
    // Left out: still active, nothing spent, nothing received (the open market's rules apply to them now).
    for (const k of ['c', 'd'] as const) {
      expect((await orderOf(b[k])).status, k).toBe('active')
      expect(await balance(b[k].wallet, stable()), `${k}'s stablecoin`).toBe(usdcBefore[k])
      expect(await balance(b[k].wallet, token), `${k}'s tokens`).toBe(0n)
    }

    // The indexer binds the launch through the expected token the dev buy recorded.
    const launch = await waitFor('the indexer binding moon to its dev-buy token', async () => {
      const detail = (await h.call('GET', '/projects/moon', ownerKey)).body
      return detail.launch.status === 'launched' ? detail : undefined
    })
    expect(getAddress(launch.launch.tokenAddress)).toBe(token)
    expect(getAddress(launch.ownerStats.expectedTokenAddress)).toBe(token)
    expect(launch.stats).toMatchObject({ filledOrderCount: 3, filledSpendUsdc: '1500' })

    const human = await runCli(h.dataDir, ['devbuy', 'show', 'moon'], { human: true })
    expect(human.stdout).toContain(`Launch:      launched ${token} in ${state.txHash}: $1500 from 3 orders bought ${state.boughtTokens} MOON`)
    moon = { token, devBuy: (await h.call('GET', '/projects/moon', viewer)).body.devBuy, buyers: b }
  })

  it('asking to launch again (API and CLI) changes nothing; the parameters no longer change', async () => {
    expect(moon, 'the launch test ran first').toBeDefined()
    const again = await h.call('POST', '/projects/moon/dev-buy/launch', ownerKey)
    expect(again.status).toBe(202)
    expect(again.body).toEqual(moon.devBuy)
    const cli = await runCli<{ devBuy: Json }>(h.dataDir, ['launches', 'start', 'moon'])
    expect(cli.code, cli.stderr).toBe(0)
    expect(cli.json.devBuy).toEqual(moon.devBuy)
    const patched = await h.call('PATCH', '/projects/moon/dev-buy', ownerKey, { name: 'Moon 2', symbol: 'MOON2' })
    expect(patched.status).toBe(409)
    expect(patched.body).toMatchObject({ code: 'dev_buy_launched' })
    const cliSet = await runCli(h.dataDir, ['devbuy', 'set', 'moon', '--name', 'Moon 2', '--symbol', 'MOON2'], { human: true })
    expect(cliSet.code).toBe(1)
    expect((await h.call('GET', '/projects/moon', viewer)).body.devBuy).toEqual(moon.devBuy)
    expect(await client().readContract({ address: moon.token, abi: erc20Abi, functionName: 'symbol' })).toBe('MOON')
    // Launched: the simulation has no dev buy left to show.
    const simulation = await h.call('GET', '/projects/moon/simulation', ownerKey)
    expect(simulation.status).toBe(200)
    expect(simulation.body.devBuy).toBeNull()
    const simulated = await runCli(h.dataDir, ['launches', 'simulate', 'moon'], { human: true })
    expect(simulated.stdout).toContain('Dev buy: no launch parameters yet, or launched already (prebuy devbuy show)')
  })

  it('a left-out order buys on the open market once it can (its wallet funded after the launch); one below its limit does not', async () => {
    expect(moon, 'the launch test ran first').toBeDefined()
    const { c, d } = moon.buyers
    await h.admin.devnetFund({ address: d.wallet, chain: 'base', usdc: '100' })
    // A trade on the pool makes a price tick: the executor looks at the project's active orders again.
    await h.admin.devnetSwap({ token: moon.token, usdc: '5', chain: 'base' })
    const filled = await waitFor("d's order filled on the open market", async () => {
      const order = await orderOf(d)
      return order.status === 'filled' ? order : undefined
    })
    expect(filled.execution.txHash).not.toBe(moon.devBuy.state.txHash)
    expect(await balance(d.wallet, moon.token)).toBe(BigInt(filled.execution.tokensReceived))
    expect(await balance(d.wallet, stable())).toBe(100n * USDC - parseUnits(filled.execution.spentUsdc, 6))
    expect((await orderOf(c)).status).toBe('active')
    expect(await balance(c.wallet, moon.token)).toBe(0n)
  })

  it('a simulation the chain would refuse (a pool shape stored before the check refused it) answers 409 dev_buy_would_revert, never a 500', async () => {
    const approved = await approve('Far', 'far')
    expect((await h.call('PATCH', '/projects/far/dev-buy', approved.key.apiKey, { name: 'Far', symbol: 'FAR' })).status).toBe(200)
    // As a record written before issue 24's check: the start of 887,000, which the factory's LP locker refuses.
    await h.stop()
    const store = await openStore({ dataDir: h.dataDir })
    try {
      const project = (await store.sub.projects.get('far')) as ProjectRecord
      const pool = { startingTick: 887_000, positions: [{ tickLower: 887_000, tickUpper: 887_200, bps: 10_000 }], lpFeePips: 10_000 }
      const devBuy = { ...project.devBuy!, params: { ...project.devBuy!.params!, pool } }
      await store.batch(projectWriteOps(store, project, { ...project, devBuy }))
    } finally {
      await store.close()
    }
    await h.restart()
    const simulated = await h.call('GET', '/projects/far/simulation', approved.key.apiKey)
    expect(simulated.status, JSON.stringify(simulated.body)).toBe(409)
    expect(simulated.body).toMatchObject({ code: 'dev_buy_would_revert', details: { stage: 'deployment' } })
    expect(simulated.body.message).toMatch(/would revert/)
  })

  it('a launch no order can take part in (every limit below the price) ends not_launched with the reason; the orders stay active; it can be asked again', async () => {
    const approved = await approve('Low', 'low')
    const x = await buyer('low', 'low-x', '300', { maxSpendUsdc: '300', maxFdvUsdc: LOW_LIMIT })
    const y = await buyer('low', 'low-y', '200', { maxSpendUsdc: '200', maxFdvUsdc: '500' })
    expect((await h.call('PATCH', '/projects/low/dev-buy', approved.key.apiKey, { name: 'Low', symbol: 'LOW' })).status).toBe(200)
    const asked = await h.call('POST', '/projects/low/dev-buy/launch', approved.key.apiKey)
    expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    expect(asked.body.requestedAt).not.toBeNull()

    const first = await devBuyState('low', 'not_launched')
    expect(first.state.reason).toContain('limit_below_price')
    expect(first.state.tokenAddress).toBeNull()
    expect(first.requestedAt).toBeNull()
    for (const b of [x, y]) expect((await orderOf(b)).status).toBe('active')
    expect(await balance(x.wallet, stable())).toBe(300n * USDC)
    expect(await balance(y.wallet, stable())).toBe(200n * USDC)
    expect((await h.call('GET', '/projects/low', viewer)).body.launch.status).toBe('pending')

    // Asked again (by the operator this time): the worker tries again, with the same outcome.
    const again = await runCli<{ devBuy: Json }>(h.dataDir, ['launches', 'start', 'low'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.json.devBuy).toMatchObject({ requestedAt: expect.any(String), state: null })
    const second = await devBuyState('low', 'not_launched', Date.parse(again.json.devBuy.requestedAt))
    expect(second.state.reason).toContain('limit_below_price')
    for (const b of [x, y]) expect((await orderOf(b)).status).toBe('active')
  })

  describe('a crash between the launch and the record of its outcome', () => {
    let crash: { ownerKey: string; buyers: Buyer[]; token: Address; txHash: string; executions: Record<string, Json>; tokens: bigint[]; usdc: bigint[] }

    beforeAll(async () => {
      const approved = await approve('Crash', 'crash')
      const buyers = [
        await buyer('crash', 'crash-a', '300', { maxSpendUsdc: '300', maxFdvUsdc: null }),
        await buyer('crash', 'crash-b', '200', { maxSpendUsdc: '200', maxFdvUsdc: HIGH_LIMIT }),
      ]
      // Parameters set by the operator on the owner's behalf; the launch asked by the owner.
      const set = await runCli(h.dataDir, ['devbuy', 'set', 'crash', '--name', 'Crash', '--symbol', 'CRSH'])
      expect(set.code, set.stderr).toBe(0)
      expect((await h.call('POST', '/projects/crash/dev-buy/launch', approved.key.apiKey)).status).toBe(202)
      const devBuy = await devBuyState('crash', 'launched')
      const token = getAddress(devBuy.state.tokenAddress)
      const executions: Record<string, Json> = {}
      for (const b of buyers) executions[b.keyId] = (await orderOf(b)).execution
      crash = {
        ownerKey: approved.key.apiKey,
        buyers,
        token,
        txHash: devBuy.state.txHash,
        executions,
        tokens: await Promise.all(buyers.map((b) => balance(b.wallet, token))),
        usdc: await Promise.all(buyers.map((b) => balance(b.wallet, stable()))),
      }
      expect(crash.tokens.every((t) => t > 0n)).toBe(true)
      expect(crash.usdc).toEqual([0n, 0n])
    })

    it.each([
      ['after its hash was recorded (the transaction is looked up)', true],
      ['before its hash was recorded, in a record without its buyers (the launch log is searched from block 0)', false],
    ])('%s: reconciled from the chain, the orders filled once with the same execution, nothing bought twice', async (_, recorded) => {
      // Put the store back to the state a crash after submission leaves: the launch `launching` (with the transaction's
      // hash when it had been recorded), the filled orders `executing` again with no execution.
      await h.stop()
      const store = await openStore({ dataDir: h.dataDir })
      const since = Date.now()
      try {
        const project = (await store.sub.projects.get('crash')) as ProjectRecord
        expect(project.devBuy?.state?.status).toBe('launched')
        const filled: OrderRecord[] = []
        for await (const order of store.sub.orders.values()) if (order.slug === 'crash' && order.status === 'filled') filled.push(order)
        expect(filled).toHaveLength(2)
        // With the hash, the state as this daemon writes it (naming its buyers' keys); without, as older records have it.
        const launching = {
          status: 'launching' as const,
          since,
          ...(recorded ? { txHash: crash.txHash, orderKeyIds: filled.map((o) => o.keyId) } : {}),
        }
        await store.batch(projectWriteOps(store, project, { ...project, devBuy: { ...project.devBuy!, state: launching } }))
        // Through the one write path, by moves it allows (filled -> active is a reorg's undo, then active -> executing).
        for (const order of filled) {
          const { execution: _dropped, ...unfilled } = order
          const active: OrderRecord = { ...unfilled, status: 'active' }
          await store.batch(orderWriteOps(store, order, active, { writer: 'executor', followers: 0 }))
          await store.batch(orderWriteOps(store, active, { ...active, status: 'executing' }, { writer: 'executor', followers: 0 }))
        }
      } finally {
        await store.close()
      }
      await h.restart()

      const devBuy = await devBuyState('crash', 'launched', since)
      expect(devBuy.state).toMatchObject({ txHash: crash.txHash, filledOrders: 2 })
      expect(getAddress(devBuy.state.tokenAddress)).toBe(crash.token)
      const orders = (await h.admin.listOrders({ project: 'crash' })).filter((o) => o.status === 'filled')
      expect(orders).toHaveLength(2)
      for (const b of crash.buyers) {
        const order = await orderOf(b)
        expect(order.status).toBe('filled')
        const { executedAt: _a, ...was } = crash.executions[b.keyId]
        const { executedAt: _b, ...now } = order.execution
        expect(now).toEqual(was)
      }
      // Nothing moved again.
      expect(await Promise.all(crash.buyers.map((b) => balance(b.wallet, crash.token)))).toEqual(crash.tokens)
      expect(await Promise.all(crash.buyers.map((b) => balance(b.wallet, stable())))).toEqual(crash.usdc)
      // The first launch's buyers are where it left them too.
      for (const k of ['a', 'b', 'e'] as const) expect((await orderOf(moon.buyers[k])).status).toBe('filled')
      expect(isAddressEqual((await h.call('GET', '/projects/moon', viewer)).body.devBuy.state.tokenAddress, moon.token)).toBe(true)
    })
  })
})
