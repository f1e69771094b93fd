import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, parseEventLogs, parseUnits, type Abi, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import tokenArtifact from '../../../devnet/contracts/artifacts/DevnetLaunchToken.json' with { type: 'json' }
import { jsonRpc } from '../../../devnet/anvil/json-rpc.ts'
import { chainFromConfig } from '../../../src/chain/clients.ts'
import { devAccounts } from '../../../devnet/chain/devnet-accounts.ts'
import { formatDecimal } from '../../../src/domain/decimal.ts'
import { vestingState } from '../../../src/launch-methods/vesting/domain/vesting-schedule.ts'
import { VESTING_ABI } from '../../../src/launch-methods/vesting/chain/vesting-contract.ts'
import { ConsoleHarness } from '../../console/console-harness.ts'
import { runCli } from '../../daemon/helpers.ts'

/**
 * A locked pooled OTC offer end to end on a running daemon (devnet, real HTTP, the daemon's own settlement and vesting
 * contracts): the operator sets the lock terms from the CLI, the settlement puts the buyers' tokens into vesting
 * positions, GET /orders and GET /wallet show the schedule, and after simulated time a withdrawal of the vested amount
 * releases and transfers it in one wallet operation; a withdrawal above what has vested is refused and moves nothing.
 */
const token = tokenArtifact as unknown as { abi: Abi; bytecode: Hex }
const TOKEN = 10n ** 18n
const DAY = 86_400
const LOCK_SECONDS = 2 * DAY
const VESTING_SECONDS = 10 * DAY

