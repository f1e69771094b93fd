import { BaseError, ContractFunctionRevertedError, createWalletClient, encodeFunctionData, erc20Abi, http, type Abi, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import vestingArtifact from '../../../src/chain/contracts/artifacts/PrebuyVesting.json' with { type: 'json' }
import { jsonRpc } from '../../../devnet/anvil/json-rpc.ts'
import { chainFromConfig } from '../../../src/chain/clients.ts'
import { vestedAt, vestingState } from '../../../src/launch-methods/vesting/domain/vesting-schedule.ts'
import { startWalletFixture, type WalletFixture } from '../../wallets/devnet-fixture.ts'

/**
 * The vesting contract on a devnet, released by the buyers' real smart wallets through the wallet service (a normal
 * wallet operation), over simulated time: what the chain releases equals the pure schedule the service shows.
 */
const vesting = vestingArtifact as unknown as { abi: Abi; bytecode: Hex }
const TOKEN = 10n ** 18n

describe('PrebuyVesting', () => {
  let f: WalletFixture
  let contract: Address
  let token: Address
  const locker = () => f.devnet.accounts[6]!.account
  const client = () => f.clients.base
  const write = async (address: Address, abi: Abi, functionName: string, args: unknown[]) => {
    const wallet = createWalletClient({ chain: chainFromConfig(f.chains.base), account: locker(), transport: http(f.chains.base.rpcUrl) })
    const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 3_000_000n } as never)
    return client().waitForTransactionReceipt({ hash })
  }
  const now = async () => Number((await client().getBlock()).timestamp)
  /** Moves the chain's clock to `at` (unix seconds) with one mined block. */
  const mineAt = async (at: number) => {
    await jsonRpc(f.chains.base.rpcUrl, 'evm_setNextBlockTimestamp', [at])
    await jsonRpc(f.chains.base.rpcUrl, 'evm_mine')
  }
  const balanceOf = (address: Address) => client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
  const release = async (userIndex: number, id: bigint) => {
    const [result] = await f.service.submitUserOperations('base', [
      { id: `release-${id}`, userIndex, calls: [{ to: contract, data: encodeFunctionData({ abi: vesting.abi, functionName: 'release', args: [id] }) }] },
    ])
    return result!
  }
  const revertOf = async (from: Address, functionName: string, args: unknown[]) => {
    try {
      await client().simulateContract({ account: from, address: contract, abi: vesting.abi, functionName, args } as never)
      return undefined
    } catch (error) {
      const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
      return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : String(error)
    }
  }

  beforeAll(async () => {
    f = await startWalletFixture()
    const wallet = createWalletClient({ chain: chainFromConfig(f.chains.base), account: locker(), transport: http(f.chains.base.rpcUrl) })
    const hash = await wallet.deployContract({ abi: vesting.abi, bytecode: vesting.bytecode, args: [] })
    contract = (await client().waitForTransactionReceipt({ hash })).contractAddress!
    token = await f.deployToken('base', 'Vested', 'VST', '1000000', locker().address)
    await write(token, erc20Abi as Abi, 'approve', [contract, 10n ** 30n])
  })
  afterAll(async () => {
    await f?.stop()
  })

  it('releases nothing before the lockup, then linearly, everything at the end; each release equals the pure schedule', async () => {
    const wallets = [await f.service.walletAddress(700), await f.service.walletAddress(701)]
    const amounts = [1_000n * TOKEN + 7n, 333n * TOKEN]
    const start = (await now()) + 1
    const lockupEnd = start + 3_600
    const vestingSeconds = 7 * 86_400
    await mineAt(start - 1)
    expect((await write(contract, vesting.abi, 'lock', [token, wallets, amounts, BigInt(lockupEnd), BigInt(vestingSeconds)])).status).toBe('success')
    const schedule = (i: number) => ({ total: amounts[i]!, start, lockupEnd, vestingSeconds })

    // Locked: no release, and the wallet's operation fails with NothingToRelease (the service shows the reason).
    expect(await revertOf(wallets[0]!, 'release', [0n])).toBe('NothingToRelease')
    expect(await client().readContract({ address: contract, abi: vesting.abi, functionName: 'releasable', args: [0n] })).toBe(0n)

    let released = 0n
    for (const at of [lockupEnd, lockupEnd + 1, lockupEnd + 86_400 + 17, lockupEnd + 3 * 86_400, lockupEnd + vestingSeconds + 5]) {
      // The release lands in the block after `at - 1`: pin that block's time to `at`.
      await mineAt(at - 1)
      await jsonRpc(f.chains.base.rpcUrl, 'evm_setNextBlockTimestamp', [at])
      const expected = vestingState(schedule(0), at, released).releasable
      const before = await balanceOf(wallets[0]!)
      const result = await release(700, 0n)
      if (expected === 0n) {
        expect(result.status).toBe('reverted')
        continue
      }
      expect(result.status).toBe('included')
      expect((await balanceOf(wallets[0]!)) - before).toBe(expected)
      released += expected
      expect(released).toBe(vestedAt(schedule(0), at))
    }
    expect(await balanceOf(wallets[0]!)).toBe(amounts[0])
    // The other position, released once after the end, pays all of it; the contract holds nothing more.
    expect((await release(701, 1n)).status).toBe('included')
    expect(await balanceOf(wallets[1]!)).toBe(amounts[1])
    expect(await balanceOf(contract)).toBe(0n)
  })

  it('with no vesting period everything is released at the lockup end; only the beneficiary can release; bad schedules are refused', async () => {
    const wallet = await f.service.walletAddress(702)
    const start = (await now()) + 1
    await mineAt(start - 1)
    await write(contract, vesting.abi, 'lock', [token, [wallet], [50n * TOKEN], BigInt(start + 600), 0n])
    const id = (await client().readContract({ address: contract, abi: vesting.abi, functionName: 'nextId' })) as bigint
    const position = id - 1n
    expect(await revertOf(locker().address, 'release', [position])).toBe('NotBeneficiary')
    await mineAt(start + 599)
    expect(await client().readContract({ address: contract, abi: vesting.abi, functionName: 'releasable', args: [position] })).toBe(0n)
    await mineAt(start + 600)
    expect(await client().readContract({ address: contract, abi: vesting.abi, functionName: 'releasable', args: [position] })).toBe(50n * TOKEN)
    expect((await release(702, position)).status).toBe('included')
    expect(await balanceOf(wallet)).toBe(50n * TOKEN)

    expect(await revertOf(locker().address, 'lock', [token, [wallet], [1n], 1n, 0n])).toBe('InvalidSchedule') // lockup in the past
    expect(await revertOf(locker().address, 'lock', [token, [wallet, wallet], [1n], BigInt(start + 10_000), 0n])).toBe('LengthMismatch')
    expect(await revertOf(locker().address, 'lock', [token, ['0x0000000000000000000000000000000000000000'], [1n], BigInt(start + 10_000), 0n])).toBe(
      'ZeroBeneficiary',
    )
    expect(await revertOf(locker().address, 'release', [999n])).toBe('UnknownPosition')
  })
})
