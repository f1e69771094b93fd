import type { Address, Hash, Hex } from 'viem'
import type { ChainKey } from '../../chain/chain-keys.ts'
import type { AccountCall } from '../wallet-service.ts'

/** Which smart-account implementation backs the wallets (wallet.accountKind): SimpleAccount v0.7 (default) or Kernel v3.1. */
export type SmartAccountKind = 'simple' | 'kernel'

/** The fields of a v0.7 UserOperation the account signs over (viem's unpacked form). */
export interface UnsignedUserOperation {
  sender: Address
  nonce: bigint
  factory?: Address | undefined
  factoryData?: Hex | undefined
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/**
 * One user's smart account on one chain, as the bundler needs it. Every account type answers the same questions;
 * the owner key stays inside the signer this object closes over.
 */
export interface OperationAccount {
  readonly address: Address
  /** Factory and calldata that deploy the account with its first UserOperation. */
  factoryArgs(): Promise<{ factory: Address; factoryData: Hex }>
  encodeCalls(calls: readonly AccountCall[]): Promise<Hex>
  /**
   * The EntryPoint 2D-nonce key for concurrent stream `stream` (0-based). Account types reserve different parts of
   * the 192-bit key: SimpleAccount uses it whole, Kernel v3 keeps 2 bytes for the caller after its validator prefix.
   */
  nonceKey(stream: number): bigint
  /** How many distinct streams the key encoding allows. */
  readonly maxStreams: number
  /** Extra verification gas the deployment costs on top of validation. */
  readonly deploymentGas: bigint
  readonly validationGas: bigint
  sign(userOperation: UnsignedUserOperation): Promise<Hex>
  /**
   * Optional fast path: the signature from the userOpHash the caller already computed (SimpleAccount signs exactly
   * that hash as an EIP-191 message), saving a second hash of the operation per signature.
   */
  signHash?(userOpHash: Hash): Promise<Hex>
  /** A signature of the right shape that validation accepts for gas estimation (external bundlers simulate with it). */
  stubSignature(): Promise<Hex>
}

/** Builds OperationAccounts for one account kind; the only place that knows which kind it is. */
export interface SmartAccountProvider {
  readonly kind: SmartAccountKind
  /** Counterfactual address: the same on both chains. */
  address(userIndex: number): Promise<Address>
  account(chain: ChainKey, userIndex: number): Promise<OperationAccount>
}
