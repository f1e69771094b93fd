import { getAddress, type Address, type Hash, type PublicClient } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDevBuyWorker, DEV_BUY_MAX_ATTEMPTS } from '../../../src/launch-methods/dev-buy/worker/dev-buy-worker.ts'
import type { ChainConfig, ChainKey } from '../../../src/chain/chain-keys.ts'
import { createLogger } from '../../../src/common/logger.ts'
import { devBuyLaunchView, withoutLaunchSalt } from '../../../src/launch-methods/dev-buy/domain/dev-buy-view.ts'
import type { DevBuyLaunchRecord, DevBuyLaunchState } from '../../../src/domain/records.ts'
import { createJournal } from '../../../src/journal/journal.ts'
import type { DevBuyChain } from '../../../src/launch-methods/dev-buy/chain/dev-buy-chain.ts'
import type { DevBuyLaunched, LaunchDevBuyInput, LaunchDevBuyOutcome } from '../../../src/launch-methods/dev-buy/chain/launch-dev-buy.ts'
import { createDevBuyService, devBuyLaunchId } from '../../../src/launch-methods/dev-buy/dev-buy-service.ts'
import { createServices, type Services } from '../../../src/services/services.ts'
import type { Store } from '../../../src/store/open-store.ts'
import { projectWriteOps } from '../../../src/store/project-writes.ts'
import type { WalletService } from '../../../src/wallets/wallet-service.ts'
import { orderRecord, projectRecord } from '../../support/records.ts'
import { openTempStore } from '../../support/temp-store.ts'
import { writeOrderAs } from '../../support/write-order-as.ts'

/**
 * The dev-buy worker's bookkeeping on a real store, with the launch itself replaced: which orders move when, what the
 * launch's state says after each outcome, when it retries, what the project's expected token becomes. (The launch on
 * chain: test/launch-methods/dev-buy/dev-buy-launch.test.ts; through the running daemon: dev-buy-daemon.e2e.test.ts.)
 */
const TOKEN: Address = getAddress('0x00000000000000000000000000000000000d0b01')
const TX: Hash = `0x${'33'.repeat(32)}`
const launchRecord = (patch: Partial<DevBuyLaunchRecord> = {}): DevBuyLaunchRecord => ({
  launchId: devBuyLaunchId('moon'),
  params: { name: 'Moon', symbol: 'MOON', image: '', metadata: '', tokenAdmin: TOKEN, lock: { lockSeconds: 0, vestingSeconds: 0 } },
  requestedAt: 5,
  state: null,
  ...patch,
})

