import { createWalletClient, encodeFunctionData, erc20Abi, http, getAddress, parseEther, parseUnits, toHex, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { NATIVE_ETH_ADDRESS } from '../../src/chain/chain-keys.ts'
import { GAS_PRICE_ORACLE } from '../../src/chain/l1-data-fee.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { simpleAccountAddress } from '../../src/wallets/accounts/simple-account-address.ts'
import { deriveBundlerKey, deriveOwnerKey } from '../../src/wallets/keys/derive-key.ts'
import type { WithdrawRequest } from '../../src/wallets/wallet-service.ts'
import { artifacts } from './artifacts.ts'
import { startWalletFixture, txHashOf, type WalletFixture } from './devnet-fixture.ts'

let f: WalletFixture
beforeAll(async () => {
  f = await startWalletFixture()
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const wethAbi = [{ type: 'function', name: 'deposit', inputs: [], outputs: [], stateMutability: 'payable' }] as const
const DEST: Address = '0x000000000000000000000000000000000000dEaD'
/** A contract whose every call reverts (PUSH1 0 PUSH1 0 REVERT), set with anvil_setCode where a test needs it. */
const REVERTING: Address = '0x00000000000000000000000000000000000fa11d'
const balanceOf = (chain: 'base' | 'second_chain', token: Address, owner: Address) =>
  f.clients[chain].readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
const bundlerNonce = (chain: 'base' | 'second_chain') => f.clients[chain].getTransactionCount({ address: f.service.bundlerAddress(chain) })

describe('addresses', () => {
  it('is the same on both chains, equals factory.getAddress, and is where the first operation deploys the account', async () => {
    const address = await f.service.walletAddress(1)
    const owner = f.keys.ownerSigner(1).address
    for (const chain of ['base', 'second_chain'] as const) {
      const config = f.chains[chain]
      expect(simpleAccountAddress(config.addresses.accountFactory!, owner)).toBe(address)
      const onChain = await f.clients[chain].readContract({
        address: config.addresses.accountFactory!,
        abi: artifacts.SimpleAccountFactory.abi,
        functionName: 'getAddress',
        args: [owner, 0n],
      })
      expect(onChain).toBe(address)
      expect(await f.clients[chain].getCode({ address })).toBeUndefined()
    }
    expect(await f.service.walletAddress(2)).not.toBe(address)

    // Counterfactual -> deployed by its first UserOperation, at the same address, on each chain.
    for (const chain of ['base', 'second_chain'] as const) {
      const [result] = await f.service.submitUserOperations(chain, [
        {
          userIndex: 1,
          id: 'deploy',
          calls: [{ to: f.chains[chain].addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 1n] }) }],
        },
      ])
      expect(result?.status).toBe('included')
      expect((await f.clients[chain].getCode({ address }))?.length).toBeGreaterThan(2)
      expect(
        await f.clients[chain].readContract({ address: f.chains[chain].addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [address, DEST] }),
      ).toBe(1n)
    }
  })
})

