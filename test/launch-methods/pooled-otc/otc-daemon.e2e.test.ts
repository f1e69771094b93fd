import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, parseUnits, type Abi, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import tokenArtifact from '../../../devnet/contracts/artifacts/DevnetLaunchToken.json' with { type: 'json' }
import { chainFromConfig } from '../../../src/chain/clients.ts'
import { devAccounts } from '../../../devnet/chain/devnet-accounts.ts'
import type { OrderRecord, ProjectRecord } from '../../../src/domain/records.ts'
import { formatDecimal } from '../../../src/domain/decimal.ts'
import { settleOtc } from '../../../src/launch-methods/pooled-otc/domain/otc-fill.ts'
import { otcOfferId } from '../../../src/launch-methods/pooled-otc/otc-service.ts'
import { maxSpotFdvFor } from '../../../src/launch-methods/open-market/domain/fee-curve-placement.ts'
import { readEthUsd } from '../../../src/chain/read-eth-usd.ts'
import { clankerDefaultStartFdv, clankerReferencePool } from '../../../src/launchpads/reference-launch.ts'
import { demandOnPool } from '../../../src/launch-methods/open-market/domain/demand-on-pool.ts'
import { clankerTotalFeeFraction } from '../../../src/pricing/fee-fraction.ts'
import { openStore } from '../../../src/store/open-store.ts'
import { orderWriteOps } from '../../../src/store/order-writes.ts'
import { projectWriteOps } from '../../../src/store/project-writes.ts'
import { ConsoleHarness } from '../../console/console-harness.ts'
import { runCli } from '../../daemon/helpers.ts'

/**
 * Pooled OTC end to end on a running daemon (devnet, real HTTP, real LevelDB, the daemon's own settlement contract and
 * worker): a pooled_otc project is approved, its owner sets the offer and deposits from its wallet through the API,
 * buyers' orders settle in one transaction at the settlement time, and a crash between submission and the record of
 * the outcome is reconciled from the chain without paying twice.
 */
const token = tokenArtifact as unknown as { abi: Abi; bytecode: Hex }
const USDC = 10n ** 6n
const TOKEN = 10n ** 18n

