import { createClient, custom, encodeFunctionData, type Address, type Hash } from 'viem'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import type { ChainConfig, ChainKey } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { KeyStore } from '../keys/key-store.ts'
import type { OperationAccount, SmartAccountProvider, UnsignedUserOperation } from './operation-account.ts'
import type { AccountCall } from '../wallet-service.ts'
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
  const addressOf = (owner: Address, chain: ChainConfig): Address => {
    let address = addresses.get(owner)
    if (!address) {
      if (addresses.size >= 100_000) addresses.clear()
      address = simpleAccountAddress(factoryOf(chain), owner, ACCOUNT_SALT)
      addresses.set(owner, address)
    }
    return address
  }

  // One offline client per chain, shared by every account's permissionless object.
  const clients = new Map<number, ReturnType<typeof offlineClient>>()
  const clientOf = (chainId: number) => {
    let client = clients.get(chainId)
    if (!client) {
      client = offlineClient(chainId)
      clients.set(chainId, client)
    }
    return client
  }

  return {
    kind: 'simple',
    async address(userIndex) {
      return addressOf(deps.keys.ownerAddress(userIndex), deps.chains.base)
    },
    // A few fields, built on each call from the two caches above: nothing per wallet is kept beside them.
    async account(chainKey, userIndex) {
      const chain = deps.chains[chainKey]
      return new SimpleOperationAccount(addressOf(deps.keys.ownerAddress(userIndex), chain), userIndex, chain, deps.keys, factoryOf(chain), clientOf)
    },
  }
}

/**
 * One user's SimpleAccount on one chain: its address and what the bundler asks of it, a few fields, built for each
 * call of the provider. The permissionless account object (~3 KB) and the owner's signer are built for each encoding
 * and signature (~15 µs, beside a signature's ~1 ms) and dropped after: a daemon whose books hold thousands of wallets
 * keeps none of them (kept per wallet and chain, they held ~110 MB of its heap with 17,000 wallets: docs/reliability.md
 * "Memory").
 */
class SimpleOperationAccount implements OperationAccount {
  readonly maxStreams = 1_000_000
  readonly deploymentGas = 400_000n
  readonly validationGas = 100_000n

  constructor(
    readonly address: Address,
    private readonly userIndex: number,
    private readonly chain: ChainConfig,
    private readonly keys: KeyStore,
    private readonly factory: Address,
    private readonly clientOf: (chainId: number) => ReturnType<typeof offlineClient>,
  ) {}

  private smartAccount() {
    return toSimpleSmartAccount({
      client: this.clientOf(this.chain.chainId),
      owner: this.keys.ownerSigner(this.userIndex),
      factoryAddress: this.factory,
      entryPoint: { address: this.chain.addresses.entryPoint, version: '0.7' },
      index: ACCOUNT_SALT,
      address: this.address,
    })
  }

  /** Encoded here rather than by permissionless, whose getFactoryArgs first asks the chain whether it is deployed. */
  async factoryArgs() {
    const owner = this.keys.ownerAddress(this.userIndex)
    return { factory: this.factory, factoryData: encodeFunctionData({ abi: createAccountAbi, functionName: 'createAccount', args: [owner, ACCOUNT_SALT] }) }
  }

  async encodeCalls(calls: readonly AccountCall[]) {
    return (await this.smartAccount()).encodeCalls(calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data })))
  }

  /** SimpleAccount uses the whole 192-bit key; small integers keep nonce slots reused across operations. */
  nonceKey(stream: number) {
    return BigInt(stream)
  }

  async sign(userOperation: UnsignedUserOperation) {
    return (await this.smartAccount()).signUserOperation({ ...userOperation, signature: '0x', chainId: this.chain.chainId })
  }

  /** SimpleAccount v0.7 validates ECDSA.recover(toEthSignedMessageHash(userOpHash)): what permissionless signs too. */
  signHash(userOpHash: Hash) {
    return this.keys.ownerSigner(this.userIndex).signMessage({ message: { raw: userOpHash } })
  }

  async stubSignature() {
    return (await this.smartAccount()).getStubSignature()
  }
}