describe('balances', () => {
  it('lists ETH, the stablecoin first ("0" when none), indexed held tokens, WETH when held; omits unindexed and empty ones', async () => {
    const wallet = await f.service.walletAddress(10)
    const indexed = await f.deployToken('base', 'Indexed Token', 'IDX', '1000', wallet)
    const unindexed = await f.deployToken('base', 'Stray Token', 'STRAY', '1000', wallet)
    const indexedEmpty = await f.deployToken('base', 'Empty Token', 'EMPTY', '1000', f.trader.address)
    await fundAccount(f.chains.base, wallet, { eth: '0.5' })
    // Wrap some ETH into WETH for the wallet.
    const trader = createWalletClient({ account: f.trader, transport: http(f.chains.base.rpcUrl), chain: chainFromConfig(f.chains.base) })
    const weth = f.chains.base.addresses.weth
    await f.clients.base.waitForTransactionReceipt({
      hash: await trader.writeContract({ address: weth, abi: wethAbi, functionName: 'deposit', value: parseEther('1') }),
    })
    await f.clients.base.waitForTransactionReceipt({
      hash: await trader.writeContract({ address: weth, abi: erc20Abi, functionName: 'transfer', args: [wallet, parseEther('0.25')] }),
    })

    const token = (address: Address) => ({ address, symbol: 'X', name: 'X', decimals: 18 })
    const balances = await f.service.getBalances(10, {
      base: [
        { address: indexed, symbol: 'IDX', name: 'Indexed Token', decimals: 18 },
        token(indexedEmpty),
        { ...token(indexed.toUpperCase().replace('0X', '0x') as Address) },
        { address: f.chains.base.addresses.stablecoin, symbol: 'DUP', name: 'dup', decimals: 6 },
      ],
      second_chain: [],
    })
    expect(Object.keys(balances).sort()).toEqual(['base', 'second_chain'])
    const base = balances.base
    expect(base.map((entry) => entry.address)).toEqual([NATIVE_ETH_ADDRESS, f.chains.base.addresses.stablecoin, getAddress(indexed), weth])
    expect(base[0]).toMatchObject({ symbol: 'ETH', decimals: 18, balance: parseEther('0.5').toString() })
    expect(base[1]).toMatchObject({ decimals: 6, balance: '0' })
    expect(base[1]?.symbol).toMatch(/USD/)
    expect(base[2]).toMatchObject({ symbol: 'IDX', balance: parseUnits('1000', 18).toString() })
    expect(base[3]).toMatchObject({ balance: parseEther('0.25').toString(), decimals: 18 })
    expect(base.some((entry) => entry.address === getAddress(unindexed))).toBe(false)
    expect(base.some((entry) => entry.address === getAddress(indexedEmpty))).toBe(false)

    await fundAccount(f.chains.second_chain, wallet, { stablecoin: '12.5' })
    const second = (await f.service.getBalances(10, { base: [], second_chain: [] })).second_chain
    expect(second.map((entry) => entry.address)).toEqual([NATIVE_ETH_ADDRESS, f.chains.second_chain.addresses.stablecoin])
    expect(second[0]?.balance).toBe('0')
    expect(second[1]?.balance).toBe('12500000')
  })
})