describe('pooled OTC through the API', () => {
  let h: ConsoleHarness
  let ownerKey: string
  let ownerWallet: Address
  let tokenAddress: Address
  const client = () => createPublicClient({ transport: http(h.daemon.chains.base.rpcUrl) })
  const balance = (of: Address, asset: Address) => client().readContract({ address: asset, abi: erc20Abi, functionName: 'balanceOf', args: [of] })
  const waitFor = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`never saw ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  const buyer = async (label: string, fund: string, order: { maxSpendUsdc: string; maxFdvUsdc: string | null }) => {
    const created = await h.call('POST', '/api-keys', undefined, { label })
    if (fund !== '0') await h.admin.devnetFund({ address: created.body.serviceWalletAddress, chain: 'base', usdc: fund })
    const placed = await h.call('POST', '/orders', created.body.apiKey, { items: [{ slug: 'otc', ...order, expiresInMs: 3_600_000 }] })
    expect(placed.body.results[0].ok).toBe(true)
    return { apiKey: created.body.apiKey as string, wallet: created.body.serviceWalletAddress as Address }
  }

  /** A registration approved as `slug` (a Clanker project on base, its own creator), with its owner's key. */
  let projects = 0
  const approve = async (name: string, slug: string, method?: 'pooled_otc') =>
    h.admin.approveRegistration(await h.submitRegistration(name), {
      slug,
      creator: `0x${(0xc0de0 + ++projects).toString(16).padStart(40, '0')}`,
      launchpad: 'clanker',
      chain: 'base',
      ...(method ? { method } : {}),
    })
  /** A project token, its whole supply minted to `holder` (an owner transfers it to its wallet on a real chain). */
  const deployToken = async (name: string, symbol: string, supply: string, holder: Address): Promise<Address> => {
    const chain = h.daemon.chains.base
    const deployer = createWalletClient({ chain: chainFromConfig(chain), account: devAccounts()[7]!.account, transport: http(chain.rpcUrl) })
    const hash = await deployer.deployContract({ abi: token.abi, bytecode: token.bytecode, args: [name, symbol, parseUnits(supply, 18), holder] })
    return (await client().waitForTransactionReceipt({ hash })).contractAddress!
  }

  beforeAll(async () => {
    h = await ConsoleHarness.start('otc')
    const approved = await approve('Otc', 'otc', 'pooled_otc')
    ownerKey = approved.key.apiKey
    ownerWallet = approved.key.serviceWalletAddress as Address
    tokenAddress = await deployToken('Otc Coin', 'OTC', '1000000000', ownerWallet)
  })
  afterAll(async () => {
    await h?.remove()
  })

  it('the owner sets the offer and deposits; at the settlement time the orders fill in one transaction; the project is paid', async () => {
    const offer = { fdvUsdc: '1000000', tokenAddress, tokenAmount: '10000000', settleAt: new Date(Date.now() + 600_000).toISOString() }
    // Only the owner, only valid terms.
    const stranger = await h.call('POST', '/api-keys', undefined, { label: 'stranger' })
    expect((await h.call('PATCH', '/projects/otc/otc', stranger.body.apiKey, offer)).body).toMatchObject({ error: 'Forbidden' })
    expect((await h.call('PATCH', '/projects/otc/otc', ownerKey, { ...offer, tokenAmount: '2000000000' })).status).toBe(400)
    expect((await h.call('PATCH', '/projects/otc/otc', ownerKey, { ...offer, settleAt: '2001-01-01T00:00:00Z' })).status).toBe(400)
    expect((await h.call('POST', '/projects/otc/otc/deposit', ownerKey)).status).toBe(409) // no offer yet

    // Settling 15 s from now: room for the buyers and the deposit before it on a busy machine (a late deposit only
    // delays the settlement: it runs once both the time has come and the tokens are in).
    const set = await h.call('PATCH', '/projects/otc/otc', ownerKey, { ...offer, settleAt: new Date(Date.now() + 15_000).toISOString() })
    // The owner's offer waits for the operator; no order predates it, so it is in force once confirmed (docs/owner-changes.md).
    expect(set.status).toBe(202)
    expect((await h.admin.confirmChange('otc')).outcome).toBe('in_force')
    expect(set.body).toMatchObject({
      offerId: otcOfferId('otc'),
      fdvUsdc: '1000000',
      tokenSymbol: 'OTC',
      tokenAmount: '10000000',
      deposited: false,
      settlement: null,
    })

    // $10,000 of tokens offered; $12,000 of eligible demand (11,000 once b withdraws): oversubscribed, scaled down.
    const a = await buyer('otc-a', '8000', { maxSpendUsdc: '8000', maxFdvUsdc: null })
    const b = await buyer('otc-b', '4000', { maxSpendUsdc: '5000', maxFdvUsdc: '2000000' }) // spends its balance
    const c = await buyer('otc-c', '1000', { maxSpendUsdc: '1000', maxFdvUsdc: '500000' }) // limit below the OTC FDV
    const d = await buyer('otc-d', '0', { maxSpendUsdc: '1000', maxFdvUsdc: null }) // an empty wallet
    const usdcBefore = { owner: await balance(ownerWallet, h.daemon.chains.base.addresses.stablecoin) }
    // The pure rule is the reference: each buyer pays its tokens at the OTC price, rounded up by less than one atom.
    const terms = { fdv: 1_000_000n * USDC, totalSupply: 1_000_000_000n * TOKEN, offered: 10_000_000n * TOKEN }
    const book = [
      { id: 'a', limitFdv: null, maxSpend: 8_000n * USDC, balance: 8_000n * USDC },
      { id: 'b', limitFdv: 2_000_000n * USDC, maxSpend: 5_000n * USDC, balance: 4_000n * USDC },
      { id: 'c', limitFdv: 500_000n * USDC, maxSpend: 1_000n * USDC, balance: 1_000n * USDC },
      { id: 'd', limitFdv: null, maxSpend: 1_000n * USDC, balance: 0n },
    ]
    const simulatedPlan = settleOtc(terms, book)

    // The owner's simulation (and the operator's) shows this settlement before it happens, and the open-market demand.
    expect((await h.call('GET', '/projects/otc/simulation', stranger.body.apiKey)).status).toBe(403)
    const simulation = (await h.call('GET', '/projects/otc/simulation', ownerKey)).body
    expect(simulation.demand).toEqual([
      { maxFdvUsdc: null, orderCount: 2, fundedSpendUsdc: '8000', eligibleFundedSpendUsdc: '8000' },
      { maxFdvUsdc: '2000000', orderCount: 1, fundedSpendUsdc: '4000', eligibleFundedSpendUsdc: '12000' },
      { maxFdvUsdc: '500000', orderCount: 1, fundedSpendUsdc: '1000', eligibleFundedSpendUsdc: '13000' },
    ])
    expect(simulation.otc).toMatchObject({ demandUsdc: '12000', oversubscribed: true, offeredTokens: '10000000' })
    expect(simulation.otc.fills.map((f: { spendUsdc: string }) => f.spendUsdc).sort()).toEqual(simulatedPlan.fills.map((f) => formatDecimal(f.spend, 6)).sort())
    expect(simulation.otc.skipped.map((x: { reason: string }) => x.reason).sort()).toEqual(['limit_below_otc', 'no_balance'])
    const simulated = await runCli(h.dataDir, ['launches', 'simulate', 'otc'], { human: true })
    expect(simulated.code, simulated.stderr).toBe(0)
    expect(simulated.stdout).toContain('OTC at an FDV of $1000000: demand $12000 for 10000000 tokens (oversubscribed: scaled down pro rata)')
    expect((await runCli(h.dataDir, ['launches', 'simulate', 'otc'])).code).toBe(0) // --json, checked against its schema

    // The same demand on Clanker's launch fee curve: plain buys from 6 s (after the two auction blocks), settled on the
    // 1% LP fee (1.1976% with the protocol fee) at 16 s; placed from Clanker's default start at ETH's price now.
    const defaultStart = clankerDefaultStartFdv(await readEthUsd(client(), h.daemon.chains.base))
    const settledFee = clankerTotalFeeFraction(10_000)
    expect(simulation.openMarket).toMatchObject({
      launchpad: 'clanker',
      blockSeconds: 2,
      firstSwapAfterSeconds: 6,
      settledAfterSeconds: 16,
      settledFeePercent: '1.1976',
      startFdvUsdc: formatDecimal(defaultStart, 6),
      startFdvSource: 'launchpad_default',
    })
    // On Clanker's default pool at ETH's price now: the cap each slice meets after the demand ahead of it has bought.
    const onPool = demandOnPool(clankerReferencePool(await readEthUsd(client(), h.daemon.chains.base)), [
      { spend: 8_000n * USDC },
      { spend: 4_000n * USDC },
      { spend: 1_000n * USDC },
    ])
    const capAt = (i: number) => formatDecimal(onPool[i]!.capWhenReached!, 6)
    type Slice = { demandAheadUsdc: string; effectiveCapWhenReachedUsdc: string | null }
    expect(simulation.openMarket.slices.map((x: Slice) => [x.demandAheadUsdc, x.effectiveCapWhenReachedUsdc])).toEqual([
      ['0', capAt(0)],
      ['8000', capAt(1)],
      ['12000', capAt(2)],
    ])
    expect(simulation.openMarket.slices.map(({ demandAheadUsdc, effectiveCapWhenReachedUsdc, ...rest }: Slice) => rest)).toEqual([
      {
        maxFdvUsdc: null,
        fundedSpendUsdc: '8000',
        maxSpotFdvAtFirstSwapUsdc: null,
        maxSpotFdvSettledUsdc: null,
        eligibleAtStart: { block: 3, afterSeconds: 6, feePercent: '30.3844' },
      },
      {
        maxFdvUsdc: '2000000',
        fundedSpendUsdc: '4000',
        maxSpotFdvAtFirstSwapUsdc: formatDecimal(maxSpotFdvFor(2_000_000n * USDC, clankerTotalFeeFraction(266_710)), 6),
        maxSpotFdvSettledUsdc: formatDecimal(maxSpotFdvFor(2_000_000n * USDC, settledFee), 6),
        eligibleAtStart: { block: 3, afterSeconds: 6, feePercent: '30.3844' },
      },
      {
        maxFdvUsdc: '500000',
        fundedSpendUsdc: '1000',
        maxSpotFdvAtFirstSwapUsdc: formatDecimal(maxSpotFdvFor(500_000n * USDC, clankerTotalFeeFraction(266_710)), 6),
        maxSpotFdvSettledUsdc: formatDecimal(maxSpotFdvFor(500_000n * USDC, settledFee), 6),
        eligibleAtStart: { block: 3, afterSeconds: 6, feePercent: '30.3844' },
      },
    ])
    // From a $1.5M start: the $2M slice waits for the fee to fall to 20.6% (8 s); the $500k one waits for the price.
    const fromStart = (await h.call('GET', '/projects/otc/simulation?startFdvUsdc=1500000', ownerKey)).body
    expect(fromStart.openMarket).toMatchObject({ startFdvUsdc: '1500000', startFdvSource: 'request' })
    // The pool behind another start is the launcher's choice: no cap on the curve is claimed for it.
    expect(fromStart.openMarket.slices.map((x: Slice) => x.effectiveCapWhenReachedUsdc)).toEqual([null, null, null])
    expect(fromStart.openMarket.slices.map((x: { eligibleAtStart: unknown }) => x.eligibleAtStart)).toEqual([
      { block: 3, afterSeconds: 6, feePercent: '30.3844' },
      { block: 4, afterSeconds: 8, feePercent: '20.6040' },
      null,
    ])
    for (const bad of ['-5', 'abc', '0', '1e6', '1.1234567']) {
      const refused = await h.call('GET', `/projects/otc/simulation?startFdvUsdc=${bad}`, ownerKey)
      expect(refused.status, bad).toBe(400)
      expect(refused.body).toMatchObject({ code: 'invalid_query' })
    }
    const placed = await runCli(h.dataDir, ['launches', 'simulate', 'otc', '--start-fdv', '1500000'], { human: true })
    expect(placed.code, placed.stderr).toBe(0)
    expect(placed.stdout).toContain('first buys 6 s after launch at 30.3844% in fees, 1.1976% from 16 s; from a starting FDV of $1500000:')
    expect(placed.stdout).toMatch(/\$2000000 +4000 .*\+8 s \(20\.6040%\)/)
    expect(placed.stdout).toMatch(/\$500000 +1000 .*waits for the price/)
    const refusedCli = await runCli(h.dataDir, ['launches', 'simulate', 'otc', '--start-fdv', 'abc'], { human: true })
    expect(refusedCli.code).not.toBe(0)
    expect(refusedCli.stderr).toContain('startFdvUsdc')

    // b withdraws $1,000 after the simulation: the settlement uses the balances of its own moment, not the simulation's.
    const withdrawal = await h.call('POST', '/wallet/withdrawals', b.apiKey, {
      tokenAddress: h.daemon.chains.base.addresses.stablecoin,
      withdrawAddress: '0x00000000000000000000000000000000000b0b01',
      amount: '1000',
    })
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(200)
    const plan = settleOtc(terms, [...book.slice(0, 1), { ...book[1]!, balance: 3_000n * USDC }, ...book.slice(2)])

    const deposited = await h.call('POST', '/projects/otc/otc/deposit', ownerKey)
    expect(deposited.status).toBe(200)
    expect(deposited.body.deposited).toBe(true)
    expect(await balance(ownerWallet, tokenAddress)).toBe(1_000_000_000n * TOKEN - 10_000_000n * TOKEN)
    expect((await h.call('PATCH', '/projects/otc/otc', ownerKey, offer)).body).toMatchObject({ error: 'Conflict' })
    // Idempotent: a second deposit call returns the offer as it is.
    expect((await h.call('POST', '/projects/otc/otc/deposit', ownerKey)).body.deposited).toBe(true)

    const settled = await waitFor('the settlement', async () => {
      const detail = await h.call('GET', '/projects/otc', ownerKey)
      return detail.body.otc?.settlement?.status === 'settled' ? detail.body.otc : undefined
    })
    const proceeds = plan.fills.reduce((sum, fill) => sum + fill.spend, 0n)
    expect(settled.settlement).toMatchObject({ proceedsUsdc: formatDecimal(proceeds, 6), filledOrders: 2, txHash: expect.stringMatching(/^0x/) })

    const orderOf = async (apiKey: string) => (await h.call('GET', '/orders', apiKey)).body.data[0]
    const [orderA, orderB, orderC] = [await orderOf(a.apiKey), await orderOf(b.apiKey), await orderOf(c.apiKey)]
    expect(orderA.status).toBe('filled')
    expect(orderB.status).toBe('filled')
    expect(orderC.status).toBe('active')
    expect((await orderOf(d.apiKey)).status).toBe('active')
    // Pro rata: a gets 8/11 of the 10M tokens, b 3/11, each less 3% of its tokens as the fee.
    for (const [fill, wallet] of [
      [plan.fills[0]!, a.wallet],
      [plan.fills[1]!, b.wallet],
    ] as const) {
      expect(await balance(wallet, tokenAddress)).toBe(fill.credited)
    }
    expect(orderA.execution).toMatchObject({ spentUsdc: formatDecimal(plan.fills[0]!.spend, 6), tokensReceived: plan.fills[0]!.credited.toString() })
    expect(await balance(c.wallet, tokenAddress)).toBe(0n)
    expect(await balance(c.wallet, h.daemon.chains.base.addresses.stablecoin)).toBe(1_000n * USDC)
    expect(await balance(ownerWallet, h.daemon.chains.base.addresses.stablecoin)).toBe(usdcBefore.owner + proceeds)

    // The operator sees the same in the terminal.
    const shown = await runCli<{ otc: { settlement: { status: string } } }>(h.dataDir, ['otc', 'show', 'otc'])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.json.otc.settlement.status).toBe('settled')
    const human = await runCli(h.dataDir, ['otc', 'show', 'otc'], { human: true })
    expect(human.stdout).toContain(`otc: 10000000 OTC (${getAddress(tokenAddress)}) at an FDV of $1000000`)
    expect(human.stdout).toMatch(/Settlement: {2}settled in 0x[0-9a-f]{64}: [\d.]+ OTC sold to 2 orders for \$[\d.]+, [\d.]+ returned/)
  })

  it('refuses an offer on a project that is not pooled_otc, and a deposit from an owner wallet without the tokens (nothing sent)', async () => {
    const open = await approve('Plain', 'plain')
    const offer = { fdvUsdc: '1000000', tokenAddress, tokenAmount: '1000', settleAt: new Date(Date.now() + 600_000).toISOString() }
    const refused = await h.call('PATCH', '/projects/plain/otc', open.key.apiKey, offer)
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'not_otc_project' })

    const empty = await approve('Empty', 'empty', 'pooled_otc')
    // Set by the operator from the CLI, on the owner's behalf; the deposit is refused the same way both ways.
    const set = await runCli(h.dataDir, ['otc', 'set', 'empty', '--token', tokenAddress, '--amount', '1000', '--fdv', '1000000', '--settle-at', offer.settleAt])
    expect(set.code, set.stderr).toBe(0)
    const cliDeposit = await runCli(h.dataDir, ['otc', 'deposit', 'empty'], { human: true })
    expect(cliDeposit.code).toBe(1)
    // One error (oclif wraps it at the terminal width).
    expect(cliDeposit.stderr.trim().replace(/\s+/g, ' ')).toMatch(/^Error: The owner's wallet 0x[0-9a-fA-F]{40} holds 0 OTC on base; the offer needs 1000\.$/)
    const deposit = await h.call('POST', '/projects/empty/otc/deposit', empty.key.apiKey)
    expect(deposit.status).toBe(400)
    expect(deposit.body).toMatchObject({ code: 'insufficient_token_balance', message: expect.stringContaining('holds 0 OTC on base; the offer needs 1000') })
    expect((await h.call('GET', '/projects/empty', empty.key.apiKey)).body.otc).toMatchObject({ deposited: false, settlement: null })
  })

  it('the owner withdraws a deposited offer before it settles: the tokens return to its wallet, the next offer has a new id; a settled one cannot be withdrawn', async () => {
    const approved = await approve('Later', 'later', 'pooled_otc')
    const wallet = approved.key.serviceWalletAddress as Address
    const laterToken = await deployToken('Later Coin', 'LTR', '1000', wallet)
    const offer = { fdvUsdc: '1000000', tokenAddress: laterToken, tokenAmount: '400', settleAt: new Date(Date.now() + 3_600_000).toISOString() }
    const first = (await h.call('PATCH', '/projects/later/otc', approved.key.apiKey, offer)).body
    await h.admin.confirmChange('later')
    expect((await h.call('POST', '/projects/later/otc/deposit', approved.key.apiKey)).body.deposited).toBe(true)
    expect(await balance(wallet, laterToken)).toBe(600n * TOKEN)

    const cancelled = await h.call('DELETE', '/projects/later/otc', approved.key.apiKey)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.settlement).toMatchObject({ status: 'cancelled' })
    expect(await balance(wallet, laterToken)).toBe(1_000n * TOKEN)
    expect((await h.call('DELETE', '/projects/later/otc', approved.key.apiKey)).status).toBe(200) // idempotent
    const second = (await h.call('PATCH', '/projects/later/otc', approved.key.apiKey, offer)).body
    await h.admin.confirmChange('later')
    expect(second).toMatchObject({ deposited: false, settlement: null })
    expect(second.offerId).not.toBe(first.offerId)
    // The new offer deposits under its new id (the cancelled one is closed on chain for good).
    expect((await h.call('POST', '/projects/later/otc/deposit', approved.key.apiKey)).body.deposited).toBe(true)

    // The settled offer of the first test cannot be withdrawn, from the API or the CLI.
    const refused = await h.call('DELETE', '/projects/otc/otc', ownerKey)
    expect(refused).toMatchObject({ status: 409, body: { code: 'otc_settled' } })
    const cli = await runCli(h.dataDir, ['otc', 'cancel', 'otc'], { human: true })
    expect(cli.code).toBe(1)
    expect(cli.stderr.replace(/\s+/g, ' ')).toContain('The offer is settled: the project sold by OTC already.')
  })

  it.each([
    ['after its hash was recorded (the transaction is looked up)', true],
    ['before its hash was recorded (the settlement log is searched)', false],
  ])('a crash while the settlement is awaited, %s, is reconciled from the chain: the orders filled once, nothing paid twice', async (_, recorded) => {
    // Put the store back to the state a crash while the settlement was awaited leaves: the offer `settling` (with the
    // transaction's hash when it had been recorded), the filled orders `executing` again with no execution record.
    const tokensBefore = await balance(ownerWallet, tokenAddress)
    await h.stop()
    const store = await openStore({ dataDir: h.dataDir })
    let txHash: string
    try {
      const project = (await store.sub.projects.get('otc')) as ProjectRecord
      txHash = (project.otc!.settlement as { txHash: string }).txHash
      const settling = { status: 'settling' as const, since: Date.now(), ...(recorded ? { txHash } : {}) }
      await store.batch(projectWriteOps(store, project, { ...project, otc: { ...project.otc!, settlement: settling } }))
      const filled: OrderRecord[] = []
      for await (const order of store.sub.orders.values()) if (order.slug === 'otc' && order.status === 'filled') filled.push(order)
      expect(filled).toHaveLength(2)
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
    const settled = await waitFor('the reconciliation', async () => {
      const detail = await h.call('GET', '/projects/otc', ownerKey)
      return detail.body.otc?.settlement?.status === 'settled' ? detail.body.otc : undefined
    })
    expect(settled.settlement.txHash).toBe(txHash!)
    expect(settled.settlement.filledOrders).toBe(2)
    const filled = (await h.admin.listOrders({ project: 'otc' })).filter((o: OrderRecord) => o.status === 'filled')
    expect(filled).toHaveLength(2)
    for (const order of filled) expect(order.execution?.txHash).toBe(txHash!)
    // Nothing moved again: the project's tokens are where the first settlement left them.
    expect(await balance(ownerWallet, tokenAddress)).toBe(tokensBefore)
  })
})
