import { BaseError, type Address, type Hash, type Hex, type PublicClient } from 'viem'
import { createBundlerClient, formatUserOperationRequest, type BundlerClient, type UserOperation } from 'viem/account-abstraction'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import type { Logger } from '../../common/logger.ts'
import type { UnsignedUserOperation } from '../accounts/operation-account.ts'
import type { GasPolicy } from '../gas-policy.ts'
import type { Bundler, BundleOutcome } from './bundler.ts'
import { revertWithoutReason } from './decode-revert-reason.ts'
import { rpcHttp } from '../../chain/rpc-http.ts'

export interface ExternalBundlerOptions {
  chain: ChainConfig
  /** The ERC-4337 bundler's JSON-RPC URL (eth_sendUserOperation, eth_estimateUserOperationGas, ...). */
  url: string
  logger: Logger
  receiptTimeoutMs?: number
  pollingIntervalMs?: number
}

export const createExternalBundlerClient = (options: Pick<ExternalBundlerOptions, 'url' | 'pollingIntervalMs'>): BundlerClient =>
  createBundlerClient({ transport: rpcHttp(options.url), pollingInterval: options.pollingIntervalMs ?? 1_000 })

const messageOf = (error: unknown): string => (error instanceof BaseError ? error.details || error.shortMessage : String(error))

/**
 * Optional mode: hands our signed UserOperations to a third-party ERC-4337 bundler instead of our own EOA. Operations
 * are sent one by one in the given order (the bundler decides how it packs them); each result comes from
 * eth_getUserOperationReceipt. A bundler that refuses an operation gets it reported like an EntryPoint refusal.
 */
export function createExternalBundler(options: ExternalBundlerOptions): Bundler {
  const bundler = createExternalBundlerClient(options)
  const log = options.logger.child({ component: 'external-bundler', chain: options.chain.key })
  const entryPoint = options.chain.addresses.entryPoint
  return {
    async submit(items, submitOptions = {}) {
      await submitOptions.sendAfter
      const accepted: (Hash | undefined)[] = []
      const refusals = new Map<number, string>()
      for (const [index, item] of items.entries()) {
        try {
          const hash = (await bundler.request({
            method: 'eth_sendUserOperation',
            params: [formatUserOperationRequest(item.userOperation), entryPoint],
          })) as Hash
          if (hash.toLowerCase() !== item.userOpHash.toLowerCase()) {
            throw new PrebuyError('user_operation_hash_mismatch', 'The bundler returned another UserOperation hash than ours.')
          }
          accepted.push(hash)
        } catch (error) {
          log.warn({ userOpHash: item.userOpHash, id: item.id, reason: messageOf(error) }, 'user operation refused by the bundler')
          refusals.set(index, messageOf(error))
          accepted.push(undefined)
        }
      }
      return Promise.all(
        items.map(async (item, index): Promise<BundleOutcome> => {
          const hash = accepted[index]
          if (!hash) return { status: 'refused', id: item.id, userOpHash: item.userOpHash, reason: `refused by the bundler: ${refusals.get(index)}` }
          try {
            const receipt = await bundler.waitForUserOperationReceipt({
              hash,
              timeout: options.receiptTimeoutMs ?? 60_000,
              pollingInterval: options.pollingIntervalMs ?? 1_000,
            })
            const mined = { id: item.id, userOpHash: hash, txHash: receipt.receipt.transactionHash, blockNumber: receipt.receipt.blockNumber }
            if (receipt.success) return { status: 'included', ...mined }
            // The bundler's reason as it gave it: not decoded here, so its error is not named.
            const reason = receipt.reason ?? null
            return { status: 'reverted', ...mined, revert: reason === null ? revertWithoutReason() : { name: 'unknown', args: [], message: reason } }
          } catch (error) {
            throw new PrebuyError('user_operation_not_mined', `A UserOperation was not mined on ${options.chain.key}.`, {
              details: { userOpHash: hash },
              cause: error,
            })
          }
        }),
      )
    },
  }
}

/**
 * Gas policy for an external bundler: it will not carry zero-fee operations, so fees are the chain's market fees and
 * limits come from the bundler's eth_estimateUserOperationGas (simulated with the account's stub signature). Without a
 * paymaster the account pays the EntryPoint prefund from its own ETH.
 */
export function createMarketGasPolicy(options: { client: PublicClient; bundler: BundlerClient; entryPoint: Address }): GasPolicy {
  return {
    async price(drafts) {
      const fees = await options.client.estimateFeesPerGas()
      return Promise.all(
        drafts.map(async (draft): Promise<UnsignedUserOperation> => {
          const stub: UserOperation<'0.7'> = {
            ...draft.fields,
            callGasLimit: 0n,
            verificationGasLimit: 0n,
            preVerificationGas: 0n,
            maxFeePerGas: fees.maxFeePerGas,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
            signature: await draft.account.stubSignature(),
          }
          let estimate: { callGasLimit: Hex; verificationGasLimit: Hex; preVerificationGas: Hex }
          try {
            estimate = (await options.bundler.request({
              method: 'eth_estimateUserOperationGas',
              params: [formatUserOperationRequest(stub), options.entryPoint],
            })) as typeof estimate
          } catch (error) {
            throw new PrebuyError('user_operation_estimate_failed', 'The bundler could not estimate a UserOperation.', { cause: error })
          }
          return {
            ...draft.fields,
            callGasLimit: BigInt(estimate.callGasLimit),
            verificationGasLimit: BigInt(estimate.verificationGasLimit),
            preVerificationGas: BigInt(estimate.preVerificationGas),
            maxFeePerGas: fees.maxFeePerGas,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
          }
        }),
      )
    },
  }
}
