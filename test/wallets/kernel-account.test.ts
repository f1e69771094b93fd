import {
  createClient,
  custom,
  decodeFunctionData,
  getAddress,
  encodeAbiParameters,
  erc20Abi,
  encodeFunctionData,
  hashMessage,
  recoverAddress,
  type Address,
} from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { createAccountProvider } from '../../src/wallets/accounts/create-account-provider.ts'
import { createKernelAccountProvider, kernelNonceKey } from '../../src/wallets/accounts/kernel-account-provider.ts'
import { kernelAccountAddress } from '../../src/wallets/accounts/kernel-account-address.ts'
import { KERNEL_META_FACTORY_ADDRESS } from '../../src/chain/canonical-addresses.ts'
import { toKernelSmartAccount } from 'permissionless/accounts'
import { createKeyStore } from '../../src/wallets/keys/key-store.ts'

/**
 * Offline, with clients that record every RPC: the provider computes the address and the deployment call itself
 * (kernel-account-address.ts) and must agree with what permissionless would derive and encode; it adds nonce-key
 * encoding per stream, call encoding and the signature. On chain, the real KernelFactory's derivation is checked by
 * test/wallets/kernel-wallet.test.ts on the devnet.
 */
const COUNTERFACTUAL: Address = getAddress('0x00000000000000000000000000000000c0ffee01')
const ENTRY_POINT: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
const chainConfig = (key: ChainKey, chainId: number): ChainConfig => ({
  key,
  chainId,
  rpcUrl: 'http://127.0.0.1:9',
  wsUrl: 'ws://127.0.0.1:9',
  addresses: { entryPoint: ENTRY_POINT } as ChainConfig['addresses'],
})
const chains = { base: chainConfig('base', 8453), second_chain: chainConfig('second_chain', 7777) }
const rpcCalls: string[] = []
const fakeClient = (chainId: number) =>
  createClient({
    chain: { id: chainId, name: 'fake', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } },
    transport: custom({
      request: async ({ method }) => {
        rpcCalls.push(String(method))
        if (method === 'eth_call') return encodeAbiParameters([{ type: 'address' }], [COUNTERFACTUAL])
        if (method === 'eth_getCode') return '0x'
        if (method === 'eth_chainId') return `0x${chainId.toString(16)}`
        throw new Error(`unexpected ${String(method)}`)
      },
    }),
  })

const keys = createKeyStore(new Uint8Array(32).fill(42))
const provider = createKernelAccountProvider({ chains, keys, clients: { base: fakeClient(8453), second_chain: fakeClient(7777) } })

describe('kernel account provider (offline)', () => {
  it('is what the switch builds for kind "kernel"', () => {
    expect(createAccountProvider({ kind: 'kernel', chains, keys }).kind).toBe('kernel')
  })

  it('computes the address offline, asking no chain, and encodes the deployment exactly as permissionless does', async () => {
    const before = rpcCalls.length
    const address = await provider.address(7)
    expect(await provider.address(7)).toBe(address)
    const account = await provider.account('base', 7)
    expect(account.address).toBe(address)
    await account.factoryArgs()
    expect(rpcCalls.length).toBe(before)
    // permissionless' own account for the same owner (its address asked from the fake EntryPoint): the same deployment.
    const reference = await toKernelSmartAccount({
      client: fakeClient(8453),
      owners: [keys.ownerSigner(7)],
      version: '0.3.1',
      entryPoint: { address: ENTRY_POINT, version: '0.7' },
      index: 0n,
    })
    const theirs = await reference.getFactoryArgs()
    expect(await account.factoryArgs()).toEqual({ factory: theirs.factory, factoryData: theirs.factoryData })
    expect(theirs.factory).toBe(KERNEL_META_FACTORY_ADDRESS)
    expect(address).toBe(kernelAccountAddress(keys.ownerSigner(7).address))
  })

  it('builds factory data for the owner, ERC-7579 calldata, per-stream nonce keys and an owner signature', async () => {
    const account = await provider.account('second_chain', 7)
    const owner = keys.ownerSigner(7).address
    const { factory, factoryData } = await account.factoryArgs()
    expect(factory).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(factoryData.toLowerCase()).toContain(owner.slice(2).toLowerCase())

    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [COUNTERFACTUAL, 5n] })
    const callData = await account.encodeCalls([{ to: '0x00000000000000000000000000000000000000aa', data: transfer }])
    const executeAbi = [
      {
        type: 'function',
        name: 'execute',
        inputs: [
          { name: 'mode', type: 'bytes32' },
          { name: 'executionCalldata', type: 'bytes' },
        ],
        outputs: [],
        stateMutability: 'payable',
      },
    ] as const
    const decoded = decodeFunctionData({ abi: executeAbi, data: callData })
    expect(decoded.functionName).toBe('execute')
    expect(decoded.args[1].toLowerCase()).toContain(transfer.slice(10))

    expect(account.nonceKey(3)).toBe(kernelNonceKey(3))
    expect(account.nonceKey(3)).not.toBe(account.nonceKey(4))
    expect(account.maxStreams).toBe(65536)

    const unsigned = {
      sender: account.address,
      nonce: account.nonceKey(3) << 64n,
      callData,
      callGasLimit: 100_000n,
      verificationGasLimit: 200_000n,
      preVerificationGas: 50_000n,
      maxFeePerGas: 0n,
      maxPriorityFeePerGas: 0n,
    }
    const signature = await account.sign(unsigned)
    const userOpHash = getUserOperationHash({
      userOperation: { ...unsigned, signature: '0x' },
      entryPointAddress: ENTRY_POINT,
      entryPointVersion: '0.7',
      chainId: 7777,
    })
    expect(await recoverAddress({ hash: hashMessage({ raw: userOpHash }), signature })).toBe(owner)
  })
})
