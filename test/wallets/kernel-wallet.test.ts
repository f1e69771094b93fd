import { createPublicClient, encodeFunctionData, erc20Abi, getAddress, http, parseAbi, parseEther, zeroHash, type Address } from 'viem'
import { kernelInitData } from '../../src/wallets/accounts/kernel-account-address.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { NATIVE_ETH_ADDRESS } from '../../src/chain/chain-keys.ts'
import {
  ENTRY_POINT_V07_ADDRESS,
  KERNEL_ECDSA_VALIDATOR_ADDRESS,
  KERNEL_META_FACTORY_ADDRESS,
  KERNEL_V3_1_FACTORY_ADDRESS,
  KERNEL_V3_1_IMPLEMENTATION_ADDRESS,
} from '../../src/chain/canonical-addresses.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import { startWalletFixture, type WalletFixture } from './devnet-fixture.ts'

/**
 * Kernel v3.1 wallets (wallet.accountKind 'kernel') on the devnet, where the real Kernel v0.3.1 implementation and
 * KernelFactory sit at their canonical Base addresses with devnet imitations of ZeroDev's ECDSA validator and
 * meta-factory (devnet/chain/place-kernel.ts): derivation, deployment by the first operation, execution, withdrawals.
 */
let f: WalletFixture
let kernel: PrebuyWalletService
beforeAll(async () => {
  f = await startWalletFixture()
  kernel = f.newService({ accountKind: 'kernel' })
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const factoryAbi = parseAbi(['function getAddress(bytes data, bytes32 salt) view returns (address)', 'function implementation() view returns (address)'])
const validatorAbi = parseAbi(['function ecdsaValidatorStorage(address) view returns (address)'])
const kernelAbi = parseAbi(['function rootValidator() view returns (bytes21)', 'function entrypoint() view returns (address)'])
const DEST: Address = '0x000000000000000000000000000000000000dEaD'
const balanceOf = (chain: 'base' | 'second_chain', token: Address, owner: Address) =>
  f.clients[chain].readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

describe('Kernel v3.1 on the devnet', () => {
  it('sits at its canonical Base addresses on both chains, wired as on Base', async () => {
    for (const chain of ['base', 'second_chain'] as const) {
      const client = f.clients[chain]
      for (const address of [KERNEL_V3_1_IMPLEMENTATION_ADDRESS, KERNEL_V3_1_FACTORY_ADDRESS, KERNEL_META_FACTORY_ADDRESS, KERNEL_ECDSA_VALIDATOR_ADDRESS]) {
        expect((await client.getCode({ address }))?.length, `${chain} ${address}`).toBeGreaterThan(2)
      }
      expect(await client.readContract({ address: KERNEL_V3_1_FACTORY_ADDRESS, abi: factoryAbi, functionName: 'implementation' })).toBe(
        KERNEL_V3_1_IMPLEMENTATION_ADDRESS,
      )
      expect(await client.readContract({ address: KERNEL_V3_1_IMPLEMENTATION_ADDRESS, abi: kernelAbi, functionName: 'entrypoint' })).toBe(
        ENTRY_POINT_V07_ADDRESS,
      )
    }
  })

  it('derives one address on both chains, the KernelFactory’s own; the first operation deploys it there, rooted in the owner', async () => {
    const address = await kernel.walletAddress(1)
    expect(address).not.toBe(await f.service.walletAddress(1))
    expect(await kernel.verifiedWalletAddress(1)).toBe(address)
    const owner = f.keys.ownerSigner(1).address
    // The offline derivation (kernel-account-address.ts) is the real KernelFactory's, on both chains.
    for (const chain of ['base', 'second_chain'] as const) {
      expect(
        await f.clients[chain].readContract({
          address: KERNEL_V3_1_FACTORY_ADDRESS,
          abi: factoryAbi,
          functionName: 'getAddress',
          args: [kernelInitData(owner), zeroHash],
        }),
      ).toBe(address)
    }
    for (const chain of ['base', 'second_chain'] as const) {
      const account = await kernel.walletAddress(1)
      expect(account).toBe(address)
      expect(await f.clients[chain].getCode({ address })).toBeUndefined()
      const [result] = await kernel.submitUserOperations(chain, [
        {
          userIndex: 1,
          id: `deploy-${chain}`,
          calls: [{ to: f.chains[chain].addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 7n] }) }],
        },
      ])
      expect(result?.status).toBe('included')
      expect((await f.clients[chain].getCode({ address }))?.length).toBeGreaterThan(2)
      expect(
        await f.clients[chain].readContract({ address: f.chains[chain].addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [address, DEST] }),
      ).toBe(7n)
      // The root validator is the ECDSA validator (type 0x01 ++ its address), and it holds this key's owner.
      expect(await f.clients[chain].readContract({ address, abi: kernelAbi, functionName: 'rootValidator' })).toBe(
        `0x01${KERNEL_ECDSA_VALIDATOR_ADDRESS.slice(2).toLowerCase()}`,
      )
      expect(
        await f.clients[chain].readContract({
          address: KERNEL_ECDSA_VALIDATOR_ADDRESS,
          abi: validatorAbi,
          functionName: 'ecdsaValidatorStorage',
          args: [address],
        }),
      ).toBe(owner)
    }
    // Deployed: the address is still confirmed (its code is there), and a second operation runs without initCode.
    expect(await kernel.verifiedWalletAddress(1)).toBe(address)
    const [again] = await kernel.submitUserOperations('base', [
      {
        userIndex: 1,
        id: 'second',
        calls: [{ to: f.chains.base.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 9n] }) }],
      },
    ])
    expect(again?.status).toBe('included')
    expect(
      await f.clients.base.readContract({ address: f.chains.base.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [address, DEST] }),
    ).toBe(9n)
  })

  it('runs concurrent operations of one wallet on separate nonce streams, and many new wallets in one call', async () => {
    const users = Array.from({ length: 12 }, (_, i) => 40 + i)
    const stablecoin = f.chains.base.addresses.stablecoin
    const requests = users.flatMap((userIndex) => [
      { userIndex, id: `${userIndex}-a`, calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 1n] }) }] },
    ])
    // Wallet 40 also sends two more at once: Kernel keeps 2 bytes of the nonce key for the caller's streams.
    requests.push(
      { userIndex: 40, id: '40-b', calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 2n] }) }] },
      {
        userIndex: 40,
        id: '40-c',
        calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [f.trader.address, 3n] }) }],
      },
    )
    const results = await kernel.submitUserOperations('base', requests)
    expect(results.map((r) => r.status)).toEqual(requests.map(() => 'included'))
    for (const userIndex of users) expect((await f.clients.base.getCode({ address: await kernel.walletAddress(userIndex) }))?.length).toBeGreaterThan(2)
  })

  it('the ECDSA validator accepts the owner’s signature for its account and refuses another key’s (ERC-1271 answers)', async () => {
    const address = await kernel.walletAddress(1)
    const stranger = f.keys.ownerSigner(999)
    const hash = `0x${'ab'.repeat(32)}` as const
    const signature = await stranger.signMessage({ message: { raw: hash } })
    const isValid = parseAbi(['function isValidSignatureWithSender(address, bytes32, bytes) view returns (bytes4)'])
    const answer = await f.clients.base.readContract({
      address: KERNEL_ECDSA_VALIDATOR_ADDRESS,
      abi: isValid,
      functionName: 'isValidSignatureWithSender',
      args: [address, hash, signature],
      account: address,
    })
    expect(answer).toBe('0xffffffff')
    const own = await f.keys.ownerSigner(1).signMessage({ message: { raw: hash } })
    expect(
      await f.clients.base.readContract({
        address: KERNEL_ECDSA_VALIDATOR_ADDRESS,
        abi: isValid,
        functionName: 'isValidSignatureWithSender',
        args: [address, hash, own],
        account: address,
      }),
    ).toBe('0x1626ba7e')
  })

  it('withdraws the stablecoin and ETH from a Kernel wallet (deployed by the withdrawal), gas paid by the service', async () => {
    const wallet = await kernel.walletAddress(20)
    const stablecoin = f.chains.base.addresses.stablecoin
    await fundAccount(f.chains.base, wallet, { stablecoin: '100', eth: '2' })
    const to = getAddress('0x1111111111111111111111111111111111111111')
    const usdc = await kernel.withdraw({ userIndex: 20, chain: 'base', tokenAddress: stablecoin, to, amount: '12.5' })
    expect((await f.clients.base.getTransactionReceipt({ hash: usdc.txHash })).status).toBe('success')
    expect(await balanceOf('base', stablecoin, to)).toBe(12_500_000n)
    expect(await balanceOf('base', stablecoin, wallet)).toBe(87_500_000n)
    const before = await f.clients.base.getBalance({ address: to })
    await kernel.withdraw({ userIndex: 20, chain: 'base', tokenAddress: NATIVE_ETH_ADDRESS, to, amount: 'max' })
    expect(await f.clients.base.getBalance({ address: to })).toBe(before + parseEther('2'))
    expect(await f.clients.base.getBalance({ address: wallet })).toBe(0n)
    await expect(kernel.withdraw({ userIndex: 20, chain: 'base', tokenAddress: stablecoin, to, amount: '87.500001' })).rejects.toMatchObject({
      code: 'insufficient_balance',
    })
  })
})

