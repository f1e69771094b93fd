import { concatHex, createClient, pad, toHex, type Address, type Client } from 'viem'
import { toKernelSmartAccount } from 'permissionless/accounts'
import type { ChainConfig, ChainKey } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { KeyStore } from '../keys/key-store.ts'
import { CANONICAL_KERNEL_ADDRESSES, KERNEL_ACCOUNT_INDEX, kernelAccountAddress, kernelFactoryData, type KernelAddresses } from './kernel-account-address.ts'
import type { OperationAccount, SmartAccountProvider, UnsignedUserOperation } from './operation-account.ts'
import type { AccountCall } from '../wallet-service.ts'
import { KERNEL_ECDSA_VALIDATOR_ADDRESS } from '../../chain/canonical-addresses.ts'
import { rpcHttp } from '../../chain/rpc-http.ts'

export const KERNEL_VERSION = '0.3.1'
/** Kernel v3.1's ECDSA validator (canonical, permissionless' constant for 0.3.1). */
export const KERNEL_ECDSA_VALIDATOR: Address = KERNEL_ECDSA_VALIDATOR_ADDRESS

/**
 * Kernel v3 splits the 192-bit nonce key: mode (1 byte, 0 = default) ++ validator type (1 byte, 0 = root) ++ validator
 * address (20 bytes) ++ a 2-byte key the caller chooses. permissionless fixes that 2-byte key per account object, so
 * we encode it ourselves per stream.
 */
export function kernelNonceKey(stream: number, validator: Address = KERNEL_ECDSA_VALIDATOR): bigint {
  if (!Number.isInteger(stream) || stream < 0 || stream > 0xffff) throw new PrebuyError('nonce_stream_out_of_range', 'Kernel nonce streams are 0..65535.')
  return BigInt(pad(concatHex(['0x00', '0x00', validator, toHex(stream, { size: 2 })]), { size: 24 }))
}

export interface KernelProviderOptions {
  chains: Record<ChainKey, ChainConfig>
  keys: KeyStore
  /** Overrides for non-canonical deployments; the defaults are permissionless' canonical Kernel v3.1 addresses. */
  factoryAddress?: Address
  metaFactoryAddress?: Address
  accountLogicAddress?: Address
  /** Injected clients (offline tests); by default one HTTP client per chain from its rpcUrl. */
  clients?: Partial<Record<ChainKey, Client>>
}

/**
 * Kernel v3.1 through permissionless (callData encoding and signing are permissionless'). The address is computed
 * offline (kernel-account-address.ts: the KernelFactory's CREATE2 of the ERC1967 proxy), the same on every chain since
 * the canonical contracts are; before a new key stores it, the wallet service has every chain's meta-factory derive it
 * too. The deployment call is encoded here as well, so building an account asks the chain nothing.
 */
export function createKernelAccountProvider(options: KernelProviderOptions): SmartAccountProvider {
  const addresses: KernelAddresses = {
    implementation: options.accountLogicAddress ?? CANONICAL_KERNEL_ADDRESSES.implementation,
    factory: options.factoryAddress ?? CANONICAL_KERNEL_ADDRESSES.factory,
    metaFactory: options.metaFactoryAddress ?? CANONICAL_KERNEL_ADDRESSES.metaFactory,
    validator: CANONICAL_KERNEL_ADDRESSES.validator,
  }
  const clients = new Map<ChainKey, Client>()
  const clientFor = (chainKey: ChainKey) => {
    let client = clients.get(chainKey) ?? options.clients?.[chainKey]
    if (!client) {
      const chain = options.chains[chainKey]
      client = createClient({ transport: rpcHttp(chain.rpcUrl) })
      clients.set(chainKey, client)
    }
    return client
  }
  // ~0.3 ms of hashing per address: once per owner (bounded, cleared when full).
  const addressCache = new Map<Address, Address>()
  const addressOf = (owner: Address): Address => {
    let address = addressCache.get(owner)
    if (!address) {
      if (addressCache.size >= 100_000) addressCache.clear()
      address = kernelAccountAddress(owner, addresses)
      addressCache.set(owner, address)
    }
    return address
  }

  return {
    kind: 'kernel',
    async address(userIndex) {
      return addressOf(options.keys.ownerAddress(userIndex))
    },
    // A few fields, built on each call from the address cache above: nothing per wallet is kept beside it.
    async account(chainKey, userIndex) {
      return new KernelOperationAccount(addressOf(options.keys.ownerAddress(userIndex)), userIndex, options.chains[chainKey], options.keys, addresses, () =>
        clientFor(chainKey),
      )
    },
  }
}

/**
 * One user's Kernel account on one chain: its address and what the bundler asks of it, a few fields, built for each
 * call of the provider. The permissionless account object and the owner's signer are built for each encoding and
 * signature and dropped after (as SimpleOperationAccount: a daemon whose books hold thousands of wallets keeps none).
 */
class KernelOperationAccount implements OperationAccount {
  readonly maxStreams = 0x10000
  readonly deploymentGas = 600_000n
  readonly validationGas = 150_000n

  constructor(
    readonly address: Address,
    private readonly userIndex: number,
    private readonly chain: ChainConfig,
    private readonly keys: KeyStore,
    private readonly kernel: KernelAddresses,
    private readonly client: () => Client,
  ) {}

  /** With the address given, permissionless does not ask the EntryPoint for it. */
  private smartAccount() {
    return toKernelSmartAccount({
      client: this.client() as Parameters<typeof toKernelSmartAccount>[0]['client'],
      owners: [this.keys.ownerSigner(this.userIndex)],
      version: KERNEL_VERSION,
      entryPoint: { address: this.chain.addresses.entryPoint, version: '0.7' },
      index: KERNEL_ACCOUNT_INDEX,
      address: this.address,
      validatorAddress: this.kernel.validator,
      factoryAddress: this.kernel.factory,
      metaFactoryAddress: this.kernel.metaFactory,
      accountLogicAddress: this.kernel.implementation,
    })
  }

  /** Encoded here rather than by permissionless, whose getFactoryArgs first asks the chain whether it is deployed. */
  async factoryArgs() {
    return { factory: this.kernel.metaFactory, factoryData: kernelFactoryData(this.keys.ownerAddress(this.userIndex), this.kernel) }
  }

  async encodeCalls(calls: readonly AccountCall[]) {
    return (await this.smartAccount()).encodeCalls(calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data })))
  }

  nonceKey(stream: number) {
    return kernelNonceKey(stream, this.kernel.validator)
  }

  async sign(userOperation: UnsignedUserOperation) {
    return (await this.smartAccount()).signUserOperation({ ...userOperation, signature: '0x', chainId: this.chain.chainId })
  }

  async stubSignature() {
    return (await this.smartAccount()).getStubSignature()
  }
}
