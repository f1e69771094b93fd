import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, toHex, type Abi, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { create2Address } from '../../../daemon/chain/ensure-create2-contract.ts'
import tokenArtifact from '../../../devnet/contracts/artifacts/DevnetLaunchToken.json' with { type: 'json' }
import { chainFromConfig } from '../../../src/chain/clients.ts'
import { devAccounts } from '../../../devnet/chain/devnet-accounts.ts'
import { DEVNET_FEE_RECIPIENT } from '../../../src/config/config-schema.ts'
import type { ProjectRecord } from '../../../src/domain/records.ts'
import { OTC_SETTLEMENT_ABI, OTC_SETTLEMENT_SALT, otcSettlementInitCode } from '../../../src/launch-methods/pooled-otc/chain/otc-settlement-contract.ts'
import { VESTING_SALT, vestingInitCode } from '../../../src/launch-methods/vesting/chain/vesting-contract.ts'
import { otcOfferId } from '../../../src/launch-methods/pooled-otc/otc-service.ts'
import { openStore } from '../../../src/store/open-store.ts'
import { projectWriteOps } from '../../../src/store/project-writes.ts'
import { ConsoleHarness } from '../../console/console-harness.ts'
import { runCli } from '../../daemon/helpers.ts'

/**
 * Issue 19, item 1: pooled-OTC offer squatting, on a running daemon (devnet, real HTTP, real LevelDB, the daemon's own
 * settlement contract and worker). The offer's id is public (`otcOfferId(slug)`): a stranger (an anvil-impersonated
 * address standing in for the attacker's own key) deposits a worthless token under it before the owner. The owner's
 * deposit must still deposit the real token, the settlement must sell the real token and pay the owner, and the
 * stranger must get nothing. And an on-chain offer at the owner's own id whose terms differ from the record is never
 * counted: not settled, not recorded as deposited; the project moves to a fresh id with the reason shown.
 */
const token = tokenArtifact as unknown as { abi: Abi; bytecode: Hex }
const USDC = 10n ** 6n
const TOKEN = 10n ** 18n
const SUPPLY = 1_000_000_000n * TOKEN
const OFFERED = 10_000_000n * TOKEN
/** $1M FDV over 1e9 tokens: 80 USDC buys 80,000 tokens. */
const FDV = 1_000_000n * USDC