describe('the wallet address a buyer is shown is confirmed on chain', () => {
  /** A "factory" whose every call answers one other address: PUSH2 0x0bad PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
  const LYING_FACTORY_CODE = '0x610bad60005260206000f3'
  const wrong = getAddress('0x0000000000000000000000000000000000000bad')

  it('Kernel: refuses with wallet_address_mismatch when one chain’s meta-factory derives another address', async () => {
    const saved = await f.clients.second_chain.getCode({ address: KERNEL_META_FACTORY_ADDRESS })
    await jsonRpc(f.chains.second_chain.rpcUrl, 'anvil_setCode', [KERNEL_META_FACTORY_ADDRESS, LYING_FACTORY_CODE])
    try {
      const fresh = f.newService({ accountKind: 'kernel' })
      const error = await fresh.verifiedWalletAddress(61).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'wallet_address_mismatch' })
      expect((error as Error).message).toContain(`on second_chain derives ${wrong}`)
      expect((error as Error).message).toContain(await fresh.walletAddress(61))
    } finally {
      await jsonRpc(f.chains.second_chain.rpcUrl, 'anvil_setCode', [KERNEL_META_FACTORY_ADDRESS, saved])
    }
    expect(await f.newService({ accountKind: 'kernel' }).verifiedWalletAddress(61)).toBe(await kernel.walletAddress(61))
  })

  it('refuses with chain_unavailable, storing nothing, when a chain cannot be asked', async () => {
    const dead = createPublicClient({ transport: http('http://127.0.0.1:9', { retryCount: 0 }) })
    const error = await f
      .newService({ accountKind: 'kernel', readClients: { second_chain: dead } })
      .verifiedWalletAddress(63)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'chain_unavailable' })
    expect((error as Error).message).toBe('The wallet address could not be confirmed on second_chain; nothing was stored. Try again shortly.')
  })

  it('SimpleAccount: refuses when the configured factory derives another address than the one computed offline', async () => {
    const fake = getAddress('0x00000000000000000000000000000000000fac70')
    for (const chain of ['base', 'second_chain'] as const) await jsonRpc(f.chains[chain].rpcUrl, 'anvil_setCode', [fake, LYING_FACTORY_CODE])
    const chains = {
      base: { ...f.chains.base, addresses: { ...f.chains.base.addresses, accountFactory: fake } },
      second_chain: { ...f.chains.second_chain, addresses: { ...f.chains.second_chain.addresses, accountFactory: fake } },
    }
    const error = await f
      .newService({ chains })
      .verifiedWalletAddress(62)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'wallet_address_mismatch' })
    expect(await f.service.verifiedWalletAddress(62)).toBe(await f.service.walletAddress(62))
  })
})
