import {
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  keccak256,
  parseAbi,
  parseEventLogs,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem'
import { entryPoint07Abi, toPackedUserOperation } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import settlementArtifact from '../../../src/chain/contracts/artifacts/PrebuyOtcSettlement.json' with { type: 'json' }
import { jsonRpc } from '../../../devnet/anvil/json-rpc.ts'
import { chainFromConfig } from '../../../src/chain/clients.ts'
import { fundAccount } from '../../../devnet/chain/faucet.ts'
import { scheduleOf } from '../../../src/launch-methods/vesting/domain/lock-terms.ts'
import { settleOtc } from '../../../src/launch-methods/pooled-otc/domain/otc-fill.ts'
import type { OtcTerms } from '../../../src/launch-methods/pooled-otc/domain/otc-terms.ts'
import { vestingState } from '../../../src/launch-methods/vesting/domain/vesting-schedule.ts'
import { VESTING_ABI, VESTING_BYTECODE } from '../../../src/launch-methods/vesting/chain/vesting-contract.ts'
import { settleOffer } from '../../../src/launch-methods/pooled-otc/chain/settle-offer.ts'
import { otcOfferKey } from '../../../src/launch-methods/pooled-otc/chain/otc-settlement-contract.ts'
import { createAccountProvider } from '../../../src/wallets/accounts/create-account-provider.ts'
import type { SmartAccountProvider } from '../../../src/wallets/accounts/operation-account.ts'
import { startWalletFixture, type WalletFixture } from '../../wallets/devnet-fixture.ts'

/**
 * The pooled OTC settlement contract on a real devnet: the real EntryPoint v0.7, the buyers' real SimpleAccount
 * wallets (the service's own account provider signs their UserOperations), the devnet stablecoin. `settle` runs the
 * wallets' operations itself, so the whole settlement is one transaction that moves everything or nothing.
 */
const settlement = settlementArtifact as unknown as { abi: Abi; bytecode: Hex }
const USDC = 10n ** 6n
const TOKEN = 10n ** 18n
const SUPPLY = 1_000_000_000n * TOKEN
const ZERO = '0x0000000000000000000000000000000000000000'

/** One devnet and wallet service for the file (its wallets are told apart by user index), and one vesting contract. */
let f: WalletFixture
let vesting: Address
beforeAll(async () => {
  f = await startWalletFixture()
  const wallet = createWalletClient({ chain: chainFromConfig(f.chains.base), account: f.devnet.accounts[5]!.account, transport: http(f.chains.base.rpcUrl) })
  const hash = await wallet.deployContract({ abi: VESTING_ABI, bytecode: VESTING_BYTECODE, args: [] })
  vesting = (await f.clients.base.waitForTransactionReceipt({ hash })).contractAddress!
})
afterAll(async () => {
  await f?.stop()
})

describe('PrebuyOtcSettlement', () => {
  let provider: SmartAccountProvider
  let stablecoin: Address
  let entryPoint: Address
  const operator = () => f.devnet.accounts[3]!.account
  const project = () => f.devnet.accounts[4]!.account
  const feeRecipient: Address = '0x00000000000000000000000000000000000fee01'
  const client = () => f.clients.base
  const send = async (account: ReturnType<typeof operator>, address: Address, abi: Abi, functionName: string, args: unknown[]) => {
    const wallet = createWalletClient({ chain: chainFromConfig(f.chains.base), account, transport: http(f.chains.base.rpcUrl) })
    const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 5_000_000n } as never)
    return client().waitForTransactionReceipt({ hash })
  }
  /** The revert a call would hit (simulated from `account`), by error name. */
  const revertOf = async (account: Address, address: Address, functionName: string, args: unknown[]): Promise<string | undefined> => {
    try {
      await client().simulateContract({ account, address, abi: settlement.abi, functionName, args, gas: 5_000_000n } as never)
      return undefined
    } catch (error) {
      const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
      return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : String(error)
    }
  }
  const usdcOf = (address: Address) => client().readContract({ address: stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
  const tokenOf = (token: Address, address: Address) => client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

  /** A contract deployed by the operator (the service) for one test: a fresh settlement each time. */
  const deploySettlement = async (): Promise<Address> => {
    const wallet = createWalletClient({ chain: chainFromConfig(f.chains.base), account: operator(), transport: http(f.chains.base.rpcUrl) })
    const hash = await wallet.deployContract({
      abi: settlement.abi,
      bytecode: settlement.bytecode,
      args: [entryPoint, stablecoin, operator().address, feeRecipient, vesting],
    })
    return (await client().waitForTransactionReceipt({ hash })).contractAddress!
  }

  /** The project's offer: `offered` tokens at `fdvUsd`, deposited into `contract`. */
  const offer = async (contract: Address, offered: bigint, fdvUsd: bigint) => {
    const token = await f.deployToken('base', 'Otc Coin', 'OTC', (SUPPLY / TOKEN).toString(), project().address)
    await send(project(), token, erc20Abi as Abi, 'approve', [contract, offered])
    const offerId = keccak256(toHex(`otc-${token}`))
    const receipt = await send(project(), contract, settlement.abi, 'deposit', [offerId, token, offered, fdvUsd * USDC, SUPPLY, 0n, 0n, 0n])
    expect(receipt.status).toBe('success')
    // Stored under the depositor's key; `settle` names the id and the terms it expects (their project gives the key).
    const key = otcOfferKey(project().address, offerId)
    const expected = {
      project: project().address,
      token,
      offered,
      fdv: fdvUsd * USDC,
      totalSupply: SUPPLY,
      settleAfter: 0n,
      lockSeconds: 0n,
      vestingSeconds: 0n,
    }
    return { token, offerId, key, expected, terms: { fdv: fdvUsd * USDC, totalSupply: SUPPLY, offered } }
  }

  /** Wallet `userIndex`'s signed UserOperation: approve exactly `spend` to the settlement and contribute it. */
  const contributionOp = async (contract: Address, key: Hex, userIndex: number, spend: bigint) => {
    const account = await provider.account('base', userIndex)
    const deployed = ((await client().getCode({ address: account.address })) ?? '0x') !== '0x'
    const nonce = await client().readContract({ address: entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [account.address, 0n] })
    const callData = await account.encodeCalls([
      { to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [contract, spend] }) },
      { to: contract, data: encodeFunctionData({ abi: settlement.abi, functionName: 'contribute', args: [key, spend] }) },
    ])
    const unsigned = {
      sender: account.address,
      nonce,
      ...(deployed ? {} : await account.factoryArgs()),
      callData,
      callGasLimit: 300_000n,
      verificationGasLimit: account.validationGas + (deployed ? 0n : account.deploymentGas),
      preVerificationGas: 60_000n,
      // The service pays the gas: zero-fee operations, as its own bundler sends them.
      maxFeePerGas: 0n,
      maxPriorityFeePerGas: 0n,
    }
    return toPackedUserOperation({ ...unsigned, signature: await account.sign(unsigned) })
  }

  /** Fresh wallets of this test, funded with the given stablecoin amounts (one after another: the faucet is one account). */
  let nextUser = 100
  const buyers = async (usdc: readonly bigint[]) => {
    const out: { userIndex: number; address: Address }[] = []
    for (const amount of usdc) {
      const userIndex = nextUser++
      const address = await provider.address(userIndex)
      if (amount > 0n) await fundAccount(f.chains.base, address, { stablecoin: (amount / USDC).toString() })
      out.push({ userIndex, address })
    }
    return out
  }

  beforeAll(() => {
    provider = createAccountProvider({ kind: 'simple', chains: f.chains, keys: f.keys })
    stablecoin = f.chains.base.addresses.stablecoin
    entryPoint = f.chains.base.addresses.entryPoint
  })

  it('settles an oversubscribed offer in one transaction: stablecoin to the project, tokens less 3% to the buyers, the rest back; no allowance left; a second settle moves nothing', async () => {
    const contract = await deploySettlement()
    // 10M tokens at a $1M FDV: $10,000 of tokens for $16,000 of eligible demand.
    const { token, offerId, key, expected, terms } = await offer(contract, 10_000_000n * TOKEN, 1_000_000n)
    const wallets = await buyers([8_000n * USDC, 6_000n * USDC, 5_000n * USDC, 3_000n * USDC, 0n])
    const orders = [
      { id: '0', limitFdv: null, maxSpend: 8_000n * USDC, balance: 8_000n * USDC },
      { id: '1', limitFdv: 2_000_000n * USDC, maxSpend: 6_000n * USDC, balance: 6_000n * USDC },
      { id: '2', limitFdv: 1_000_000n * USDC, maxSpend: 2_000n * USDC, balance: 5_000n * USDC }, // spends its cap, not its balance
      { id: '3', limitFdv: 900_000n * USDC, maxSpend: 3_000n * USDC, balance: 3_000n * USDC }, // limit below the OTC FDV
      { id: '4', limitFdv: null, maxSpend: 1_000n * USDC, balance: 0n }, // empty wallet
    ]
    const plan = settleOtc(terms, orders)
    expect(plan.oversubscribed).toBe(true)
    expect(plan.skipped).toEqual([
      { id: '3', reason: 'limit_below_otc' },
      { id: '4', reason: 'no_balance' },
    ])
    const fills = plan.fills.map((fill) => ({ wallet: wallets[Number(fill.id)]!.address, spend: fill.spend, tokens: fill.tokens }))
    const ops = await Promise.all(plan.fills.map((fill) => contributionOp(contract, key, wallets[Number(fill.id)]!.userIndex, fill.spend)))
    const before = await Promise.all(wallets.map((w) => usdcOf(w.address)))
    const projectUsdcBefore = await usdcOf(project().address)

    const receipt = await send(operator(), contract, settlement.abi, 'settle', [offerId, expected, ops, fills])
    expect(receipt.status).toBe('success')

    const proceeds = plan.fills.reduce((sum, fill) => sum + fill.spend, 0n)
    expect(await usdcOf(project().address)).toBe(projectUsdcBefore + proceeds)
    for (const fill of plan.fills) {
      const w = wallets[Number(fill.id)]!
      expect(await usdcOf(w.address)).toBe(before[Number(fill.id)]! - fill.spend)
      expect(await tokenOf(token, w.address)).toBe(fill.credited)
      expect(await client().readContract({ address: stablecoin, abi: erc20Abi, functionName: 'allowance', args: [w.address, contract] })).toBe(0n)
    }
    // The skipped wallets are untouched; the fee and the unsold tokens (the floors' leftovers) went where they belong.
    expect(await usdcOf(wallets[3]!.address)).toBe(before[3])
    expect(await tokenOf(token, feeRecipient)).toBe(plan.fills.reduce((sum, fill) => sum + fill.fee, 0n))
    expect(await tokenOf(token, project().address)).toBe(SUPPLY - terms.offered + plan.unsold)
    expect(await tokenOf(token, contract)).toBe(0n)
    expect(await usdcOf(contract)).toBe(0n)
    // No lock terms: today's behaviour, nothing goes through the vesting contract.
    expect(await tokenOf(token, vesting)).toBe(0n)

    // Idempotent: the same settlement again is refused before anything runs.
    expect(await revertOf(operator().address, contract, 'settle', [offerId, expected, [], fills])).toBe('OfferClosed')
  })

  it('a buyer who withdrew after the plan makes the whole settlement revert: every balance is unchanged, the offer stays open', async () => {
    const contract = await deploySettlement()
    const { token, offerId, key, expected, terms } = await offer(contract, 1_000_000n * TOKEN, 1_000_000n)
    const wallets = await buyers([500n * USDC, 400n * USDC])
    const plan = settleOtc(terms, [
      { id: '0', limitFdv: null, maxSpend: 500n * USDC, balance: 500n * USDC },
      { id: '1', limitFdv: null, maxSpend: 400n * USDC, balance: 400n * USDC },
    ])
    expect(plan.fills).toHaveLength(2)
    // Buyer 1 withdraws most of its stablecoin between the plan and the settlement (a normal wallet withdrawal); the
    // operations are signed from the stale plan (signed before the withdrawal they would fail validation instead, on
    // the nonce the withdrawal used: handleOps reverts then too, which is the same outcome).
    await f.service.withdraw({ userIndex: wallets[1]!.userIndex, chain: 'base', tokenAddress: stablecoin, to: project().address, amount: '300' })
    const ops = await Promise.all(plan.fills.map((fill) => contributionOp(contract, key, wallets[Number(fill.id)]!.userIndex, fill.spend)))
    const snapshot = async () => ({
      buyers: await Promise.all(wallets.map((w) => usdcOf(w.address))),
      project: await usdcOf(project().address),
      projectTokens: await tokenOf(token, project().address),
      held: await tokenOf(token, contract),
    })
    const before = await snapshot()
    const fills = plan.fills.map((fill) => ({ wallet: wallets[Number(fill.id)]!.address, spend: fill.spend, tokens: fill.tokens }))

    // Buyer 1's operation fails inside handleOps; settle sees its contribution missing and reverts everything.
    expect(await revertOf(operator().address, contract, 'settle', [offerId, expected, ops, fills])).toBe('ContributionMismatch')
    const receipt = await send(operator(), contract, settlement.abi, 'settle', [offerId, expected, ops, fills]).catch((e: unknown) => e)
    expect(receipt instanceof Error || (receipt as { status: string }).status === 'reverted').toBe(true)
    expect(await snapshot()).toEqual(before)
    expect(before.held).toBe(terms.offered)
    for (const w of wallets)
      expect(await client().readContract({ address: stablecoin, abi: erc20Abi, functionName: 'allowance', args: [w.address, contract] })).toBe(0n)

    // Re-planned from the balances now, the settlement goes through.
    const replanned = settleOtc(terms, [
      { id: '0', limitFdv: null, maxSpend: 500n * USDC, balance: before.buyers[0]! },
      { id: '1', limitFdv: null, maxSpend: 400n * USDC, balance: before.buyers[1]! },
    ])
    const again = await Promise.all(replanned.fills.map((fill) => contributionOp(contract, key, wallets[Number(fill.id)]!.userIndex, fill.spend)))
    const refills = replanned.fills.map((fill) => ({ wallet: wallets[Number(fill.id)]!.address, spend: fill.spend, tokens: fill.tokens }))
    expect((await send(operator(), contract, settlement.abi, 'settle', [offerId, expected, again, refills])).status).toBe('success')
    expect(await usdcOf(wallets[1]!.address)).toBe(0n)
  })

  it('refuses what it must: settle by anyone but the operator, a price other than the offer’s, contributions outside a settlement, a second deposit; the project can cancel', async () => {
    const contract = await deploySettlement()
    const { token, offerId, key, expected, terms } = await offer(contract, 1_000n * TOKEN, 1_000_000n)
    const [wallet] = await buyers([100n * USDC])
    const plan = settleOtc(terms, [{ id: '0', limitFdv: null, maxSpend: 1n * USDC, balance: 100n * USDC }])
    const fill = plan.fills[0]!
    const ops = [await contributionOp(contract, key, wallet!.userIndex, fill.spend)]
    expect(
      await revertOf(project().address, contract, 'settle', [offerId, expected, ops, [{ wallet: wallet!.address, spend: fill.spend, tokens: fill.tokens }]]),
    ).toBe('OnlyOperator')
    // One atom of token more than the spend pays for at the offer's price.
    expect(
      await revertOf(operator().address, contract, 'settle', [
        offerId,
        expected,
        ops,
        [{ wallet: wallet!.address, spend: fill.spend, tokens: fill.tokens + 10n ** 12n }],
      ]),
    ).toBe('PriceMismatch')
    expect(await revertOf(wallet!.address, contract, 'contribute', [key, 1n])).toBe('NotCollecting')
    expect(await revertOf(project().address, contract, 'deposit', [offerId, token, 1n, 1n, 1n, 0n, 0n, 0n])).toBe('OfferExists')
    // Nobody else's cancel reaches the project's offer: the key is derived from the caller.
    expect(await revertOf(operator().address, contract, 'cancel', [offerId])).toBe('UnknownOffer')

    const projectTokens = await tokenOf(token, project().address)
    expect((await send(project(), contract, settlement.abi, 'cancel', [offerId])).status).toBe('success')
    expect(await tokenOf(token, project().address)).toBe(projectTokens + terms.offered)
    expect(await revertOf(operator().address, contract, 'settle', [offerId, expected, ops, []])).toBe('OfferClosed')
    // The contract's cost function is the one the plan used.
    expect(
      await client().readContract({
        address: contract,
        abi: parseAbi(['function costOf(bytes32, uint256) view returns (uint256)']),
        functionName: 'costOf',
        args: [key, fill.tokens],
      }),
    ).toBe(fill.spend)
  })

  it('a stranger’s deposit under the project’s id is the stranger’s own offer (issue 19): the project deposits under the same id, settle takes only the recorded terms, nobody else cancels', async () => {
    const contract = await deploySettlement()
    const stranger = f.devnet.accounts[6]!.account
    const fake = await f.deployToken('base', 'Fake Coin', 'FAKE', (SUPPLY / TOKEN).toString(), stranger.address)
    const token = await f.deployToken('base', 'Real Coin', 'REAL', (SUPPLY / TOKEN).toString(), project().address)
    const offerId = keccak256(toHex('prebuy-otc:squat'))
    // The stranger goes first, under the public id, with a worthless token.
    await send(stranger, fake, erc20Abi as Abi, 'approve', [contract, 1_000n * TOKEN])
    expect((await send(stranger, contract, settlement.abi, 'deposit', [offerId, fake, 1_000n * TOKEN, 1_000_000n * USDC, SUPPLY, 0n, 0n, 0n])).status).toBe(
      'success',
    )
    // The project's deposit under the same id is not blocked: it lands under the project's own key.
    await send(project(), token, erc20Abi as Abi, 'approve', [contract, 1_000n * TOKEN])
    expect((await send(project(), contract, settlement.abi, 'deposit', [offerId, token, 1_000n * TOKEN, 1_000_000n * USDC, SUPPLY, 0n, 0n, 0n])).status).toBe(
      'success',
    )
    const read = (key: Hex) => client().readContract({ address: contract, abi: settlement.abi, functionName: 'offers', args: [key] }) as Promise<unknown[]>
    const projectKey = otcOfferKey(project().address, offerId)
    const strangerKey = otcOfferKey(stranger.address, offerId)
    expect(await client().readContract({ address: contract, abi: settlement.abi, functionName: 'offerKey', args: [project().address, offerId] })).toBe(
      projectKey,
    )
    expect((await read(projectKey)).slice(0, 2)).toEqual([project().address, getAddress(token)])
    expect((await read(strangerKey)).slice(0, 2)).toEqual([stranger.address, getAddress(fake)])
    expect(await read(offerId)).toEqual([ZERO, ZERO, 0n, 0n, 0n, 0n, 0n, 0n, false])

    // settle takes the recorded terms and reverts on any difference; naming the stranger as the project finds the
    // stranger's offer, whose token differs.
    const expected = {
      project: project().address,
      token,
      offered: 1_000n * TOKEN,
      fdv: 1_000_000n * USDC,
      totalSupply: SUPPLY,
      settleAfter: 0n,
      lockSeconds: 0n,
      vestingSeconds: 0n,
    }
    const changed: Array<[string, Record<string, unknown>, string]> = [
      ['project', { project: stranger.address }, 'TermsMismatch'],
      ['token', { token: fake }, 'TermsMismatch'],
      ['offered', { offered: 999n * TOKEN }, 'TermsMismatch'],
      ['fdv', { fdv: 500_000n * USDC }, 'TermsMismatch'],
      ['totalSupply', { totalSupply: SUPPLY / 2n }, 'TermsMismatch'],
      ['settleAfter', { settleAfter: 1n }, 'TermsMismatch'],
      ['lockSeconds', { lockSeconds: 1n }, 'TermsMismatch'],
      ['vestingSeconds', { vestingSeconds: 1n }, 'TermsMismatch'],
      ['an unknown project', { project: feeRecipient }, 'UnknownOffer'],
    ]
    for (const [field, change, error] of changed) {
      expect(await revertOf(operator().address, contract, 'settle', [offerId, { ...expected, ...change }, [], []]), field).toBe(error)
    }
    // Only the depositor reaches its offer: the stranger's cancel takes back the stranger's tokens, never the project's.
    const held = await tokenOf(token, contract)
    expect((await send(stranger, contract, settlement.abi, 'cancel', [offerId])).status).toBe('success')
    expect(await tokenOf(fake, stranger.address)).toBe(SUPPLY)
    expect(await tokenOf(token, contract)).toBe(held)
    expect(await revertOf(stranger.address, contract, 'cancel', [offerId])).toBe('OfferClosed')
    // The recorded terms settle (nothing to buy here: everything back to the project).
    expect((await send(operator(), contract, settlement.abi, 'settle', [offerId, expected, [], []])).status).toBe('success')
    expect(await tokenOf(token, project().address)).toBe(SUPPLY)
  })
})

