import { randomBytes } from 'node:crypto'
import { type Address, bytesToHex, encodeFunctionData, erc20Abi, getAddress, type Hex, multicall3Abi } from 'viem'
import { entryPoint07Abi, type PackedUserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { loadLaunchpadArtifact } from '../../devnet/launchpads/devnet-artifacts.ts'
import { type LaunchedToken, launchToken, plainDopplerCreateParams, predictTokenAddress } from '../../devnet/launchpads/launch-token.ts'
import { confirmDevnetTx, impersonate, submitDevnetCall } from '../../devnet/launchpads/send-devnet-tx.ts'
import type { LaunchRule } from '../../src/domain/launches/judge-launch.ts'
import type { Launchpad } from '../../src/domain/records.ts'
import type { CandidateRecord } from '../../src/journal/journal-records.ts'
import { DEFAULT_SHARED_DEPLOYERS } from '../../src/launchpads/shared-deployers.ts'
import { type Buyer, type FlowHarness, startFlowHarness } from '../executor/flow-harness.ts'

const USDC = 1_000_000n
const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address
const AIRLOCK_ABI = loadLaunchpadArtifact('DevnetDopplerAirlock').abi

/**
 * Issue 22, "Prove it": the adversarial launch suite's devnet subset. Real launches on the devnet launchpads, each a
 * different attack on the binding, judged by the real indexer while the real executor stands ready with funded orders
 * on every project: nothing is bought, and each launch the project can see is recorded with its rule and reason. The
 * generated suite (1,500 attacks through the same pure parts) is test/unit/domain/adversarial-launches.test.ts. Each
 * project's genuine launch afterwards still fills (one per launchpad), so the rule is not merely closed.
 */
describe('adversarial launches on the devnet (real launchpads, indexer, executor): 0 wrong-token buys', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  const launch = (launchpad: Launchpad, o: { creator: Address; sender?: Address; name: string; symbol: string; salt?: Hex; dynamicFee?: boolean }) =>
    launchToken({ chain: h.chain, addresses: h.launchpads, launchpad, ...o })

  /** A smart account (one of the service's wallets stands in) and a valid operation of it, captured unsent. */
  async function capturedOperation(label: string): Promise<{ smartAccount: Address; operation: PackedUserOperation }> {
    const owner = await h.services.keys.issueKey(label)
    const smartAccount = await h.wallets.walletAddress(owner.record.userIndex)
    let captured: PackedUserOperation[] = []
    const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [smartAccount] })
    const signed = await h.wallets.runOperationsInCall!('base', {
      requests: [{ userIndex: owner.record.userIndex, calls: [{ to: h.chain.addresses.stablecoin, data: balanceOf }], id: label, callGasLimit: 200_000n }],
      build(operations) {
        captured = operations
        return { to: h.chain.addresses.stablecoin, data: '0xdeadbeef' }
      },
      gas: 100_000n,
    })
    expect(signed.status).toBe('refused')
    return { smartAccount, operation: captured[0]! }
  }

  const dopplerCreate = (name: string, symbol: string, creator: Address): Hex =>
    encodeFunctionData({
      abi: AIRLOCK_ABI,
      functionName: 'create',
      args: [plainDopplerCreateParams({ name, symbol, creator, numeraire: h.chain.addresses.weth, salt: bytesToHex(randomBytes(32)) })],
    })

  it('every attack is held back with its rule and buys nothing; the genuine launches then fill', async () => {
    // The projects: deployer + symbol (the harness records slug.slice(0, 5) upper-cased), or + expected token; one
    // registered with a shared deployer, one with an EIP-7702-delegated account, one smart account, one whose launch was
    // bound and turned out unsupported.
    const cl = await h.newProject('adv-cl', 'clanker')
    const zo = await h.newProject('adv-zo', 'zora')
    const dp = await h.newProject('adv-dp', 'doppler')
    const exCreator = fresh()
    const exSalt = bytesToHex(randomBytes(32))
    const expected = await predictTokenAddress(
      { chain: h.chain, addresses: h.launchpads, launchpad: 'clanker', creator: exCreator, name: 'Expected', symbol: 'EXPT' },
      exSalt,
    )
    const ex = await h.newProject('adv-ex', 'clanker', exCreator, { expectedTokenAddress: expected })
    const multicall3 = getAddress(h.chain.addresses.multicall3)
    const sh = await h.newProject('adv-sh', 'zora', multicall3)
    const delegated = fresh()
    await jsonRpc(h.chain.rpcUrl, 'anvil_setCode', [delegated, `0xef0100${h.chain.addresses.multicall3.slice(2).toLowerCase()}`])
    const d7 = await h.newProject('adv-77', 'zora', delegated)
    const { smartAccount, operation } = await capturedOperation('adv-aa-owner')
    const aa = await h.newProject('adv-aa', 'doppler', smartAccount, { expectedSymbol: 'AAGEN' })
    const hd = await h.newProject('adv-hd', 'clanker')
    // Registered with Clanker's presale contract or an EntryPoint (shared deployers known by default), or with a name.
    const presale = DEFAULT_SHARED_DEPLOYERS.find((d) => d.why.includes('presale'))!.address
    const ps = await h.newProject('adv-ps', 'clanker', presale)
    const entryPoint = getAddress(h.chain.addresses.entryPoint)
    const ep = await h.newProject('adv-ep', 'zora', entryPoint)
    const nm = await h.newProject('adv-nm', 'zora', undefined, { expectedSymbol: 'NAMED', expectedName: 'Named Coin' })
    const projects = [cl, zo, dp, ex, sh, d7, aa, hd, ps, ep, nm]
    // adv-hd's launch was bound and found unsupported (as the indexer records it): the deployer's next one is held.
    const heldToken = fresh()
    await h.store.batch([
      h.journal.putCandidate({
        slug: hd.slug,
        chain: 'base',
        launchpad: 'clanker',
        token: heldToken,
        deployer: hd.creator,
        claimedCreators: [],
        name: 'adv-hd token',
        symbol: 'ADV-H',
        txHash: `0x${'11'.repeat(32)}`,
        blockNumber: '1',
        blockHash: `0x${'22'.repeat(32)}`,
        logIndex: 0,
        launchedAt: 1,
        status: 'unsupported',
        reason: 'pairs with an asset prebuy has no route for',
        attempts: 0,
        seenAt: 1,
        updatedAt: 1,
      }),
    ])
    const buyers: Record<string, Buyer> = {}
    for (const p of projects) {
      buyers[p.slug] = await h.newBuyer(`${p.slug}-buyer`, '50')
      await h.order(buyers[p.slug]!, p.slug, '20', null)
    }

    const attacker = fresh()
    h.startMining()
    type Attack = { what: string; slug: string; launched: LaunchedToken | { token: Address; blockNumber: bigint }; rule: LaunchRule | 'unrelated' }
    const attacks: Attack[] = []
    const attack = async (what: string, slug: string, rule: Attack['rule'], made: () => Promise<Attack['launched']>) => {
      attacks.push({ what, slug, rule, launched: await made() })
    }

    // Same name and symbol as a project, by someone else (on Doppler, a launch nobody registered sent: not even read).
    await attack('look-alike, Clanker', cl.slug, 'lookalike', () =>
      launch('clanker', { creator: attacker, sender: attacker, name: 'adv-cl token', symbol: 'ADV-C' }),
    )
    await attack('look-alike, Zora', zo.slug, 'lookalike', () => launch('zora', { creator: attacker, sender: attacker, name: 'adv-zo token', symbol: 'ADV-Z' }))
    await attack('look-alike, Doppler', dp.slug, 'unrelated', () =>
      launch('doppler', { creator: dp.creator, sender: attacker, name: 'adv-dp token', symbol: 'ADV-D' }),
    )
    // Naming the creator in a field anyone sets.
    await attack('claimed creator only', cl.slug, 'claimed_creator_only', () =>
      launch('clanker', { creator: cl.creator, sender: attacker, name: 'Fake', symbol: 'FAKE' }),
    )
    // The creator's other coins: a serial deployer's test token, a Zora creator's posts, a Doppler deployer's other token.
    await attack("creator's test token, Clanker", cl.slug, 'symbol_mismatch', () => launch('clanker', { creator: cl.creator, name: 'Test', symbol: 'TEST1' }))
    await attack("creator's post coin 1, Zora", zo.slug, 'symbol_mismatch', () => launch('zora', { creator: zo.creator, name: 'gm', symbol: 'POST1' }))
    await attack("creator's post coin 2, Zora", zo.slug, 'symbol_mismatch', () => launch('zora', { creator: zo.creator, name: 'gn', symbol: 'POST2' }))
    await attack("creator's other token, Doppler", dp.slug, 'symbol_mismatch', () => launch('doppler', { creator: dp.creator, name: 'Other', symbol: 'OTHER' }))
    // The expected address squatted with another pool (the dynamic-fee hook), by whoever learned the salt.
    await attack('squatted expected address, other pool', ex.slug, 'squatted_address', async () => {
      const squat = await launch('clanker', { creator: exCreator, sender: attacker, name: 'Expected', symbol: 'EXPT', salt: exSalt, dynamicFee: true })
      expect(squat.token).toBe(expected)
      expect(squat.poolKey.hooks).toBe(h.launchpads.clanker.dynamicHook)
      return squat
    })
    await attack("expected-token project, the deployer's other token", ex.slug, 'not_expected_token', () =>
      launch('clanker', { creator: exCreator, name: 'Expected', symbol: 'EXPT' }),
    )
    // A shared deployer known by default (Multicall3: anyone's launch through it has it as the factory's caller).
    await attack('shared deployer (Multicall3)', sh.slug, 'shared_deployer', () =>
      launch('zora', { creator: attacker, sender: multicall3, name: 'adv-sh token', symbol: 'ADV-S' }),
    )
    await attack("shared deployer (Clanker's presale contract)", ps.slug, 'shared_deployer', () =>
      launch('clanker', { creator: attacker, sender: presale, name: 'adv-ps token', symbol: 'ADV-P' }),
    )
    await attack('shared deployer (an EntryPoint)', ep.slug, 'shared_deployer', () =>
      launch('zora', { creator: attacker, sender: entryPoint, name: 'adv-ep token', symbol: 'ADV-E' }),
    )
    // The recorded symbol under another name, by the deployer itself; a look-alike naming the creator as payout recipient.
    await attack('the symbol under another name', nm.slug, 'name_mismatch', () =>
      launch('zora', { creator: nm.creator, name: 'Named Coin V2', symbol: 'NAMED' }),
    )
    await attack('look-alike naming the creator as payout recipient', nm.slug, 'claimed_creator_only', () =>
      launch('zora', { creator: nm.creator, sender: attacker, name: 'Named Coin', symbol: 'NAMED' }),
    )
    // EIP-7702: the registered account is delegated; its delegate code may launch for anyone.
    await attack('EIP-7702-delegated sender', d7.slug, 'shared_sender', () =>
      launch('zora', { creator: delegated, sender: delegated, name: 'adv-77 token', symbol: 'ADV-7' }),
    )
    // After the project's bound launch was unsupported: the deployer's next token, with the right symbol, is held.
    await attack('relaunch after an unsupported launch', hd.slug, 'held_launch', () =>
      launch('clanker', { creator: hd.creator, name: 'adv-hd token', symbol: 'ADV-H' }),
    )
    // A forged ERC-4337 bundle, the other variant of issue 19's: handleOps of the smart account's valid operation
    // first, then Airlock.create of the attacker's token with the project's symbol, in one Multicall3 transaction.
    await attack('forged 4337 bundle: handleOps, then the launch', aa.slug, 'beside_operation', async () => {
      await impersonate(h.chain, attacker)
      const hash = await submitDevnetCall(h.chain, attacker, {
        address: h.chain.addresses.multicall3,
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [
          [
            {
              target: h.chain.addresses.entryPoint,
              allowFailure: false,
              callData: encodeFunctionData({ abi: entryPoint07Abi, functionName: 'handleOps', args: [[operation], attacker] }),
            },
            { target: h.launchpads.doppler.airlock, allowFailure: false, callData: dopplerCreate('AA genuine', 'AAGEN', attacker) },
          ],
        ],
      })
      const receipt = await confirmDevnetTx(h.chain, hash)
      const created = receipt.logs.find((l) => getAddress(l.address) === getAddress(h.launchpads.doppler.airlock))!
      return { token: getAddress(`0x${created.data.slice(26, 66)}`), blockNumber: receipt.blockNumber }
    })

    // Blocks keep coming until the indexer judged them all, a few blocks past the last; any buy would have landed.
    const last = attacks.reduce((max, a) => (a.launched.blockNumber > max ? a.launched.blockNumber : max), 0n)
    await h.indexer.caughtUp('base', last + 4n)
    const candidateOf = (slug: string, token: Address) => h.journal.getCandidate('base', slug, token)
    for (const a of attacks) {
      if (a.rule === 'unrelated') continue
      await h.waitFor(`${a.what} recorded`, async () => (await candidateOf(a.slug, a.launched.token)) !== undefined)
    }
    await h.stopMining()

    const outcome: Array<{ what: string; status: string; rule: string | undefined; reason: string }> = []
    for (const a of attacks) {
      const candidate: CandidateRecord | undefined = await candidateOf(a.slug, a.launched.token)
      outcome.push({ what: a.what, status: candidate?.status ?? 'none', rule: candidate?.rule ?? 'unrelated', reason: candidate?.reason ?? '' })
      expect(candidate?.rule ?? 'unrelated', a.what).toBe(a.rule)
      if (candidate) {
        expect(['rejected', 'awaiting_confirmation'], a.what).toContain(candidate.status)
        expect(candidate.reason.length, a.what).toBeGreaterThan(20)
      }
    }
    expect(attacks.length).toBeGreaterThanOrEqual(18)
    expect(new Set(outcome.map((o) => o.rule)).size).toBeGreaterThanOrEqual(11)
    // 0 wrong-token buys: no project bound, no order filled, every buyer's stablecoin untouched, no attack token held.
    for (const p of projects) {
      expect((await h.services.projects.getProject(p.slug))?.launch, p.slug).toBeNull()
      expect(await h.journal.getLaunchBySlug(p.slug), p.slug).toBeUndefined()
      expect((await h.getOrder(buyers[p.slug]!, p.slug))?.status, p.slug).toBe('active')
      expect(await h.usdcOf(buyers[p.slug]!.wallet), p.slug).toBe(50n * USDC)
    }
    for (const a of attacks) expect(await h.tokenBalance(a.launched.token, buyers[a.slug]!.wallet), a.what).toBe(0n)

    // The genuine launches, one per launchpad (the deployer with its symbol; the expected token from its deployer): filled.
    h.startMining()
    const genuine = [
      { p: cl, token: (await launch('clanker', { creator: cl.creator, name: 'adv-cl token', symbol: 'ADV-C' })).token },
      { p: zo, token: (await launch('zora', { creator: zo.creator, name: 'adv-zo token', symbol: 'ADV-Z' })).token },
      { p: dp, token: (await launch('doppler', { creator: dp.creator, name: 'adv-dp token', symbol: 'ADV-D' })).token },
    ]
    for (const { p } of genuine) await h.waitFor(`${p.slug} fill`, async () => (await h.getOrder(buyers[p.slug]!, p.slug))?.status === 'filled')
    await h.stopMining()
    for (const { p, token } of genuine) {
      expect((await h.services.projects.getProject(p.slug))?.launch?.tokenAddress).toBe(token)
      expect(await h.tokenBalance(token, buyers[p.slug]!.wallet)).toBeGreaterThan(0n)
    }
  })
})