describe('withdrawals', () => {
  it("reads many wallets' stablecoin balances on one chain in one multicall, by user index", async () => {
    await fundAccount(f.chains.second_chain, await f.service.walletAddress(31), { stablecoin: '7.25' })
    await fundAccount(f.chains.second_chain, await f.service.walletAddress(32), { stablecoin: '0.000001' })
    const balances = await f.service.stablecoinBalances('second_chain', [31, 32, 33])
    expect(balances).toEqual(
      new Map([
        [31, 7_250_000n],
        [32, 1n],
        [33, 0n],
      ]),
    )
    // The other chain's balances are its own.
    expect((await f.service.stablecoinBalances('base', [31])).get(31)).toBe(0n)
  })

  it('withdraws the stablecoin, another ERC-20 and ETH, with the balances checked on-chain', async () => {
    const wallet = await f.service.walletAddress(20)
    const stablecoin = f.chains.base.addresses.stablecoin
    await fundAccount(f.chains.base, wallet, { stablecoin: '100', eth: '2' })
    const other = await f.deployToken('base', 'Other', 'OTH', '50', wallet)
    const to = getAddress('0x1111111111111111111111111111111111111111')

    const usdc = await f.service.withdraw({ userIndex: 20, chain: 'base', tokenAddress: stablecoin, to, amount: '12.345678' })
    expect(usdc).toMatchObject({ chain: 'base', tokenAddress: getAddress(stablecoin), to, amount: '12345678' })
    const receipt = await f.clients.base.getTransactionReceipt({ hash: usdc.txHash })
    expect(receipt.status).toBe('success')
    expect(await balanceOf('base', stablecoin, to)).toBe(12_345_678n)
    expect(await balanceOf('base', stablecoin, wallet)).toBe(100_000_000n - 12_345_678n)

    const oth = await f.service.withdraw({ userIndex: 20, chain: 'base', tokenAddress: other.toLowerCase(), to, amount: 'max' })
    expect(oth.amount).toBe(parseUnits('50', 18).toString())
    expect(await balanceOf('base', other, to)).toBe(parseUnits('50', 18))
    expect(await balanceOf('base', other, wallet)).toBe(0n)

    const before = await f.clients.base.getBalance({ address: to })
    const eth = await f.service.withdraw({ userIndex: 20, chain: 'base', tokenAddress: NATIVE_ETH_ADDRESS, to, amount: '0.75' })
    expect(eth.amount).toBe(parseEther('0.75').toString())
    expect(await f.clients.base.getBalance({ address: to })).toBe(before + parseEther('0.75'))
    // Gas is sponsored: the wallet paid exactly what it sent, nothing for gas.
    expect(await f.clients.base.getBalance({ address: wallet })).toBe(parseEther('1.25'))
  })

  it('refuses bad input and insufficient balance with typed errors, spending nothing and sending nothing', async () => {
    const wallet = await f.service.walletAddress(21)
    const stablecoin = f.chains.second_chain.addresses.stablecoin
    await fundAccount(f.chains.second_chain, wallet, { stablecoin: '5', eth: '1' })
    const nonceBefore = await bundlerNonce('second_chain')
    const base: WithdrawRequest = { userIndex: 21, chain: 'second_chain', tokenAddress: stablecoin, to: DEST, amount: '1' }
    const cases: [Partial<WithdrawRequest>, string][] = [
      [{ tokenAddress: DEST }, 'token_not_contract'],
      [
        {
          tokenAddress:
            f.chains.base.addresses.poolManager === f.chains.second_chain.addresses.stablecoin ? DEST : '0x00000000000000000000000000000000000000a1',
        },
        'token_not_contract',
      ],
      [{ tokenAddress: 'not-an-address' }, 'invalid_address'],
      [{ to: '0x1234' }, 'invalid_address'],
      [{ to: 'hello' }, 'invalid_address'],
      [{ to: '0x000000000000000000000000000000000000dEaD'.replace('dEaD', 'DEAD').replace('0x0000', '0xAAAA') }, 'invalid_address'],
      [{ amount: '0' }, 'invalid_amount'],
      [{ amount: '-1' }, 'invalid_amount'],
      [{ amount: 'abc' }, 'invalid_amount'],
      [{ amount: '1.0000001' }, 'invalid_amount'],
      [{ amount: '5.000001' }, 'insufficient_balance'],
      [{ tokenAddress: NATIVE_ETH_ADDRESS, amount: '1.000000000000000001' }, 'insufficient_balance'],
      [{ tokenAddress: NATIVE_ETH_ADDRESS, amount: '0.0000000000000000001' }, 'invalid_amount'],
    ]
    for (const [override, code] of cases) {
      const error = await f.service.withdraw({ ...base, ...override }).catch((e: unknown) => e)
      expect(error, JSON.stringify(override)).toBeInstanceOf(PrebuyError)
      expect((error as PrebuyError).code, JSON.stringify(override)).toBe(code)
      expect((error as PrebuyError).kind).toBe('bad_request')
    }
    // A wallet with nothing: "max" is refused.
    await expect(f.service.withdraw({ ...base, userIndex: 22, amount: 'max' })).rejects.toMatchObject({ code: 'insufficient_balance' })
    expect(await bundlerNonce('second_chain')).toBe(nonceBefore)
    expect(await balanceOf('second_chain', stablecoin, wallet)).toBe(5_000_000n)
    expect(await f.clients.second_chain.getBalance({ address: wallet })).toBe(parseEther('1'))
  })

  it('two concurrent withdrawals whose sum exceeds the balance: exactly one succeeds', async () => {
    const wallet = await f.service.walletAddress(23)
    const stablecoin = f.chains.base.addresses.stablecoin
    await fundAccount(f.chains.base, wallet, { stablecoin: '10' })
    const request: WithdrawRequest = { userIndex: 23, chain: 'base', tokenAddress: stablecoin, to: DEST, amount: '6' }
    const results = await Promise.allSettled([f.service.withdraw(request), f.service.withdraw({ ...request, to: f.trader.address })])
    const fulfilled = results.filter((r) => r.status === 'fulfilled')
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(fulfilled).toHaveLength(1)
    expect(rejected).toHaveLength(1)
    expect(rejected[0]?.reason).toMatchObject({ code: 'insufficient_balance' })
    expect(await balanceOf('base', stablecoin, wallet)).toBe(4_000_000n)
    // Two "max" at once: one takes everything, the other finds nothing left.
    const maxes = await Promise.allSettled([f.service.withdraw({ ...request, amount: 'max' }), f.service.withdraw({ ...request, amount: 'max' })])
    expect(maxes.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect(await balanceOf('base', stablecoin, wallet)).toBe(0n)
  })
})

describe('withdrawal limits (the service pays their gas)', () => {
  const stablecoinOf = () => f.chains.base.addresses.stablecoin
  const codeOf = (error: unknown) => (error instanceof PrebuyError ? error.code : String(error))

  it('refuses the token contract itself, the wallet itself and a destination that cannot receive, sending nothing', async () => {
    const wallet = await f.service.walletAddress(60)
    await fundAccount(f.chains.base, wallet, { stablecoin: '10', eth: '1' })
    const nonceBefore = await bundlerNonce('base')
    const stablecoin = stablecoinOf()
    const request: WithdrawRequest = { userIndex: 60, chain: 'base', tokenAddress: stablecoin, to: DEST, amount: '2' }
    expect(codeOf(await f.service.withdraw({ ...request, to: stablecoin }).catch((e: unknown) => e))).toBe('invalid_destination')
    expect(codeOf(await f.service.withdraw({ ...request, to: wallet }).catch((e: unknown) => e))).toBe('invalid_destination')
    // ETH to a contract that reverts on receipt: refused before any operation.
    await jsonRpc(f.chains.base.rpcUrl, 'anvil_setCode', [REVERTING, '0x60006000fd'])
    const eth = { ...request, tokenAddress: NATIVE_ETH_ADDRESS, to: REVERTING, amount: '0.1' }
    const refused = await f.service.withdraw(eth).catch((e: unknown) => e)
    expect(codeOf(refused)).toBe('destination_cannot_receive')
    expect((refused as PrebuyError).kind).toBe('bad_request')
    expect(await bundlerNonce('base')).toBe(nonceBefore)
    expect(await balanceOf('base', stablecoin, wallet)).toBe(10_000_000n)
  })

  it("refuses the chain's known sinks (protocol contracts, EntryPoints, precompiles, predeploys), sending nothing", async () => {
    const wallet = await f.service.walletAddress(65)
    await fundAccount(f.chains.base, wallet, { stablecoin: '10', eth: '1' })
    const nonceBefore = await bundlerNonce('base')
    const { addresses } = f.chains.base
    const usdc: WithdrawRequest = { userIndex: 65, chain: 'base', tokenAddress: stablecoinOf(), to: DEST, amount: '2' }
    const eth: WithdrawRequest = { ...usdc, tokenAddress: NATIVE_ETH_ADDRESS, amount: '0.1' }
    const sinks: Array<[WithdrawRequest, Address, RegExp]> = [
      [usdc, addresses.entryPoint, /entryPoint contract/],
      [usdc, addresses.weth, /weth contract/],
      [usdc, addresses.poolManager, /poolManager contract/],
      [eth, addresses.entryPoint, /entryPoint contract/],
      [eth, '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108', /EntryPoint v0\.8/],
      [eth, '0x0000000000000000000000000000000000000001', /precompile/],
      [usdc, '0x0000000000000000000000000000000000000100', /precompile/],
      [usdc, '0x4200000000000000000000000000000000000015', /predeploy/],
    ]
    for (const [request, to, reason] of sinks) {
      const refused = await f.service.withdraw({ ...request, to }).catch((e: unknown) => e)
      expect(codeOf(refused), to).toBe('destination_unrecoverable')
      expect((refused as PrebuyError).message).toMatch(reason)
    }
    expect(await bundlerNonce('base')).toBe(nonceBefore)
    expect(await balanceOf('base', stablecoinOf(), wallet)).toBe(10_000_000n)
  })

  it('refuses a stablecoin or ETH amount below the minimum, unless it is the whole balance', async () => {
    const wallet = await f.service.walletAddress(61)
    await fundAccount(f.chains.base, wallet, { stablecoin: '0.5', eth: '1' })
    const request: WithdrawRequest = { userIndex: 61, chain: 'base', tokenAddress: stablecoinOf(), to: DEST, amount: '0.2' }
    const below = await f.service.withdraw(request).catch((e: unknown) => e)
    expect(codeOf(below)).toBe('amount_below_minimum')
    expect((below as PrebuyError).details).toMatchObject({ minimum: '1000000' })
    expect(codeOf(await f.service.withdraw({ ...request, tokenAddress: NATIVE_ETH_ADDRESS, amount: '0.0001' }).catch((e: unknown) => e))).toBe(
      'amount_below_minimum',
    )
    // The whole balance, however small, can always leave.
    const all = await f.service.withdraw({ ...request, amount: 'max' })
    expect(all.amount).toBe('500000')
    expect(await balanceOf('base', stablecoinOf(), wallet)).toBe(0n)
  })

  it('counts withdrawals per wallet and hour: past the quota a 429 with Retry-After, nothing sent', async () => {
    const limited = f.newService({ withdrawals: { minStablecoin: '1', minEth: '0.0005', perKeyPerHour: 2, bundlerReserveEth: '0.002' } })
    const wallet = await limited.walletAddress(62)
    await fundAccount(f.chains.base, wallet, { stablecoin: '10', eth: '1' })
    const request: WithdrawRequest = { userIndex: 62, chain: 'base', tokenAddress: stablecoinOf(), to: DEST, amount: '1' }
    await limited.withdraw(request)
    // A refused request (below the minimum, a destination that cannot receive) does not use the quota.
    await expect(limited.withdraw({ ...request, amount: '0.1' })).rejects.toMatchObject({ code: 'amount_below_minimum' })
    await jsonRpc(f.chains.base.rpcUrl, 'anvil_setCode', [REVERTING, '0x60006000fd'])
    await expect(limited.withdraw({ ...request, tokenAddress: NATIVE_ETH_ADDRESS, amount: '0.1', to: REVERTING })).rejects.toMatchObject({
      code: 'destination_cannot_receive',
    })
    await limited.withdraw(request)
    const nonceBefore = await bundlerNonce('base')
    const third = await limited.withdraw(request).catch((e: unknown) => e)
    expect(codeOf(third)).toBe('withdrawal_rate_limited')
    expect((third as PrebuyError).kind).toBe('rate_limited')
    expect((third as PrebuyError).details?.retryAfterSeconds).toBeGreaterThan(3_000)
    // The limit that refused it, for the 429's X-RateLimit-* headers.
    expect((third as PrebuyError).details?.rateLimit).toMatchObject({ limit: 2, remaining: 0, resetAt: expect.any(Number) })
    expect(await bundlerNonce('base')).toBe(nonceBefore)
    // Another wallet has its own quota.
    const other = await limited.walletAddress(63)
    await fundAccount(f.chains.base, other, { stablecoin: '10' })
    await limited.withdraw({ ...request, userIndex: 63 })
    expect(await balanceOf('base', stablecoinOf(), wallet)).toBe(8_000_000n)
  })

  it('keeps the last of the bundler’s gas for launch buys: withdrawals get a 503 while it is below the reserve', async () => {
    const wallet = await f.service.walletAddress(64)
    await fundAccount(f.chains.base, wallet, { stablecoin: '10' })
    const bundler = f.service.bundlerAddress('base')
    const balance = await f.clients.base.getBalance({ address: bundler })
    await jsonRpc(f.chains.base.rpcUrl, 'anvil_setBalance', [bundler, toHex(parseEther('0.001'))])
    try {
      const refused = await f.service.withdraw({ userIndex: 64, chain: 'base', tokenAddress: stablecoinOf(), to: DEST, amount: '1' }).catch((e: unknown) => e)
      expect(codeOf(refused)).toBe('gas_reserved_for_launches')
      expect((refused as PrebuyError).kind).toBe('unavailable')
      expect(await f.clients.base.getBalance({ address: bundler })).toBe(parseEther('0.001'))
    } finally {
      await jsonRpc(f.chains.base.rpcUrl, 'anvil_setBalance', [bundler, toHex(balance)])
    }
    await f.service.withdraw({ userIndex: 64, chain: 'base', tokenAddress: stablecoinOf(), to: DEST, amount: '1' })
    expect(await balanceOf('base', stablecoinOf(), wallet)).toBe(9_000_000n)
  })

  it('counts the withdrawal’s L1 data fee in the reserve where the chain has a GasPriceOracle (a devnet imitation here)', async () => {
    const wallet = await f.service.walletAddress(3065)
    await fundAccount(f.chains.base, wallet, { stablecoin: '10' })
    const bundler = f.service.bundlerAddress('base')
    const balance = await f.clients.base.getBalance({ address: bundler })
    // Above the 0.002 reserve by 0.001; the imitation answers every getL1Fee with 0.003 ETH (PUSH32 fee, RETURN).
    await jsonRpc(f.chains.base.rpcUrl, 'anvil_setBalance', [bundler, toHex(parseEther('0.003'))])
    await jsonRpc(f.chains.base.rpcUrl, 'anvil_setCode', [GAS_PRICE_ORACLE, `0x7f${toHex(parseEther('0.003'), { size: 32 }).slice(2)}60005260206000f3`])
    try {
      const refused = await f.service.withdraw({ userIndex: 3065, chain: 'base', tokenAddress: stablecoinOf(), to: DEST, amount: '1' }).catch((e: unknown) => e)
      expect(codeOf(refused)).toBe('gas_reserved_for_launches')
    } finally {
      await jsonRpc(f.chains.base.rpcUrl, 'anvil_setCode', [GAS_PRICE_ORACLE, '0x'])
      await jsonRpc(f.chains.base.rpcUrl, 'anvil_setBalance', [bundler, toHex(balance)])
    }
    const before = await balanceOf('base', stablecoinOf(), wallet)
    await f.service.withdraw({ userIndex: 3065, chain: 'base', tokenAddress: stablecoinOf(), to: DEST, amount: '1' })
    expect(await balanceOf('base', stablecoinOf(), wallet)).toBe(before - 1_000_000n)
  })
})

describe('user operations', () => {
  it('bundles 50 operations from 50 new wallets into one handleOps transaction', async () => {
    const stablecoin = f.chains.base.addresses.stablecoin
    const requests = Array.from({ length: 50 }, (_, i) => ({
      userIndex: 1000 + i,
      id: `op-${i}`,
      calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, BigInt(i + 1)] }) }],
    }))
    const results = await f.service.submitUserOperations('base', requests)
    expect(results.map((r) => r.id)).toEqual(requests.map((r) => r.id))
    expect(new Set(results.map((r) => txHashOf(r))).size).toBe(1)
    expect(results.every((r) => r.status === 'included')).toBe(true)
    const receipt = await f.clients.base.getTransactionReceipt({ hash: txHashOf(results[0]) })
    const { parseEventLogs } = await import('viem')
    const { entryPoint07Abi } = await import('viem/account-abstraction')
    const events = parseEventLogs({ abi: entryPoint07Abi, logs: receipt.logs, eventName: 'UserOperationEvent' })
    expect(events).toHaveLength(50)
    expect(events.every((event) => event.args.success)).toBe(true)
    expect(events.map((e) => e.args.userOpHash)).toEqual(results.map((r) => r.userOpHash))
    const wallet7 = await f.service.walletAddress(1007)
    expect(await f.clients.base.readContract({ address: stablecoin, abi: erc20Abi, functionName: 'allowance', args: [wallet7, DEST] })).toBe(8n)
  })

  it('splits into several transactions, in order, when the gas share of a block is too small for one', async () => {
    // About three deploying operations per transaction: 150M gas limit * 0.008 = 1.2M gas.
    const small = f.newService({ bundler: { pollingIntervalMs: 50, blockGasShare: 0.008 }, callGasLimit: 150_000n })
    const stablecoin = f.chains.base.addresses.stablecoin
    const requests = Array.from({ length: 8 }, (_, i) => ({
      userIndex: 2000 + i,
      id: `split-${i}`,
      calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 1n] }) }],
    }))
    const results = await small.submitUserOperations('base', requests)
    expect(results.every((r) => r.status === 'included')).toBe(true)
    const hashes = [...new Set(results.map((r) => txHashOf(r)))]
    expect(hashes.length).toBeGreaterThan(1)
    expect(hashes.length).toBeLessThan(8)
    // Order kept: transaction (block, index) never goes backwards along the request order.
    const positions = await Promise.all(
      results.map(async (r) => {
        const receipt = await f.clients.base.getTransactionReceipt({ hash: txHashOf(r) })
        return Number(receipt.blockNumber) * 1000 + receipt.transactionIndex
      }),
    )
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })

  it('concurrent operations on one wallet never collide (2D nonces), in one batch and across calls', async () => {
    const stablecoin = f.chains.second_chain.addresses.stablecoin
    const approve = (spender: Address, amount: bigint) => ({
      to: stablecoin,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
    })
    const spenders = Array.from({ length: 6 }, (_, i) => getAddress(`0x${(i + 1).toString(16).padStart(40, '0')}`))
    // Wallet 30 is new: the first batch deploys it once although three of its operations are in it.
    const inOneBatch = f.service.submitUserOperations(
      'second_chain',
      spenders.slice(0, 3).map((spender, i) => ({ userIndex: 30, id: `b${i}`, calls: [approve(spender, 1n)] })),
    )
    const separate = spenders
      .slice(3)
      .map((spender, i) => f.service.submitUserOperations('second_chain', [{ userIndex: 30, id: `s${i}`, calls: [approve(spender, 2n)] }]))
    const results = (await Promise.all([inOneBatch, ...separate])).flat()
    expect(results).toHaveLength(6)
    expect(results.every((r) => r.status === 'included')).toBe(true)
    expect(new Set(results.map((r) => r.userOpHash)).size).toBe(6)
    const wallet = await f.service.walletAddress(30)
    for (const [i, spender] of spenders.entries()) {
      expect(await f.clients.second_chain.readContract({ address: stablecoin, abi: erc20Abi, functionName: 'allowance', args: [wallet, spender] })).toBe(
        i < 3 ? 1n : 2n,
      )
    }
  })

  it('two concurrent batches sharing two new wallets both complete, each wallet deployed once', async () => {
    const stablecoin = f.chains.base.addresses.stablecoin
    const op = (userIndex: number, id: string) => ({
      userIndex,
      id,
      calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 3n] }) }],
    })
    const [a, b] = await Promise.all([
      f.service.submitUserOperations('base', [op(70, 'a70'), op(71, 'a71')]),
      f.service.submitUserOperations('base', [op(71, 'b71'), op(70, 'b70')]),
    ])
    expect([...(a ?? []), ...(b ?? [])].every((r) => r.status === 'included')).toBe(true)
    const deployedLogs = await f.clients.base.getLogs({
      address: f.chains.base.addresses.entryPoint,
      event: {
        type: 'event',
        name: 'AccountDeployed',
        inputs: [
          { name: 'userOpHash', type: 'bytes32', indexed: true },
          { name: 'sender', type: 'address', indexed: true },
          { name: 'factory', type: 'address', indexed: false },
          { name: 'paymaster', type: 'address', indexed: false },
        ],
      },
      args: { sender: [await f.service.walletAddress(70), await f.service.walletAddress(71)] },
      fromBlock: 0n,
    })
    expect(deployedLogs).toHaveLength(2)
  }, 30_000)

  it('refuses an unknown chain key', async () => {
    await expect(f.service.submitUserOperations('mainnet' as never, [])).rejects.toMatchObject({ code: 'invalid_chain' })
    await expect(f.service.withdraw({ userIndex: 1, chain: 'mainnet' as never, tokenAddress: DEST, to: DEST, amount: '1' })).rejects.toMatchObject({
      code: 'invalid_chain',
    })
  })

  it('reports a reverting operation as reverted with its decoded revert, without failing the others', async () => {
    const stablecoin = f.chains.base.addresses.stablecoin
    const results = await f.service.submitUserOperations('base', [
      { userIndex: 40, id: 'fails', calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [DEST, 1n] }) }] },
      { userIndex: 41, id: 'works', calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 1n] }) }] },
    ])
    expect(results[0]).toMatchObject({ id: 'fails', status: 'reverted', revert: { name: 'InsufficientBalance', args: [], message: 'InsufficientBalance()' } })
    expect(results[1]).toMatchObject({ id: 'works', status: 'included' })
    expect(txHashOf(results[0])).toBe(txHashOf(results[1]))
  })
})

describe('secrets', () => {
  it('never writes an owner key, the bundler key, the master secret or the passphrase to the logs', async () => {
    const wallet = await f.service.walletAddress(50)
    await fundAccount(f.chains.base, wallet, { stablecoin: '3' })
    await f.service.withdraw({ userIndex: 50, chain: 'base', tokenAddress: f.chains.base.addresses.stablecoin, to: DEST, amount: '1' })
    await f.service.withdraw({ userIndex: 50, chain: 'base', tokenAddress: f.chains.base.addresses.stablecoin, to: DEST, amount: '9' }).catch(() => undefined)
    const logs = f.logLines.join('\n').toLowerCase()
    expect(logs).toContain('withdrawal mined')
    expect(logs).toContain('handleops sent')
    const secrets = [
      Buffer.from(f.masterSecret).toString('hex'),
      Buffer.from(f.masterSecret).toString('base64'),
      deriveOwnerKey(f.masterSecret, 50).slice(2),
      deriveBundlerKey(f.masterSecret).slice(2),
      f.passphrase,
    ]
    for (const secret of secrets) expect(logs).not.toContain(secret.toLowerCase())
  })
})