describe('dev-buy worker', () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store
  let services: Services
  let nowMs: number
  let calls: LaunchDevBuyInput[]
  let salts: number
  let next: (input: LaunchDevBuyInput) => Promise<LaunchDevBuyOutcome>
  /** What the worker logged at error level: a round that failed (an assertion inside `next` included) shows here. */
  let errors: string[]
  /** Every line the worker logged. */
  let lines: string[]
  const logger = createLogger({
    destination: {
      write: (line: string) => {
        lines.push(line)
        if (JSON.parse(line).level >= 50) errors.push(line)
      },
    } as never,
  })
  const walletOf = (userIndex: number): Address => getAddress(`0x${(userIndex + 1).toString(16).padStart(40, '0')}`)
  const wallets = { walletAddress: async (i: number) => walletOf(i), verifiedWalletAddress: async (i: number) => walletOf(i) } as unknown as WalletService
  const devBuyChain = {
    coordinator: () => '0x00000000000000000000000000000000000dbc01',
    // The deployment names the attempt's salt, so the tests can see which one each attempt used.
    deployment: (_chain: ChainKey, _params: unknown, _coordinator: Address, salt: Hash) => ({ salt }),
    poolShapeProblem: () => null,
    vesting: () => null,
    client: () => ({}) as PublicClient,
  } as unknown as DevBuyChain
  const worker = () =>
    createDevBuyWorker({
      store,
      services,
      wallets,
      chains: { base: { key: 'base' } } as unknown as Record<ChainKey, ChainConfig>,
      devBuyChain,
      logger,
      now: () => nowMs,
      retryMs: 30_000,
      newSalt: () => `0x${(++salts).toString(16).padStart(64, '0')}`,
      launch: async (_deps, input) => {
        calls.push(input)
        return next(input)
      },
    })
  const orders = async () => services.projects.ordersOfProject('moon', ['active', 'executing', 'filled'])
  const statuses = async () => (await orders()).map((o) => o.status).sort()
  const project = async () => (await store.sub.projects.get('moon'))!
  const setLaunch = async (devBuy: DevBuyLaunchRecord) => {
    const current = await project()
    await store.batch(projectWriteOps(store, current, { ...current, devBuy }))
  }
  const resultFor = async (input: LaunchDevBuyInput): Promise<DevBuyLaunched> => {
    // The first buyer is filled: 100 USDC for 970 tokens after a 30-token fee.
    const first = input.buyers[0]!
    return {
      token: TOKEN,
      txHash: TX,
      blockNumber: 9n,
      stableIn: 100_000_000n,
      ethIn: 10n ** 16n,
      bought: 1_000n,
      fee: 30n,
      fills: [{ wallet: (await services.keys.getKey(first.id))!.walletAddress as Address, spend: 100_000_000n, tokens: 970n }],
    }
  }

  beforeEach(async () => {
    temp = await openTempStore('dev-buy-worker')
    store = temp.store
    services = createServices({ store, wallets })
    nowMs = 1_000_000
    calls = []
    salts = 0
    errors = []
    lines = []
    const owner = await services.keys.issueKey('owner')
    await store.batch(
      projectWriteOps(store, undefined, projectRecord('moon', { launchMethod: 'dev_buy', ownerKeyId: owner.record.id, devBuy: launchRecord() })),
    )
    for (const label of ['a', 'b']) {
      const key = await services.keys.issueKey(label)
      await writeOrderAs(store, orderRecord('moon', key.record.id))
    }
  })
  afterEach(async () => {
    await temp.remove()
  })
  const noErrors = () => expect(errors).toEqual([])

  it('does nothing until the launch is asked for, nor for other methods', async () => {
    next = async () => {
      throw new Error('not called')
    }
    await setLaunch(launchRecord({ requestedAt: null }))
    await worker().runOnce()
    expect(calls).toHaveLength(0)
    expect(await statuses()).toEqual(['active', 'active'])
    noErrors()
  })

  it('launched: the predicted token becomes the expected token before sending; the allocated order is filled with its execution, the other active again', async () => {
    next = async (input) => {
      // Between the moves and the send: every live order is executing.
      expect(await statuses()).toEqual(['executing', 'executing'])
      await input.beforeSend!(TOKEN)
      expect((await project()).expectedTokenAddress).toBe(TOKEN)
      expect((await project()).devBuy!.state).toMatchObject({ status: 'launching', token: TOKEN })
      await input.onSent!(TX)
      return { status: 'launched', plan: {} as never, result: await resultFor(input) }
    }
    await worker().runOnce()
    noErrors()
    expect(calls).toHaveLength(1)
    expect(calls[0]!.buyers).toHaveLength(2)
    expect(await statuses()).toEqual(['active', 'filled'])
    const filled = (await orders()).find((o) => o.status === 'filled')!
    expect(filled.keyId).toBe(calls[0]!.buyers[0]!.id)
    expect(filled.execution).toEqual({ spentUsdc: '100', tokensReceived: '970', feeTokens: '30', txHash: TX, executedAt: nowMs })
    expect((await project()).devBuy!.state).toEqual({
      status: 'launched',
      txHash: TX,
      blockNumber: '9',
      token: TOKEN,
      stableInAtoms: '100000000',
      ethInWei: (10n ** 16n).toString(),
      bought: '1000',
      fee: '30',
      filledOrders: 1,
      at: nowMs,
    })
    const events = await createJournal(store).orderEventsOf(filled.keyId, 'moon')
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(['active->executing', 'executing->filled'])
    // Over: never launched again.
    await worker().runOnce()
    expect(calls).toHaveLength(1)
  })

  it('a locked launch: the filled order records the vesting position its share went into', async () => {
    const position = {
      chain: 'base' as const,
      contract: getAddress('0x00000000000000000000000000000000000fe571'),
      positionId: '4',
      tokenAddress: TOKEN,
      total: '970',
      start: 100,
      lockupEnd: 3_700,
      vestingSeconds: 86_400,
    }
    next = async (input) => {
      const result = await resultFor(input)
      return { status: 'launched', plan: {} as never, result: { ...result, fills: result.fills.map((f) => ({ ...f, vesting: position })) } }
    }
    await worker().runOnce()
    noErrors()
    expect((await orders()).find((o) => o.status === 'filled')!.execution!.vesting).toEqual(position)
  })

  it('nothing to buy: not_launched with the reasons, orders active, the request cleared (it may be asked again)', async () => {
    next = async () => ({
      status: 'nothing_to_buy',
      plan: { included: [], excluded: [{ id: 'x', reason: 'limit_below_price' }], quote: null, allocation: null },
    })
    await worker().runOnce()
    expect(await statuses()).toEqual(['active', 'active'])
    const launch = (await project()).devBuy!
    expect(launch.requestedAt).toBeNull()
    expect(launch.state).toMatchObject({ status: 'not_launched', reason: expect.stringContaining('limit_below_price') })
    await worker().runOnce()
    expect(calls).toHaveLength(1)
    noErrors()
  })

  it('a launch that would revert: orders back to active, retrying with the reason, tried again only after the pause', async () => {
    next = async () => ({ status: 'refused', plan: {} as never, revert: { name: 'TooLittleEth', args: [], message: 'TooLittleEth(1, 2)' } })
    await worker().runOnce()
    expect(await statuses()).toEqual(['active', 'active'])
    expect((await project()).devBuy!.state).toMatchObject({ status: 'retrying', attempts: 1, reason: 'the launch would revert: TooLittleEth(1, 2)' })
    nowMs += 29_000
    await worker().runOnce()
    expect(calls).toHaveLength(1)
    nowMs += 2_000
    await worker().runOnce()
    expect(calls).toHaveLength(2)
    expect((await project()).devBuy!.state).toMatchObject({ status: 'retrying', attempts: 2 })
    noErrors()
  })

  it('sent without a receipt: stays launching with its hash and token, orders executing; the next round hands the hash over and applies the launch it finds', async () => {
    next = async (input) => {
      await input.beforeSend!(TOKEN)
      await input.onSent!(TX)
      return { status: 'not_mined', plan: {} as never, txHash: TX, pending: true }
    }
    await worker().runOnce()
    expect((await project()).devBuy!.state).toMatchObject({ status: 'launching', txHash: TX, token: TOKEN })
    expect(await statuses()).toEqual(['executing', 'executing'])
    // Its own orders are named: after a crash only they are the launch's (an open-market buy may be executing too).
    const own = (await project()).devBuy!.state as { orderKeyIds?: string[] }
    expect([...own.orderKeyIds!].sort()).toEqual(calls[0]!.buyers.map((b) => b.id).sort())

    next = async (input) => ({ status: 'already_launched', token: TOKEN, result: await resultFor(input) })
    await worker().runOnce()
    expect(calls[1]).toMatchObject({ launchTx: TX })
    // The orders left executing by the interrupted attempt took part again.
    expect(calls[1]!.buyers).toHaveLength(2)
    expect(await statuses()).toEqual(['active', 'filled'])
    expect((await project()).devBuy!.state).toMatchObject({ status: 'launched', txHash: TX })
    noErrors()
  })

  it('launched on chain but its log out of reach: left launching with the orders executing, nothing retried or bought', async () => {
    next = async () => ({ status: 'already_launched', token: TOKEN, result: null })
    await worker().runOnce()
    expect(await statuses()).toEqual(['executing', 'executing'])
    expect((await project()).devBuy!.state).toMatchObject({ status: 'launching' })
    // Said loudly: an operator has to look (the orders stay executing until the launch's log is found).
    expect(errors).toHaveLength(1)
    expect(JSON.parse(errors[0]!).msg).toBe('dev buy launched on chain but its log was not found; orders left executing')
  })

  it('reconciling a launch a crash interrupted takes only its own executing orders; an open-market buy in flight is left to the executor', async () => {
    const keys = Object.fromEntries(await Promise.all(['c', 'd', 'late'].map(async (label) => [label, (await services.keys.issueKey(label)).record] as const)))
    const launching: DevBuyLaunchState = { status: 'launching', since: 1, txHash: TX, token: TOKEN, orderKeyIds: [keys.c!.id, keys.d!.id] }
    await setLaunch(launchRecord({ state: launching }))
    // c and d: the launch's buyers, left executing by the crash. late: placed after the launch began, and being bought on
    // the open market (the indexer bound the launch before the crash): executing, but the executor's.
    for (const key of Object.values(keys)) await writeOrderAs(store, orderRecord('moon', key.id, { status: 'executing' }))
    const fill = (label: 'c' | 'd', spend: bigint, tokens: bigint) => ({ wallet: getAddress(keys[label]!.walletAddress), spend, tokens })
    const result = {
      token: TOKEN,
      txHash: TX,
      blockNumber: 7n,
      stableIn: 300n,
      ethIn: 1n,
      bought: 1_000n,
      fee: 30n,
      fills: [fill('c', 200n, 647n), fill('d', 100n, 323n)],
    }

    next = async () => ({ status: 'already_launched', token: TOKEN, result })
    await worker().runOnce()
    noErrors()
    expect(calls).toHaveLength(1)
    expect(calls[0]!.buyers.map((b) => b.id).sort()).toEqual([keys.c!.id, keys.d!.id].sort())
    const status = async (label: string) => (await orders()).find((o) => o.keyId === keys[label]!.id)!.status
    expect(await status('c')).toBe('filled')
    expect(await status('d')).toBe('filled')
    expect(await status('late')).toBe('executing')
    expect((await store.sub.projects.get('moon'))!.devBuy!.state).toMatchObject({ status: 'launched', filledOrders: 2, txHash: TX })
  })

  const saltOf = (input: LaunchDevBuyInput) => (input.deployment as unknown as { salt: Hash }).salt
  const squatted = getAddress('0x00000000000000000000000000000000005a0a77')

  it('each attempt deploys with a new secret salt, recorded before anything is sent and shown by no view; a resumed attempt keeps its own', async () => {
    next = async (input) => {
      const state = (await project()).devBuy!.state as { salt?: string }
      expect(state.salt).toBe(saltOf(input))
      await input.beforeSend!(TOKEN)
      await input.onSent!(TX)
      return { status: 'not_mined', plan: {} as never, txHash: TX, pending: true }
    }
    await worker().runOnce()
    expect(saltOf(calls[0]!)).toBe(`0x${'1'.padStart(64, '0')}`)
    // The view (public API, admin API, CLI) has no salt; the project's record says which coordinator launches it.
    expect(JSON.stringify(devBuyLaunchView((await project()).devBuy!))).not.toContain(saltOf(calls[0]!).slice(2))
    // Nor the operator's raw record views (prebuy projects show|list).
    expect(JSON.stringify(withoutLaunchSalt(await project()))).not.toContain(saltOf(calls[0]!).slice(2))
    expect(withoutLaunchSalt(await project()).devBuy!.state).toMatchObject({ status: 'launching', token: TOKEN, txHash: TX })
    expect((await project()).devBuy!.coordinator).toBe('0x00000000000000000000000000000000000dbc01')
    // Resumed: the same salt, and the token it predicted checked for someone else's code first.
    next = async () => ({ status: 'refused', plan: null, revert: { name: 'X', args: [], message: 'X()' } })
    await worker().runOnce()
    expect(saltOf(calls[1]!)).toBe(saltOf(calls[0]!))
    expect(calls[1]).toMatchObject({ expectedToken: TOKEN, launchTx: TX })
    // Retried: a new salt.
    nowMs += 30_000
    await worker().runOnce()
    expect(saltOf(calls[2]!)).toBe(`0x${'2'.padStart(64, '0')}`)
    noErrors()
  })

  it('squatted (someone deployed the token first): orders active again, retrying with the reason naming the token, the parameters editable, the request withdrawn by a change', async () => {
    next = async (input) => {
      await input.beforeSend!(squatted)
      await input.onSent!(TX)
      return { status: 'squatted', token: squatted, txHash: TX }
    }
    await worker().runOnce()
    expect(await statuses()).toEqual(['active', 'active'])
    const launch = (await project()).devBuy!
    expect(launch.state).toMatchObject({ status: 'retrying', attempts: 1, reason: expect.stringContaining(squatted) })
    expect(devBuyLaunchView(launch).state).toMatchObject({ status: 'retrying', reason: expect.stringContaining('deployed by someone else first') })

    // The owner changes the parameters: the request is withdrawn (asked again with them), the reason stays shown.
    const devBuy = createDevBuyService({ store, now: () => nowMs, chain: devBuyChain })
    const owner = (await project()).ownerKeyId!
    const changed = await devBuy.setParams('moon', { ownerKeyId: owner }, { name: 'Moon Two', symbol: 'MOON2', tokenAdmin: TOKEN })
    expect(changed.devBuy).toMatchObject({
      requestedAt: null,
      params: { name: 'Moon Two' },
      state: { status: 'not_launched', reason: expect.stringContaining(squatted) },
    })
    nowMs += 60 * 60_000
    await worker().runOnce()
    expect(calls).toHaveLength(1)
    await devBuy.launch('moon', { ownerKeyId: owner })
    next = async (input) => ({ status: 'launched', plan: {} as never, result: await resultFor(input) })
    await worker().runOnce()
    expect(calls).toHaveLength(2)
    expect(saltOf(calls[1]!)).not.toBe(saltOf(calls[0]!))
    expect(await statuses()).toEqual(['active', 'filled'])
    noErrors()
  })

  it('while a launch is under way its parameters do not change', async () => {
    next = async (input) => {
      const devBuy = createDevBuyService({ store, now: () => nowMs, chain: devBuyChain })
      await expect(
        devBuy.setParams('moon', { ownerKeyId: (await project()).ownerKeyId! }, { name: 'Other', symbol: 'OTH', tokenAdmin: TOKEN }),
      ).rejects.toMatchObject({ code: 'dev_buy_requested' })
      return { status: 'launched', plan: {} as never, result: await resultFor(input) }
    }
    await worker().runOnce()
    expect(calls).toHaveLength(1)
    noErrors()
  })

  it('an error thrown before anything is sent (27 KB of it): orders active again, a short reason, short log lines within a budget, a pause that doubles, given up after the last attempt', async () => {
    const huge = Object.assign(new Error(`The contract function "deployToken" reverted.\n${'Request Arguments: 0xdeadbeef'.repeat(1_000)}`), {
      shortMessage: 'The contract function "deployToken" reverted.',
    })
    next = async () => {
      throw huge
    }
    const pauses: number[] = []
    for (let attempt = 1; attempt <= DEV_BUY_MAX_ATTEMPTS; attempt++) {
      const before = calls.length
      // Rounds every 2 s until the attempt is due again: only one of them tries.
      const started = nowMs
      while (calls.length === before) {
        await worker().runOnce()
        if (calls.length === before) nowMs += 2_000
        expect(nowMs - started).toBeLessThanOrEqual(60 * 60_000 + 2_000)
      }
      pauses.push(nowMs - started)
      expect(await statuses()).toEqual(['active', 'active'])
    }
    // 30 s, then doubled each time (the first attempt ran at once).
    expect(pauses).toEqual([0, 30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000].slice(0, DEV_BUY_MAX_ATTEMPTS))
    const launch = (await project()).devBuy!
    expect(launch.requestedAt).toBeNull()
    expect(launch.state).toMatchObject({ status: 'not_launched', reason: expect.stringContaining(`gave up after ${DEV_BUY_MAX_ATTEMPTS} attempts`) })
    expect((launch.state as { reason: string }).reason.length).toBeLessThanOrEqual(400)
    expect((launch.state as { reason: string }).reason).toContain('deployToken')
    // Every line short; no line per 2-second round.
    for (const line of lines) expect(line.length).toBeLessThan(1_000)
    expect(lines.length).toBeLessThanOrEqual(DEV_BUY_MAX_ATTEMPTS + 2)
    nowMs += 60 * 60_000
    await worker().runOnce()
    expect(calls).toHaveLength(DEV_BUY_MAX_ATTEMPTS)
  })

  it('an error thrown after the launch was sent: left launching with its orders executing (it may land), looked at again only after a pause', async () => {
    next = async (input) => {
      await input.beforeSend!(TOKEN)
      await input.onSent!(TX)
      throw new Error(`receipt read failed\n${'x'.repeat(20_000)}`)
    }
    await worker().runOnce()
    expect(await statuses()).toEqual(['executing', 'executing'])
    const state = (await project()).devBuy!.state
    expect(state).toMatchObject({ status: 'launching', txHash: TX, token: TOKEN, failures: 1, lastError: expect.stringContaining('receipt read failed') })
    expect(devBuyLaunchView((await project()).devBuy!).state!.reason).toContain('receipt read failed')
    nowMs += 29_000
    await worker().runOnce()
    expect(calls).toHaveLength(1)
    next = async (input) => ({ status: 'already_launched', token: TOKEN, result: await resultFor(input) })
    nowMs += 2_000
    await worker().runOnce()
    expect(calls).toHaveLength(2)
    expect(await statuses()).toEqual(['active', 'filled'])
    for (const line of lines) expect(line.length).toBeLessThan(1_000)
  })

  it('a worker line budget: a flood of failing rounds logs at most the budget a minute, then one summary line', async () => {
    const many = createDevBuyWorker({
      store,
      services,
      wallets,
      chains: { base: { key: 'base' } } as unknown as Record<ChainKey, ChainConfig>,
      devBuyChain: { ...devBuyChain, coordinator: () => null } as unknown as DevBuyChain,
      logger,
      now: () => nowMs,
      logPerMinute: 3,
    })
    for (let i = 0; i < 10; i++) await many.runOnce()
    expect(lines).toHaveLength(3)
    nowMs += 60_000
    await many.runOnce()
    expect(lines).toHaveLength(5)
    expect(JSON.parse(lines[3]!)).toMatchObject({ msg: 'dev-buy worker lines not logged (over the log budget)', notLogged: { unavailable: 7 } })
  })
})
