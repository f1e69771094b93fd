import type { Address, Hex } from 'viem'
import type { OperationAccount, UnsignedUserOperation } from './accounts/operation-account.ts'

/** An operation before gas and fees: who, which nonce, deployment, what to call. */
export interface UserOperationDraft {
  account: OperationAccount
  deploys: boolean
  /** The request's own call gas limit, if it set one. */
  callGasLimit?: bigint | undefined
  fields: { sender: Address; nonce: bigint; factory?: Address; factoryData?: Hex; callData: Hex }
}

/** Decides gas limits and fees of a batch of drafts (same order in, same order out). */
export interface GasPolicy {
  price(drafts: readonly UserOperationDraft[]): Promise<UnsignedUserOperation[]>
}

/**
 * Our own bundler's policy: maxFeePerGas = maxPriorityFeePerGas = 0, so the EntryPoint asks the account for no prefund
 * and pays the beneficiary nothing; the wallet never needs ETH and the bundler EOA carries the gas. With a zero fee,
 * generous limits cost nothing (a transaction pays for gas used), so they are fixed rather than estimated.
 */
export function createZeroFeeGasPolicy(options: { callGasLimit: bigint; preVerificationGas: bigint }): GasPolicy {
  return {
    async price(drafts) {
      return drafts.map((draft) => ({
        ...draft.fields,
        callGasLimit: draft.callGasLimit ?? options.callGasLimit,
        verificationGasLimit: draft.account.validationGas + (draft.deploys ? draft.account.deploymentGas : 0n),
        preVerificationGas: options.preVerificationGas,
        maxFeePerGas: 0n,
        maxPriorityFeePerGas: 0n,
      }))
    },
  }
}
