import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, parseUnits, type Abi, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import tokenArtifact from '../../../devnet/contracts/artifacts/DevnetLaunchToken.json' with { type: 'json' }
import { chainFromConfig } from '../../../src/chain/clients.ts'
import { devAccounts } from '../../../devnet/chain/devnet-accounts.ts'
import { ConsoleHarness } from '../../console/console-harness.ts'
import { runCli } from '../../daemon/helpers.ts'

/**
 * Issue 19 item 4 for pooled OTC, on a running daemon (devnet, real HTTP, real LevelDB, the settlement contract and
 * worker): a leaked owner key replaces the offer's token and FDV before the deposit. The replacement waits for the
 * operator; nothing can be deposited or settled under it; confirmed while the buyers' orders predate it, it would take
 * effect only after the notice period (48 h by default); buyers see it with its times on the project; the operator
 * rejects it with the reason, and the offer the buyers saw is deposited and settles with its own token.
 */
const token = tokenArtifact as unknown as { abi: Abi; bytecode: Hex }
const USDC = 10n ** 6n
const HOUR = 3_600_000

describe('a leaked owner key does not replace the OTC terms under the orders', () => {
  let h: ConsoleHarness
  const client = () => createPublicClient({ transport: http(h.daemon.chains.base.rpcUrl) })
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
  const deployToken = async (name: string, symbol: string, supply: string, holder: Address): Promise<Address> => {
    const chain = h.daemon.chains.base
    const deployer = createWalletClient({ chain: chainFromConfig(chain), account: devAccounts()[7]!.account, transport: http(chain.rpcUrl) })
    const hash = await deployer.deployContract({ abi: token.abi, bytecode: token.bytecode, args: [name, symbol, parseUnits(supply, 18), holder] })
    return getAddress((await client().waitForTransactionReceipt({ hash })).contractAddress!)
  }

  beforeAll(async () => {
    h = await ConsoleHarness.start('otc-terms')
  })
  afterAll(async () => {
    await h?.remove()
  })

  it('the replacement waits for the operator and the notice; nothing is deposited or bought under it; rejected with the reason', async () => {
    const approved = await h.admin.approveRegistration(await h.submitRegistration('Swap'), {
      slug: 'swap',
      creator: '0x00000000000000000000000000000000000c0de9',
      launchpad: 'clanker',
      chain: 'base',
      method: 'pooled_otc',
    })
    const ownerKey = approved.key.apiKey
    const ownerWallet = approved.key.serviceWalletAddress as Address
    const real = await deployToken('Swap Coin', 'SWAP', '1000000000', ownerWallet)
    // Whoever holds the leaked key also controls what the owner's wallet holds: a worthless token of their own.
    const fake = await deployToken('Swap Coin', 'SWAP', '1000000000', ownerWallet)

    // The offer the buyers see (set by the operator: in force at once, in the history), and their orders.
    const settleAt = new Date(Date.now() + 20_000).toISOString()
    const set = await runCli(h.dataDir, ['otc', 'set', 'swap', '--token', real, '--amount', '1000000', '--fdv', '1000000', '--settle-at', settleAt])
    expect(set.code, set.stderr).toBe(0)
    const buyers = []
    for (const label of ['swap-a', 'swap-b']) {
      const created = await h.call('POST', '/api-keys', undefined, { label })
      await h.admin.devnetFund({ address: created.body.serviceWalletAddress, chain: 'base', usdc: '100' })
      const placed = await h.call('POST', '/orders', created.body.apiKey, {
        items: [{ slug: 'swap', maxSpendUsdc: '100', maxFdvUsdc: null, expiresInMs: HOUR }],
      })
      expect(placed.body.results[0].ok).toBe(true)
      buyers.push({ apiKey: created.body.apiKey as string, wallet: created.body.serviceWalletAddress as Address })
    }
    const [a, b] = buyers as [(typeof buyers)[0], (typeof buyers)[0]]

    // The leaked key replaces the token and the FDV, settling at once.
    const swapped = await h.call('PATCH', '/projects/swap/otc', ownerKey, {
      fdvUsdc: '10000',
      tokenAddress: fake,
      tokenAmount: '1000000',
      settleAt: new Date(Date.now() + 5_000).toISOString(),
    })
    expect(swapped.status).toBe(202)
    expect(swapped.body).toMatchObject({
      tokenAddress: fake,
      fdvUsdc: '10000',
      pendingChange: { kind: 'otc_offer', status: 'awaiting_confirmation', effectiveAt: null },
    })
    // Nothing is deposited under a pending change: neither the proposed terms nor the ones in force.
    const refused = await h.call('POST', '/projects/swap/otc/deposit', ownerKey)
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'change_pending', message: expect.stringContaining("operator's confirmation") })
    // Every buyer sees the offer in force and the pending change, with when it was proposed.
    const seen = (await h.call('GET', '/projects/swap', a.apiKey)).body
    expect(seen.otc).toMatchObject({ tokenAddress: real, fdvUsdc: '1000000', deposited: false })
    expect(seen.changes.pending).toEqual([
      {
        kind: 'otc_offer',
        status: 'awaiting_confirmation',
        proposed: expect.objectContaining({ kind: 'otc_offer', tokenAddress: fake, fdvUsdc: '10000', tokenAmount: '1000000' }),
        proposedAt: swapped.body.pendingChange.proposedAt,
        confirmedAt: null,
        effectiveAt: null,
      },
    ])
    expect(seen.changes.history[0]).toMatchObject({ kind: 'otc_offer', by: 'operator', outcome: 'effective', from: null, to: { tokenAddress: real } })

    // The operator's queue shows it, with the orders that predate it.
    const queue = await runCli<{ items: Array<{ slug: string; ordersBefore: number }> }>(h.dataDir, ['projects', 'changes'])
    expect(queue.code, queue.stderr).toBe(0)
    expect(queue.json.items).toMatchObject([{ slug: 'swap', ordersBefore: 2, change: { kind: 'otc_offer' } }])
    const human = await runCli(h.dataDir, ['projects', 'changes'], { human: true })
    expect(human.stdout).toContain('awaiting confirmation')

    // Even confirmed, it takes effect only after the notice period: older orders are live.
    const confirmed = await runCli<{ outcome: string; pendingChange: { confirmedAt: string; effectiveAt: string } }>(h.dataDir, [
      'projects',
      'confirm-change',
      'swap',
    ])
    expect(confirmed.code, confirmed.stderr).toBe(0)
    expect(confirmed.json.outcome).toBe('awaiting_notice')
    const { confirmedAt, effectiveAt } = confirmed.json.pendingChange
    expect(Date.parse(effectiveAt) - Date.parse(confirmedAt)).toBe(48 * HOUR)
    expect((await h.call('GET', '/projects/swap', b.apiKey)).body.changes.pending[0]).toMatchObject({ status: 'confirmed', confirmedAt, effectiveAt })
    const stillRefused = await h.call('POST', '/projects/swap/otc/deposit', ownerKey)
    expect(stillRefused.body).toMatchObject({ code: 'change_pending', message: expect.stringContaining(effectiveAt) })

    // Past both settlement times: nothing was bought, the buyers' stablecoin is theirs, nobody holds the fake token.
    await waitFor('the proposed settlement time to pass', async () => (Date.now() > Date.parse(settleAt) + 2_000 ? true : undefined))
    for (const buyer of [a, b]) {
      const orders = (await h.call('GET', '/orders', buyer.apiKey)).body.data
      expect(orders).toMatchObject([{ slug: 'swap', status: 'active' }])
      expect(await balance(buyer.wallet, h.daemon.chains.base.addresses.stablecoin)).toBe(100n * USDC)
      expect(await balance(buyer.wallet, fake)).toBe(0n)
    }

    // The operator withdraws the confirmation and rejects it, with the reason, on the public history.
    const rejected = await runCli(h.dataDir, ['projects', 'reject-change', 'swap', '--reason', 'the token is not the project’s'])
    expect(rejected.code, rejected.stderr).toBe(0)
    const after = (await h.call('GET', '/projects/swap', a.apiKey)).body
    expect(after.changes.pending).toEqual([])
    expect(after.changes.history[0]).toMatchObject({
      kind: 'otc_offer',
      by: 'owner',
      outcome: 'rejected',
      from: { tokenAddress: real, fdvUsdc: '1000000' },
      to: { tokenAddress: fake, fdvUsdc: '10000' },
      decidedAt: expect.any(String),
      effectiveAt: null,
      reason: 'the token is not the project’s',
    })

    // The offer the buyers saw is deposited and settles with its own token.
    const deposited = await h.call('POST', '/projects/swap/otc/deposit', ownerKey)
    expect(deposited.status, JSON.stringify(deposited.body)).toBe(200)
    await waitFor('the settlement', async () =>
      (await h.call('GET', '/projects/swap', a.apiKey)).body.otc.settlement?.status === 'settled' ? true : undefined,
    )
    for (const buyer of [a, b]) {
      expect(await balance(buyer.wallet, real)).toBeGreaterThan(0n)
      expect(await balance(buyer.wallet, fake)).toBe(0n)
    }
  })
})