describe('settleOffer (the service side: plan from live balances, operations signed by the wallet service, one settle)', () => {
  let stablecoin: Address
  const project = () => f.devnet.accounts[4]!.account
  const usdcOf = (address: Address) => f.clients.base.readContract({ address: stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
  const send = async (address: Address, abi: Abi, functionName: string, args: unknown[]) => {
    const wallet = createWalletClient({ chain: chainFromConfig(f.chains.base), account: project(), transport: http(f.chains.base.rpcUrl) })
    const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 5_000_000n } as never)
    return f.clients.base.waitForTransactionReceipt({ hash })
  }

  beforeAll(() => {
    stablecoin = f.chains.base.addresses.stablecoin
  })

  /** A settlement whose operator is the service's bundler EOA, and an offer of `offered` tokens at `fdvUsd`. */
  const setUp = async (offered: bigint, fdvUsd: bigint, settleAfter = 0n, operator?: Address, lock = { lockSeconds: 0n, vestingSeconds: 0n }) => {
    const deployer = createWalletClient({
      chain: chainFromConfig(f.chains.base),
      account: f.devnet.accounts[5]!.account,
      transport: http(f.chains.base.rpcUrl),
    })
    const hash = await deployer.deployContract({
      abi: settlement.abi,
      bytecode: settlement.bytecode,
      args: [
        f.chains.base.addresses.entryPoint,
        stablecoin,
        operator ?? f.service.bundlerAddress('base'),
        '0x00000000000000000000000000000000000fee02',
        vesting,
      ],
    })
    const contract = (await f.clients.base.waitForTransactionReceipt({ hash })).contractAddress!
    const token = await f.deployToken('base', 'Otc Two', 'OT2', (SUPPLY / TOKEN).toString(), project().address)
    await send(token, erc20Abi as Abi, 'approve', [contract, offered])
    const offerId = keccak256(toHex(`offer-${contract}`))
    expect(
      (await send(contract, settlement.abi, 'deposit', [offerId, token, offered, fdvUsd * USDC, SUPPLY, settleAfter, lock.lockSeconds, lock.vestingSeconds]))
        .status,
    ).toBe('success')
    const terms: OtcTerms = { project: project().address, token, offered, fdv: fdvUsd * USDC, totalSupply: SUPPLY, settleAfter, ...lock }
    return { contract, token, offerId, terms }
  }

  it('settles from the balances of now, once: a second call finds the offer closed and names the settling transaction', async () => {
    const { contract, token, offerId, terms } = await setUp(1_000_000n * TOKEN, 1_000_000n)
    const buyers = [
      { id: 'a', userIndex: 500, limitFdv: null, maxSpend: 600n * USDC },
      { id: 'b', userIndex: 501, limitFdv: 2_000_000n * USDC, maxSpend: 900n * USDC }, // only 300 in its wallet
      { id: 'c', userIndex: 502, limitFdv: 500_000n * USDC, maxSpend: 100n * USDC }, // limit below the OTC FDV
    ]
    const addresses = await Promise.all(buyers.map((b) => f.service.walletAddress(b.userIndex)))
    await fundAccount(f.chains.base, addresses[0]!, { stablecoin: '600' })
    await fundAccount(f.chains.base, addresses[1]!, { stablecoin: '300' })
    await fundAccount(f.chains.base, addresses[2]!, { stablecoin: '100' })
    const projectBefore = await usdcOf(project().address)

    const outcome = await settleOffer({ wallets: f.service, client: f.clients.base }, { chain: f.chains.base, contract, offerId, terms, buyers })
    if (outcome.status !== 'settled') throw new Error(`not settled: ${JSON.stringify(outcome, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`)
    // $900 of demand for $1,000 of tokens: not oversubscribed; b spends its balance, c is left out.
    expect(outcome.plan.oversubscribed).toBe(false)
    expect(outcome.plan.skipped).toEqual([{ id: 'c', reason: 'limit_below_otc' }])
    expect(await usdcOf(project().address)).toBe(projectBefore + 900n * USDC)
    expect(await usdcOf(addresses[0]!)).toBe(0n)
    expect(await usdcOf(addresses[1]!)).toBe(0n)
    expect(await usdcOf(addresses[2]!)).toBe(100n * USDC)
    const fillA = outcome.plan.fills.find((fill) => fill.id === 'a')!
    expect(await f.clients.base.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [addresses[0]!] })).toBe(fillA.credited)

    const again = await settleOffer({ wallets: f.service, client: f.clients.base }, { chain: f.chains.base, contract, offerId, terms, buyers })
    expect(again).toEqual({ status: 'closed', settledIn: outcome.txHash })
  })

  it('a locked offer settles into vesting positions in each wallet’s name (the pure schedule from the settlement block), released by the wallets over simulated time', async () => {
    const lockSeconds = 3_600
    const vestingSeconds = 10 * 86_400
    const { contract, token, offerId, terms } = await setUp(1_000_000n * TOKEN, 1_000_000n, 0n, undefined, {
      lockSeconds: BigInt(lockSeconds),
      vestingSeconds: BigInt(vestingSeconds),
    })
    const buyers = [
      { id: 'a', userIndex: 530, limitFdv: null, maxSpend: 400n * USDC },
      { id: 'b', userIndex: 531, limitFdv: null, maxSpend: 250n * USDC },
    ]
    const addresses = await Promise.all(buyers.map((b) => f.service.walletAddress(b.userIndex)))
    await fundAccount(f.chains.base, addresses[0]!, { stablecoin: '400' })
    await fundAccount(f.chains.base, addresses[1]!, { stablecoin: '250' })
    const outcome = await settleOffer({ wallets: f.service, client: f.clients.base }, { chain: f.chains.base, contract, offerId, terms, buyers })
    if (outcome.status !== 'settled') throw new Error(`not settled: ${outcome.status}`)
    const receipt = await f.clients.base.getTransactionReceipt({ hash: outcome.txHash })
    const start = Number((await f.clients.base.getBlock({ blockNumber: receipt.blockNumber })).timestamp)
    // BuyerFilled as before; the net tokens sit in the vesting contract, none in the wallets.
    const logs = parseEventLogs({ abi: [...settlement.abi, ...VESTING_ABI] as Abi, logs: receipt.logs }) as unknown as Array<{
      eventName: string
      args: Record<string, unknown>
    }>
    expect(logs.filter((l) => l.eventName === 'BuyerFilled')).toHaveLength(2)
    const created = logs.filter((l) => l.eventName === 'PositionCreated')
    expect(created).toHaveLength(2)
    const tokenOf = (address: Address) => f.clients.base.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
    for (const [i, fill] of outcome.plan.fills.entries()) {
      const position = created.find((l) => (l.args.beneficiary as string).toLowerCase() === addresses[i]!.toLowerCase())!
      expect(fill.id).toBe(buyers[i]!.id)
      expect(position.args).toMatchObject({
        token: getAddress(token),
        total: fill.credited,
        start: BigInt(start),
        lockupEnd: BigInt(start + lockSeconds),
        vestingSeconds: BigInt(vestingSeconds),
      })
      expect(await tokenOf(addresses[i]!)).toBe(0n)
    }
    expect(await tokenOf(vesting)).toBeGreaterThanOrEqual(outcome.plan.fills.reduce((sum, fill) => sum + fill.credited, 0n))

    // Over simulated time, each wallet's release (a normal wallet operation) pays exactly what the pure schedule says.
    const releaseAt = async (at: number, i: number) => {
      const id = created.find((l) => (l.args.beneficiary as string).toLowerCase() === addresses[i]!.toLowerCase())!.args.id as bigint
      await jsonRpc(f.chains.base.rpcUrl, 'evm_setNextBlockTimestamp', [at - 1])
      await jsonRpc(f.chains.base.rpcUrl, 'evm_mine')
      await jsonRpc(f.chains.base.rpcUrl, 'evm_setNextBlockTimestamp', [at])
      const before = await tokenOf(addresses[i]!)
      const [result] = await f.service.submitUserOperations('base', [
        {
          id: `release-${id}`,
          userIndex: buyers[i]!.userIndex,
          calls: [{ to: vesting, data: encodeFunctionData({ abi: VESTING_ABI, functionName: 'release', args: [id] }) }],
        },
      ])
      return { result: result!, got: (await tokenOf(addresses[i]!)) - before }
    }
    const schedule = (i: number) => scheduleOf({ lockSeconds, vestingSeconds }, outcome.plan.fills[i]!.credited, start)
    const early = await releaseAt(start + lockSeconds - 10, 0)
    expect(early.result.status).toBe('reverted') // NothingToRelease: still locked
    expect(early.got).toBe(0n)
    const mid = start + lockSeconds + 3 * 86_400 + 17
    const first = await releaseAt(mid, 0)
    expect(first.result.status).toBe('included')
    expect(first.got).toBe(vestingState(schedule(0), mid, 0n).releasable)
    const end = start + lockSeconds + vestingSeconds + 1
    const rest = await releaseAt(end, 0)
    expect(rest.got).toBe(vestingState(schedule(0), end, first.got).releasable)
    expect(first.got + rest.got).toBe(outcome.plan.fills[0]!.credited)
    const all = await releaseAt(end + 1, 1)
    expect(all.got).toBe(outcome.plan.fills[1]!.credited)
  })

  it('a settlement that would revert is not sent: the outcome names the contract’s error and nothing moves', async () => {
    // A contract whose operator is someone else: the simulation from the bundler EOA reverts OnlyOperator.
    const { contract, offerId, terms } = await setUp(1_000n * TOKEN, 1_000_000n, 0n, project().address)
    const wallet = await f.service.walletAddress(510)
    await fundAccount(f.chains.base, wallet, { stablecoin: '50' })
    const nonceBefore = await f.clients.base.getTransactionCount({ address: f.service.bundlerAddress('base') })
    const outcome = await settleOffer(
      { wallets: f.service, client: f.clients.base },
      { chain: f.chains.base, contract, offerId, terms, buyers: [{ id: 'x', userIndex: 510, limitFdv: null, maxSpend: 50n * USDC }] },
    )
    expect(outcome).toMatchObject({ status: 'refused', revert: { name: 'OnlyOperator' } })
    expect(await usdcOf(wallet)).toBe(50n * USDC)
    expect(await f.clients.base.getTransactionCount({ address: f.service.bundlerAddress('base') })).toBe(nonceBefore)
  })

  it('an offer nobody can buy settles with no operation at all: every token goes back to the project', async () => {
    const { contract, token, offerId, terms } = await setUp(1_000n * TOKEN, 1_000_000n)
    const projectTokens = await f.clients.base.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [project().address] })
    const outcome = await settleOffer(
      { wallets: f.service, client: f.clients.base },
      // One order with a limit below the OTC FDV: nothing to fill.
      { chain: f.chains.base, contract, offerId, terms, buyers: [{ id: 'low', userIndex: 520, limitFdv: 1n, maxSpend: 10n * USDC }] },
    )
    expect(outcome).toMatchObject({ status: 'settled', plan: { fills: [], skipped: [{ id: 'low', reason: 'limit_below_otc' }] } })
    expect(await f.clients.base.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [project().address] })).toBe(
      projectTokens + 1_000n * TOKEN,
    )
  })

  it('does not settle an offer whose on-chain terms differ from the recorded ones: nothing sent, the fields named', async () => {
    const { contract, offerId, terms } = await setUp(1_000n * TOKEN, 1_000_000n)
    const nonceBefore = await f.clients.base.getTransactionCount({ address: f.service.bundlerAddress('base') })
    const outcome = await settleOffer(
      { wallets: f.service, client: f.clients.base },
      { chain: f.chains.base, contract, offerId, terms: { ...terms, fdv: terms.fdv / 2n, lockSeconds: 60n }, buyers: [] },
    )
    expect(outcome).toMatchObject({ status: 'mismatch', fields: ['fdv', 'lockSeconds'], reason: expect.stringContaining('differs from the record: fdv (') })
    expect(await f.clients.base.getTransactionCount({ address: f.service.bundlerAddress('base') })).toBe(nonceBefore)
  })

  it('does not settle before the offer’s time, nor an offer that does not exist', async () => {
    const { contract, offerId, terms } = await setUp(1_000n * TOKEN, 1_000_000n, 2n ** 40n)
    const early = await settleOffer({ wallets: f.service, client: f.clients.base }, { chain: f.chains.base, contract, offerId, terms, buyers: [] })
    expect(early).toEqual({ status: 'too_early', settleAfter: 2n ** 40n })
    const unknown = await settleOffer(
      { wallets: f.service, client: f.clients.base },
      { chain: f.chains.base, contract, offerId: keccak256(toHex('nothing')), terms, buyers: [] },
    )
    expect(unknown).toEqual({ status: 'no_offer' })
  })
  it('over the per-transaction gas cap (EIP-7825): sent with its measured gas when that fits, else refused typed (over_gas_cap) with nothing sent', async () => {
    // Caps low enough for two buyers to cross them: their declared limits (~2M with their wallets' deployments) are
    // over 1.5M, what the settlement measures (~1M) is not; nothing of it runs in 300k.
    const serviceWithCap = (txGasCap: bigint) => f.recordingService({ chains: { ...f.chains, base: { ...f.chains.base, txGasCap } } }).service
    const buyersFrom = (first: number) => [
      { id: 'a', userIndex: first, limitFdv: null, maxSpend: 100n * USDC },
      { id: 'b', userIndex: first + 1, limitFdv: null, maxSpend: 100n * USDC },
    ]
    const fund = async (first: number) => {
      for (const userIndex of [first, first + 1]) await fundAccount(f.chains.base, await f.service.walletAddress(userIndex), { stablecoin: '100' })
    }

    const measured = await setUp(1_000_000n * TOKEN, 1_000_000n)
    await fund(540)
    const wallets = serviceWithCap(1_500_000n)
    const settled = await settleOffer({ wallets, client: f.clients.base }, { chain: f.chains.base, ...measured, buyers: buyersFrom(540) })
    if (settled.status !== 'settled') throw new Error(`not settled: ${settled.status}`)
    const transaction = await f.clients.base.getTransaction({ hash: settled.txHash })
    expect(transaction.gas).toBeLessThanOrEqual(1_500_000n)
    expect(await usdcOf(await f.service.walletAddress(540))).toBe(0n)

    const tooSmall = await setUp(1_000_000n * TOKEN, 1_000_000n)
    await fund(550)
    const nonceBefore = await f.clients.base.getTransactionCount({ address: f.service.bundlerAddress('base') })
    const refused = await settleOffer(
      { wallets: serviceWithCap(300_000n), client: f.clients.base },
      { chain: f.chains.base, ...tooSmall, buyers: buyersFrom(550) },
    )
    expect(refused).toMatchObject({ status: 'over_gas_cap', reason: expect.stringContaining('2 buyers do not fit one transaction') })
    expect(refused.status === 'over_gas_cap' && refused.reason).toContain('over the 300000 one transaction may ask for (EIP-7825)')
    expect(await f.clients.base.getTransactionCount({ address: f.service.bundlerAddress('base') })).toBe(nonceBefore)
    expect(await usdcOf(await f.service.walletAddress(550))).toBe(100n * USDC)
  })
})