describe('a locked pooled OTC offer through the API and the CLI', () => {
  let h: ConsoleHarness
  let ownerKey: string
  let ownerWallet: Address
  let tokenAddress: Address
  const rpc = () => h.daemon.chains.base.rpcUrl
  const client = () => createPublicClient({ transport: http(rpc()) })
  const balance = (of: Address) => client().readContract({ address: tokenAddress, abi: erc20Abi, functionName: 'balanceOf', args: [of] })
  const waitFor = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`never saw ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }

  beforeAll(async () => {
    h = await ConsoleHarness.start('otc-vesting')
    const approved = await h.admin.approveRegistration(await h.submitRegistration('Locked'), {
      slug: 'locked',
      creator: '0x00000000000000000000000000000000000c0de1',
      launchpad: 'clanker',
      chain: 'base',
      method: 'pooled_otc',
    })
    ownerKey = approved.key.apiKey
    ownerWallet = approved.key.serviceWalletAddress as Address
    const chain = h.daemon.chains.base
    const deployer = createWalletClient({ chain: chainFromConfig(chain), account: devAccounts()[7]!.account, transport: http(chain.rpcUrl) })
    const hash = await deployer.deployContract({
      abi: token.abi,
      bytecode: token.bytecode,
      args: ['Locked Coin', 'LCK', parseUnits('1000000000', 18), ownerWallet],
    })
    tokenAddress = (await client().waitForTransactionReceipt({ hash })).contractAddress!
  })
  afterAll(async () => {
    await h?.remove()
  })

  it('settles into vesting positions shown on GET /orders and GET /wallet; a withdrawal releases what has vested in the same operation, and nothing above it', async () => {
    const offer = { fdvUsdc: '1000000', tokenAddress, tokenAmount: '10000000', settleAt: new Date(Date.now() + 600_000).toISOString() }
    // Terms out of bounds are refused with their own codes, from the API.
    const tooLong = await h.call('PATCH', '/projects/locked/otc', ownerKey, { ...offer, lockSeconds: 5 * 365 * DAY })
    expect(tooLong).toMatchObject({ status: 400, body: { code: 'invalid_lock_seconds', message: expect.stringContaining('4 years') } })
    const fraction = await h.call('PATCH', '/projects/locked/otc', ownerKey, { ...offer, vestingSeconds: 1.5 })
    expect(fraction).toMatchObject({ status: 400, body: { code: 'invalid_vesting_seconds' } })
    expect((await h.call('PATCH', '/projects/locked/otc', ownerKey, { ...offer, lockSeconds: '60' })).body).toMatchObject({ code: 'invalid_body' })

    // The operator sets the offer with its lock terms (settling 15 s from now); buyers see them on the project.
    const settleAt = new Date(Date.now() + 15_000).toISOString()
    const set = await runCli(h.dataDir, [
      'otc',
      'set',
      'locked',
      '--token',
      tokenAddress,
      '--amount',
      '10000000',
      '--fdv',
      '1000000',
      '--settle-at',
      settleAt,
      '--lock-seconds',
      String(LOCK_SECONDS),
      '--vesting-seconds',
      String(VESTING_SECONDS),
    ])
    expect(set.code, set.stderr).toBe(0)
    const buyerKey = (await h.call('POST', '/api-keys', undefined, { label: 'locked-buyer' })).body
    const shown = (await h.call('GET', '/projects/locked', buyerKey.apiKey)).body.otc
    expect(shown).toMatchObject({ lockSeconds: LOCK_SECONDS, vestingSeconds: VESTING_SECONDS, deposited: false })
    const human = await runCli(h.dataDir, ['otc', 'show', 'locked'], { human: true })
    expect(human.stdout).toContain('Lock:        locked 2 days after the settlement, then vesting linearly over 10 days')

    // One buyer spending $2,000 at a $1M FDV over 1B tokens: 2,000,000 tokens, less the 3% fee, into its position.
    await h.admin.devnetFund({ address: buyerKey.serviceWalletAddress, chain: 'base', usdc: '2000' })
    const placed = await h.call('POST', '/orders', buyerKey.apiKey, {
      items: [{ slug: 'locked', maxSpendUsdc: '2000', maxFdvUsdc: null, expiresInMs: 3_600_000 }],
    })
    expect(placed.body.results[0].ok).toBe(true)
    expect((await h.call('POST', '/projects/locked/otc/deposit', ownerKey)).body.deposited).toBe(true)
    await waitFor('the settlement', async () => {
      const detail = await h.call('GET', '/projects/locked', ownerKey)
      return detail.body.otc?.settlement?.status === 'settled' ? detail.body.otc : undefined
    })

    // The order is filled; its tokens sit in a vesting position in the wallet's name, nothing in the wallet itself.
    const wallet = buyerKey.serviceWalletAddress as Address
    const bought = 2_000_000n * TOKEN
    const credited = bought - (bought * 300n) / 10_000n
    const order = (await h.call('GET', '/orders', buyerKey.apiKey)).body.data[0]
    expect(order.status).toBe('filled')
    expect(order.execution.tokensReceived).toBe(credited.toString())
    const v = order.execution.vesting
    const start = Date.parse(v.start) / 1000
    expect(v).toMatchObject({
      tokenAddress: getAddress(tokenAddress),
      total: credited.toString(),
      lockupEnd: new Date((start + LOCK_SECONDS) * 1000).toISOString(),
      vestingEnd: new Date((start + LOCK_SECONDS + VESTING_SECONDS) * 1000).toISOString(),
      vested: '0',
      locked: credited.toString(),
      released: '0',
      releasable: '0',
    })
    expect(await balance(wallet)).toBe(0n)
    const schedule = { total: credited, start, lockupEnd: start + LOCK_SECONDS, vestingSeconds: VESTING_SECONDS }
    const walletEntry = async () => {
      const body = (await h.call('GET', '/wallet', buyerKey.apiKey)).body
      return body.balances.base.find((e: { address: string }) => e.address.toLowerCase() === tokenAddress.toLowerCase())
    }
    expect(await walletEntry()).toMatchObject({
      symbol: 'LCK',
      decimals: 18,
      balance: '0',
      vesting: { locked: credited.toString(), releasable: '0', lockedUntil: v.vestingEnd },
    })

    // Still locked: any withdrawal is refused, naming what is locked until when; nothing moves.
    const destination: Address = '0x00000000000000000000000000000000000d0d01'
    const refused = await h.call('POST', '/wallet/withdrawals', buyerKey.apiKey, { tokenAddress, withdrawAddress: destination, amount: '1' })
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'tokens_locked', message: expect.stringContaining(`locked in vesting until ${v.vestingEnd}`) },
    })
    expect(refused.body.message).toContain(`the next part unlocks at ${v.lockupEnd}`)
    const max = await h.call('POST', '/wallet/withdrawals', buyerKey.apiKey, { tokenAddress, withdrawAddress: destination, amount: 'max' })
    expect(max).toMatchObject({ status: 400, body: { code: 'tokens_locked', message: expect.stringContaining('Only 0 can be withdrawn now') } })

    // Simulated time: 5 days into the vesting period, half of it has vested.
    await jsonRpc(rpc(), 'evm_setNextBlockTimestamp', [start + LOCK_SECONDS + 5 * DAY])
    await jsonRpc(rpc(), 'evm_mine')
    const half = vestingState(schedule, start + LOCK_SECONDS + 5 * DAY, 0n).releasable
    expect(half).toBe(credited / 2n)
    // The service answers at the chain's latest block, and the devnet keeps mining (a block every 200 ms, its clock
    // going on from the time set above): what has vested by the time of an answer lies between the schedule at the
    // latest block's time before the request and after it.
    const chainNow = async () => Number((await client().getBlock()).timestamp)
    const vestedBetween = async <T>(read: () => Promise<T>): Promise<{ value: T; low: bigint; high: bigint }> => {
      const before = await chainNow()
      const value = await read()
      const after = await chainNow()
      return { value, low: vestingState(schedule, before, 0n).releasable, high: vestingState(schedule, after, 0n).releasable }
    }
    const entry = await vestedBetween(walletEntry)
    expect(entry.low).toBeGreaterThanOrEqual(half)
    const entryReleasable = BigInt(entry.value.vesting.releasable)
    expect(entryReleasable).toBeGreaterThanOrEqual(entry.low)
    expect(entryReleasable).toBeLessThanOrEqual(entry.high)
    expect(entry.value).toMatchObject({ balance: '0', vesting: { locked: (credited - entryReleasable).toString() } })
    const ordered = await vestedBetween(async () => (await h.call('GET', '/orders', buyerKey.apiKey)).body.data[0].execution.vesting)
    const orderVested = BigInt(ordered.value.vested)
    expect(orderVested).toBeGreaterThanOrEqual(ordered.low)
    expect(orderVested).toBeLessThanOrEqual(ordered.high)
    expect(ordered.value).toMatchObject({ releasable: orderVested.toString(), released: '0' })

    // More than has vested is refused and moves nothing; the message names what can be withdrawn at that moment.
    const tooMuch = await vestedBetween(() =>
      h.call('POST', '/wallet/withdrawals', buyerKey.apiKey, {
        tokenAddress,
        withdrawAddress: destination,
        amount: formatDecimal(half + 10n * TOKEN, 18),
      }),
    )
    expect(tooMuch.value).toMatchObject({ status: 400, body: { code: 'tokens_locked' } })
    const onlyMatch = /^Only ([0-9.]+) can be withdrawn now/.exec(tooMuch.value.body.message)
    expect(onlyMatch, tooMuch.value.body.message).not.toBeNull()
    const only = parseUnits(onlyMatch![1]!, 18)
    expect(only).toBeGreaterThanOrEqual(tooMuch.low)
    expect(only).toBeLessThanOrEqual(tooMuch.high)
    expect(await balance(destination)).toBe(0n)
    expect(await balance(wallet)).toBe(0n)
    const position = (await client().readContract({
      address: v.contract,
      abi: VESTING_ABI,
      functionName: 'positions',
      args: [BigInt(v.positionId)],
    })) as bigint[]
    expect(position[3]).toBe(0n) // released: nothing

    // The vested amount (the schedule at the next block, which the operation lands in, gives slightly more: it stays
    // free in the wallet) is released and sent in one wallet operation: one transaction, the release then the transfer.
    const withdrawal = await h.call('POST', '/wallet/withdrawals', buyerKey.apiKey, {
      tokenAddress,
      withdrawAddress: destination,
      amount: formatDecimal(half, 18),
    })
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(200)
    expect(await balance(destination)).toBe(half)
    const receipt = await client().getTransactionReceipt({ hash: withdrawal.body.txHash })
    const at = Number((await client().getBlock({ blockNumber: receipt.blockNumber })).timestamp)
    const releasedNow = vestingState(schedule, at, 0n).vested
    expect(await balance(wallet)).toBe(releasedNow - half)
    // One transaction: the vesting contract's Released (to the wallet) and the token's transfer to the destination.
    const released = parseEventLogs({ abi: VESTING_ABI, logs: receipt.logs, eventName: 'Released' }) as unknown as Array<{
      args: { id: bigint; amount: bigint }
    }>
    expect(released.map((l) => [l.args.id, l.args.amount])).toEqual([[BigInt(v.positionId), releasedNow]])
    const after = (await h.call('GET', '/orders', buyerKey.apiKey)).body.data[0].execution.vesting
    expect(after.released).toBe(releasedNow.toString())
    expect(await walletEntry()).toMatchObject({ balance: (releasedNow - half).toString() })

    // Past the vesting end: "max" takes the free balance and everything left in the position, in one operation.
    await jsonRpc(rpc(), 'evm_setNextBlockTimestamp', [start + LOCK_SECONDS + VESTING_SECONDS + 1])
    await jsonRpc(rpc(), 'evm_mine')
    const all = await h.call('POST', '/wallet/withdrawals', buyerKey.apiKey, { tokenAddress, withdrawAddress: destination, amount: 'max' })
    expect(all.status, JSON.stringify(all.body)).toBe(200)
    expect(await balance(destination)).toBe(credited)
    expect(await balance(wallet)).toBe(0n)
    expect(await walletEntry()).toMatchObject({ balance: '0', vesting: { locked: '0', releasable: '0', lockedUntil: null } })
  })
})