describe('pooled OTC offer squatting (issue 19, item 1)', () => {
  let h: ConsoleHarness
  let settlement: Address
  const client = () => createPublicClient({ transport: http(h.daemon.chains.base.rpcUrl) })
  const usdc = () => h.daemon.chains.base.addresses.stablecoin
  const balance = (of: Address, asset: Address) => client().readContract({ address: asset, abi: erc20Abi, functionName: 'balanceOf', args: [of] })
  const waitFor = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`never saw ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  const deployToken = async (name: string, symbol: string, holder: Address): Promise<Address> => {
    const chain = h.daemon.chains.base
    const deployer = createWalletClient({ chain: chainFromConfig(chain), account: devAccounts()[7]!.account, transport: http(chain.rpcUrl) })
    const hash = await deployer.deployContract({ abi: token.abi, bytecode: token.bytecode, args: [name, symbol, SUPPLY, holder] })
    return (await client().waitForTransactionReceipt({ hash })).contractAddress!
  }
  /** A transaction from an address anvil impersonates (the attacker's own key on a real chain). */
  const asAttacker = async (attacker: Address, call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] }) => {
    const chain = h.daemon.chains.base
    const wallet = createWalletClient({ chain: chainFromConfig(chain), account: attacker, transport: http(chain.rpcUrl) })
    const hash = await wallet.writeContract({ ...call, account: attacker, chain: chainFromConfig(chain) } as Parameters<typeof wallet.writeContract>[0])
    const receipt = await client().waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    return receipt
  }
  let projects = 0
  const approve = async (name: string, slug: string) => {
    const approved = await h.admin.approveRegistration(await h.submitRegistration(name), {
      slug,
      creator: `0x${(0x5c0de0 + ++projects).toString(16).padStart(40, '0')}`,
      launchpad: 'clanker',
      chain: 'base',
      method: 'pooled_otc',
    })
    return { apiKey: approved.key.apiKey as string, wallet: approved.key.serviceWalletAddress as Address }
  }
  const buyer = async (slug: string, label: string) => {
    const created = await h.call('POST', '/api-keys', undefined, { label })
    await h.admin.devnetFund({ address: created.body.serviceWalletAddress, chain: 'base', usdc: '80' })
    const placed = await h.call('POST', '/orders', created.body.apiKey, { items: [{ slug, maxSpendUsdc: '80', maxFdvUsdc: null, expiresInMs: 3_600_000 }] })
    expect(placed.body.results[0].ok).toBe(true)
    return { apiKey: created.body.apiKey as string, wallet: created.body.serviceWalletAddress as Address }
  }
  const settledOffer = (slug: string, apiKey: string) =>
    waitFor(`${slug} settled`, async () => {
      const otc = (await h.call('GET', `/projects/${slug}`, apiKey)).body.otc
      return otc?.settlement?.status === 'settled' ? otc : undefined
    })

  beforeAll(async () => {
    h = await ConsoleHarness.start('otc-squat')
    // The daemon's settlement contract: its CREATE2 address from the bundler EOA (its operator), the fee recipient and
    // the vesting contract (src/launch-methods/pooled-otc/worker/resolve-otc-settlements.ts).
    const status = await h.admin.status()
    settlement = create2Address(
      OTC_SETTLEMENT_SALT,
      otcSettlementInitCode({
        entryPoint: h.daemon.chains.base.addresses.entryPoint,
        stablecoin: usdc(),
        operator: getAddress(status.bundlers.base!.address),
        feeRecipient: DEVNET_FEE_RECIPIENT,
        vesting: create2Address(VESTING_SALT, vestingInitCode()),
      }),
    )
    expect(await client().getCode({ address: settlement })).not.toBe('0x')
  })
  afterAll(async () => {
    await h?.remove()
  })

  it("a stranger's deposit under the project's public offer id buys nothing: the owner deposits the real token, the buyer gets it, the owner is paid, the stranger gets nothing", async () => {
    const owner = await approve('Squat', 'squat')
    const realToken = await deployToken('Real Coin', 'REAL', owner.wallet)
    const settleAt = new Date(Date.now() + 20_000).toISOString()
    const set = await h.call('PATCH', '/projects/squat/otc', owner.apiKey, { fdvUsdc: '1000000', tokenAddress: realToken, tokenAmount: '10000000', settleAt })
    // The owner's offer waits for the operator (docs/owner-changes.md); no order predates it, so it is in force at once.
    expect(set.status).toBe(202)
    expect((await h.admin.confirmChange('squat')).outcome).toBe('in_force')
    expect(set.body.offerId).toBe(otcOfferId('squat'))

    // The attacker: an address of its own, a worthless token of its own, deposited under the project's public id with
    // the same price and amount (and a settlement time already reached), before the owner deposits.
    const attacker = privateKeyToAccount(generatePrivateKey()).address
    await client().request({ method: 'anvil_impersonateAccount' as never, params: [attacker] as never })
    await client().request({ method: 'anvil_setBalance' as never, params: [attacker, toHex(10n ** 19n)] as never })
    const fakeToken = await deployToken('Fake Coin', 'FAKE', attacker)
    await asAttacker(attacker, { address: fakeToken, abi: erc20Abi, functionName: 'approve', args: [settlement, OFFERED] })
    const now = (await client().getBlock()).timestamp
    await asAttacker(attacker, {
      address: settlement,
      abi: OTC_SETTLEMENT_ABI,
      functionName: 'deposit',
      args: [otcOfferId('squat'), fakeToken, OFFERED, FDV, SUPPLY, now, 0n, 0n],
    })
    expect(await balance(attacker, fakeToken)).toBe(SUPPLY - OFFERED)

    const b = await buyer('squat', 'squat-buyer')
    // The owner's deposit moves the owner's real tokens (a transaction of its own), whatever the stranger did.
    const deposited = await h.call('POST', '/projects/squat/otc/deposit', owner.apiKey)
    expect(deposited.status, JSON.stringify(deposited.body)).toBe(200)
    expect(deposited.body).toMatchObject({ deposited: true, depositTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), tokenAddress: getAddress(realToken) })
    expect(await balance(owner.wallet, realToken)).toBe(SUPPLY - OFFERED)

    const settled = await settledOffer('squat', owner.apiKey)
    expect(settled.settlement).toMatchObject({ filledOrders: 1, proceedsUsdc: '80' })
    // The buyer paid the owner, for the real token: 80,000 tokens less the 3% fee; none of the stranger's.
    expect(await balance(b.wallet, usdc())).toBe(0n)
    expect(await balance(b.wallet, realToken)).toBe(80_000n * TOKEN - (80_000n * TOKEN * 300n) / 10_000n)
    expect(await balance(b.wallet, fakeToken)).toBe(0n)
    expect(await balance(owner.wallet, usdc())).toBe(80n * USDC)
    expect(await balance(attacker, usdc())).toBe(0n)
    const order = (await h.call('GET', '/orders', b.apiKey)).body.data[0]
    expect(order).toMatchObject({ status: 'filled', execution: { spentUsdc: '80' } })

    // The stranger's deposit was never the project's offer: it is still the stranger's, untouched, to take back.
    await asAttacker(attacker, { address: settlement, abi: OTC_SETTLEMENT_ABI, functionName: 'cancel', args: [otcOfferId('squat')] })
    expect(await balance(attacker, fakeToken)).toBe(SUPPLY)
  })

  it('an on-chain offer at the owner’s id whose terms differ from the record is not settled: nothing moves, the reason is shown; the owner deposits again under a fresh id and it settles at the recorded terms', async () => {
    const owner = await approve('Stale', 'stale')
    const realToken = await deployToken('Stale Coin', 'STL', owner.wallet)
    const settleAt = new Date(Date.now() + 20_000).toISOString()
    const set = await h.call('PATCH', '/projects/stale/otc', owner.apiKey, { fdvUsdc: '1000000', tokenAddress: realToken, tokenAmount: '10000000', settleAt })
    expect(set.status).toBe(202)
    expect((await h.admin.confirmChange('stale')).outcome).toBe('in_force')
    const b = await buyer('stale', 'stale-buyer')
    expect((await h.call('POST', '/projects/stale/otc/deposit', owner.apiKey)).body.deposited).toBe(true)
    const firstId = set.body.offerId as string

    // The record and the chain part ways (a record written by an older version, or edited): the record now says an FDV
    // of $500,000, the chain's offer $1,000,000. The buyers saw the record; the chain's offer is not theirs to pay.
    await h.stop()
    const store = await openStore({ dataDir: h.dataDir })
    try {
      const project = (await store.sub.projects.get('stale')) as ProjectRecord
      await store.batch(projectWriteOps(store, project, { ...project, otc: { ...project.otc!, fdvUsdc: '500000' } }))
    } finally {
      await store.close()
    }
    await h.restart()

    // The worker compares before it settles: not settled, the deposit no longer counted, the reason on the project.
    const refused = await waitFor('the settlement refused', async () => {
      const otc = (await h.call('GET', '/projects/stale', owner.apiKey)).body.otc
      return otc?.settlement?.status === 'retrying' && otc.deposited === false ? otc : undefined
    })
    expect(refused.settlement.reason).toMatch(/differs from the record: fdv/)
    expect(await balance(b.wallet, usdc())).toBe(80n * USDC)
    expect((await h.call('GET', '/orders', b.apiKey)).body.data[0].status).toBe('active')
    expect(await balance(owner.wallet, usdc())).toBe(0n)

    // The owner deposits again: the stale offer (its own wallet's) is cancelled, the tokens come back and go in under a
    // fresh id at the recorded terms; the old id and why it was left are shown to the owner and the operator.
    const again = await h.call('POST', '/projects/stale/otc/deposit', owner.apiKey)
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body).toMatchObject({ deposited: true, fdvUsdc: '500000', depositTxHash: expect.stringMatching(/^0x/) })
    expect(again.body.offerId).not.toBe(firstId)
    expect(again.body.supersededOffers).toEqual([{ offerId: firstId, reason: expect.stringMatching(/fdv/), at: expect.any(String) }])
    expect(await balance(owner.wallet, realToken)).toBe(SUPPLY - OFFERED)
    const shown = await runCli(h.dataDir, ['otc', 'show', 'stale'], { human: true })
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain(`Superseded:  ${firstId}`)

    const settled = await settledOffer('stale', owner.apiKey)
    expect(settled.settlement).toMatchObject({ filledOrders: 1, proceedsUsdc: '80' })
    // At the recorded $500,000 FDV: 160,000 tokens for 80 USDC, less the fee.
    expect(await balance(b.wallet, realToken)).toBe(160_000n * TOKEN - (160_000n * TOKEN * 300n) / 10_000n)
    expect(await balance(owner.wallet, usdc())).toBe(80n * USDC)
  })
})
