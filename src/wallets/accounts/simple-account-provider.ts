import { createClient, custom, encodeFunctionData, type Address, type LocalAccount } from 'viem'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import type { ChainConfig, ChainKey } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { KeyStore } from '../keys/key-store.ts'
import type { OperationAccount, SmartAccountProvider } from './operation-account.ts'
import { simpleAccountAddress } from './simple-account-address.ts'

/** Salt of every account: each user already has its own owner key, so the salt adds nothing. */
const ACCOUNT_SALT = 0n

const createAccountAbi = [
  {
    type: 'function',
    name: 'createAccount',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ name: 'ret', type: 'address' }],
    stateMutability: 'nonpayable',
  },
] as const

/**
 * A client that refuses every RPC: permissionless needs a client object, but with the address and chain id supplied
 * the simple account never talks to the chain, and this makes that a guarantee rather than a hope.
 */
const offlineClient = (chainId: number) =>
  createClient({
    chain: { id: chainId, name: `chain-${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } },
    transport: custom({
      request: async ({ method }) => {
        throw new Error(`offline simple-account client: unexpected RPC ${String(method)}`)
      },
    }),
  })

export function createSimpleAccountProvider(deps: { chains: Record<ChainKey, ChainConfig>; keys: KeyStore }): SmartAccountProvider {
  const factories = new Set(Object.values(deps.chains).map((chain) => chain.addresses.accountFactory?.toLowerCase()))
  if (factories.has(undefined)) {
    // The config requires it with accountKind 'simple' (src/config/config-schema.ts); this guards other callers.
    throw new PrebuyError('account_factory_mismatch', 'SimpleAccount wallets need addresses.accountFactory on every chain.')
  }
  if (factories.size !== 1) {
    // Different factories would give a user different addresses per chain, breaking the one-wallet promise.
    throw new PrebuyError('account_factory_mismatch', 'Every chain must use the same SimpleAccountFactory address.')
  }
  const factoryOf = (chain: ChainConfig): Address => chain.addresses.accountFactory as Address
  // ~0.2 ms of hashing per address: computed once per owner (the factory is the same on every chain, checked above),
  // so building 500 accounts for a launch does not spend 100 ms re-deriving addresses walletAddress already knew.
  const addresses = new Map<string, Address>()
  const addressOf = (owner: LocalAccount, chain: ChainConfig): Address => {
    let address = addresses.get(owner.address)
    if (!address) {
      if (addresses.size >= 100_000) addresses.clear()
      address = simpleAccountAddress(factoryOf(chain), owner.address, ACCOUNT_SALT)
      addresses.set(owner.address, address)
    }
    return address
  }

  // Building an account costs a permissionless object and an address hash: keep them (bounded, cleared when full).
  const cache = new Map<string, Promise<OperationAccount>>()

  return {
    kind: 'simple',
    async address(userIndex) {
      return addressOf(deps.keys.ownerSigner(userIndex), deps.chains.base)
    },
    account(chainKey, userIndex) {
      const cacheKey = `${chainKey}:${userIndex}`
      let cached = cache.get(cacheKey)
      if (!cached) {
        if (cache.size >= 100_000) cache.clear()
        cached = build(chainKey, userIndex)
        cache.set(cacheKey, cached)
      }
      return cached
    },
  }

  async function build(chainKey: ChainKey, userIndex: number): Promise<OperationAccount> {
    const chain = deps.chains[chainKey]
    const owner = deps.keys.ownerSigner(userIndex)
    const address = addressOf(owner, chain)
    const account = await toSimpleSmartAccount({
      client: offlineClient(chain.chainId),
      owner,
      factoryAddress: factoryOf(chain),
      entryPoint: { address: chain.addresses.entryPoint, version: '0.7' },
      index: ACCOUNT_SALT,
      address,
    })
    const operationAccount: OperationAccount = {
      address,
      // Encoded here rather than by permissionless, whose getFactoryArgs first asks the chain whether it is deployed.
      factoryArgs: async () => ({
        factory: factoryOf(chain),
        factoryData: encodeFunctionData({ abi: createAccountAbi, functionName: 'createAccount', args: [owner.address, ACCOUNT_SALT] }),
      }),
      encodeCalls: (calls) => account.encodeCalls(calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data }))),
      // SimpleAccount uses the whole 192-bit key; small integers keep nonce slots reused across operations.
      nonceKey: (stream) => BigInt(stream),
      maxStreams: 1_000_000,
      deploymentGas: 400_000n,
      validationGas: 100_000n,
      sign: (userOperation) => account.signUserOperation({ ...userOperation, signature: '0x', chainId: chain.chainId }),
      // SimpleAccount v0.7 validates ECDSA.recover(toEthSignedMessageHash(userOpHash)): what permissionless signs too.
      signHash: (userOpHash) => owner.signMessage({ message: { raw: userOpHash } }),
      stubSignature: () => account.getStubSignature(),
    }
    return operationAccount
  }
}
