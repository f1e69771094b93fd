import { concatHex, createClient, http, pad, toHex, type Address, type Client, type Hex } from 'viem'
import { toKernelSmartAccount } from 'permissionless/accounts'
import type { ChainConfig, ChainKey } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { KeyStore } from '../keys/key-store.ts'
import type { OperationAccount, SmartAccountProvider } from './operation-account.ts'

export const KERNEL_VERSION = '0.3.1'
/** Kernel v3.1's ECDSA validator (canonical, permissionless' constant for 0.3.1). */
export const KERNEL_ECDSA_VALIDATOR: Address = '0x845ADb2C711129d4f3966735eD98a9F09fC4cE57'

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
 * Kernel v3.1 through permissionless (the production default on real chains). Address derivation and callData
 * encoding are permissionless'; the address comes from the EntryPoint's getSenderAddress on base and is cached (the
 * canonical factory sits at the same address everywhere, so the account does too).
 */
export function createKernelAccountProvider(options: KernelProviderOptions): SmartAccountProvider {
  const clients = new Map<ChainKey, Client>()
  const clientFor = (chainKey: ChainKey) => {
    let client = clients.get(chainKey) ?? options.clients?.[chainKey]
    if (!client) {
      const chain = options.chains[chainKey]
      client = createClient({ transport: http(chain.rpcUrl) })
      clients.set(chainKey, client)
    }
    return client
  }
  const accounts = new Map<string, ReturnType<typeof toKernelSmartAccount<'0.7', typeof KERNEL_VERSION, never>>>()
  const kernelAccount = (chainKey: ChainKey, userIndex: number) => {
    const cacheKey = `${chainKey}:${userIndex}`
    let account = accounts.get(cacheKey)
    if (!account) {
      const chain = options.chains[chainKey]
      account = toKernelSmartAccount({
        client: clientFor(chainKey) as Parameters<typeof toKernelSmartAccount>[0]['client'],
        owners: [options.keys.ownerSigner(userIndex)],
        version: KERNEL_VERSION,
        entryPoint: { address: chain.addresses.entryPoint, version: '0.7' },
        index: 0n,
        ...(options.factoryAddress ? { factoryAddress: options.factoryAddress } : {}),
        ...(options.metaFactoryAddress ? { metaFactoryAddress: options.metaFactoryAddress } : {}),
        ...(options.accountLogicAddress ? { accountLogicAddress: options.accountLogicAddress } : {}),
      })
      // A failed lookup must not be cached forever.
      account.catch(() => accounts.delete(cacheKey))
      accounts.set(cacheKey, account)
    }
    return account
  }

  return {
    kind: 'kernel',
    async address(userIndex) {
      return (await kernelAccount('base', userIndex)).address
    },
    async account(chainKey, userIndex) {
      const chain = options.chains[chainKey]
      const account = await kernelAccount(chainKey, userIndex)
      const operationAccount: OperationAccount = {
        address: account.address,
        async factoryArgs() {
          const args = await account.getFactoryArgs()
          if (!args.factory || !args.factoryData) throw new PrebuyError('no_factory_args', 'The account has no factory data.')
          return { factory: args.factory, factoryData: args.factoryData as Hex }
        },
        encodeCalls: (calls) => account.encodeCalls(calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data }))),
        nonceKey: (stream) => kernelNonceKey(stream),
        maxStreams: 0x10000,
        deploymentGas: 600_000n,
        validationGas: 150_000n,
        sign: (userOperation) => account.signUserOperation({ ...userOperation, signature: '0x', chainId: chain.chainId }),
        stubSignature: () => account.getStubSignature(),
      }
      return operationAccount
    },
  }
}
