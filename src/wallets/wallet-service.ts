import type { Abi, Address, Hash, Hex, TransactionReceipt } from 'viem'
import type { PackedUserOperation } from 'viem/account-abstraction'
import type { ChainKey } from '../chain/chain-keys.ts'
import type { ErrorCode } from '../common/error-codes.ts'

/**
 * The one interface the rest of the service uses for smart wallets. The implementation (src/wallets/) hides the
 * account type (SimpleAccount v0.7 or Kernel v3.1, by configuration), key custody and the bundler.
 *
 * A wallet is identified by the user's index (a small integer the store allocates once per API key); the owner key is
 * derived from the master secret and that index and never leaves this module.
 */
export interface TokenInfo {
  address: Address
  symbol: string
  name: string
  decimals: number
}

export interface BalanceEntry extends TokenInfo {
  /** Integer amount in the token's smallest unit, as a decimal string. */
  balance: string
}

export type WalletBalances = Record<ChainKey, BalanceEntry[]>

export interface WithdrawRequest {
  userIndex: number
  chain: ChainKey
  /** ERC-20 address, or NATIVE_ETH_ADDRESS for ETH. */
  tokenAddress: string
  /** Destination; validated here (malformed -> PrebuyError bad_request 'invalid_address'). */
  to: string
  /** A decimal amount in token units ("1.5"), or "max" for the whole balance. */
  amount: string
  /**
   * The wallet's vesting positions of this token (a locked launch method): what has vested is released in the same
   * operation when the free balance does not cover the amount; what is still locked is named when refused.
   */
  vested?: VestedTokens | undefined
}

/** A wallet's vesting positions of one token, as a withdrawal may use them. Amounts atomic, times unix seconds. */
export interface VestedTokens {
  /** The chain's time the amounts were computed at, unix seconds (the contract's clock, not the host's). */
  now: number
  /** Positions with something vested, on the PrebuyVesting contract that holds each (`release(id)` pays the wallet). */
  releasable: Array<{ contract: Address; positionId: bigint; amount: bigint }>
  locked: Array<{ amount: bigint; lockupEnd: number; vestingEnd: number }>
}

export interface WithdrawResult {
  txHash: Hash
  chain: ChainKey
  tokenAddress: Address
  to: Address
  /** Atomic amount sent, decimal string. */
  amount: string
}

/** One call made by a smart account. */
export interface AccountCall {
  to: Address
  value?: bigint
  data: Hex
}

export interface UserOperationRequest {
  userIndex: number
  calls: AccountCall[]
  /** Caller's correlation id (an order id, a withdrawal id); echoed in the result. */
  id: string
  /**
   * Gas for this operation's calls instead of the service's default (2,000,000, sized for a swap): small operations
   * that many of must fit one transaction (an OTC settlement) declare less. Estimated instead by an external bundler.
   */
  callGasLimit?: bigint
}

/**
 * A revert decoded from its data: `name` is the error's name (a known custom error such as 'TooLittleReceived',
 * 'Error' for a require message, 'Panic', or 'unknown' when it cannot be decoded), `args` its decoded arguments, and
 * `message` the human-readable form logs and journals show (`TooLittleReceived(90, 100)`, the Error's text, `panic 0x11`,
 * `custom error 0x…` with the raw data, `reverted without a reason`).
 */
export interface DecodedRevert {
  name: string
  args: readonly unknown[]
  message: string
}

/**
 * What became of one UserOperation, by `status`:
 * - `included`: mined in `txHash`, and the account's calls succeeded.
 * - `reverted`: mined (its nonce is spent), but the account's call reverted with `revert`.
 * - `bundle_reverted`: the handleOps transaction itself reverted: the operation did not run.
 * - `refused`: refused before inclusion (EntryPoint validation, AAxx; an external bundler's refusal; or never included
 *   in any bundle): it did not run.
 * - `not_sent`: could not be prepared, or its transaction could not be broadcast: it did not run. A request that was
 *   never signed has no `userOpHash`. `code` names the error that stopped its transaction, when one did
 *   (`transaction_over_gas_cap`: the node refused its size, never the operation's fault).
 * - `not_mined`: sent in `txHash` but still unconfirmed after the reconcile rounds. It may still land: reconcile by
 *   userOpHash before retrying.
 * `reason` texts are for people (logs, journals); decisions are made on `status` and `revert.name`.
 */
export type UserOperationResult =
  | { status: 'included'; id: string; userOpHash: Hash; txHash: Hash; blockNumber: bigint }
  | { status: 'reverted'; id: string; userOpHash: Hash; txHash: Hash; blockNumber: bigint; revert: DecodedRevert }
  | { status: 'bundle_reverted'; id: string; userOpHash: Hash; txHash: Hash; blockNumber: bigint }
  | { status: 'refused'; id: string; userOpHash: Hash; reason: string }
  | { status: 'not_sent'; id: string; userOpHash?: Hash; reason: string; code?: ErrorCode | undefined }
  | { status: 'not_mined'; id: string; userOpHash: Hash; txHash: Hash }

/** The block a submission is meant for: its number and time (Unix seconds). */
export interface LandingBlock {
  number: bigint
  timestamp: bigint
}

export interface SubmitOptions {
  /**
   * Nothing is broadcast before this settles: operations are prepared, signed and simulated meanwhile, so a caller
   * that must make something durable first (the executor's `executing` batch) overlaps that write with the signing.
   * When it rejects nothing is sent and the call rejects with its reason.
   */
  sendAfter?: Promise<unknown>
  /**
   * The block the caller expects these operations to land in. Simulations (what is refused, how much gas the bundle
   * gets) run in that block's context: a swap through a hook whose fee decays with time costs different gas, and
   * moves the price through a different number of ticks, in the next block than in the last one.
   */
  landsIn?: LandingBlock
  /**
   * The block the operations' launch happened in (executor buys): sent in the launch's first blocks they offer the
   * launch tip of wallet.priorityFee (the block is ordered by tip). Our own bundler only.
   */
  launchBlock?: bigint
}

export interface WalletService {
  /** Counterfactual smart-account address for a user; the same on both chains. No transaction is sent. */
  walletAddress(userIndex: number): Promise<Address>
  /**
   * The same address, after the factory of every enabled chain derived it too (an eth_call of the deployment, or the
   * wallet's code already there). Refuses with wallet_address_mismatch when a chain derives another address, and with
   * chain_unavailable when it could not be asked. What a new key stores and shows to its buyer.
   */
  verifiedWalletAddress(userIndex: number): Promise<Address>
  /**
   * Balances per chain: native ETH, then the spend currency first among ERC-20s ("0" when none), then every token in
   * `indexedTokens` for that chain the wallet holds (zero balances of launched tokens are omitted), WETH.
   */
  getBalances(userIndex: number, indexedTokens: Record<ChainKey, TokenInfo[]>): Promise<WalletBalances>
  /** The spend currency's balance of many users' wallets on one chain, atomic, in one multicall: by user index. */
  stablecoinBalances(chain: ChainKey, userIndexes: readonly number[]): Promise<Map<number, bigint>>
  /** Refuses with a typed PrebuyError and spends nothing on bad input or insufficient balance. */
  withdraw(request: WithdrawRequest): Promise<WithdrawResult>
  /**
   * Submits many UserOperations on one chain through the service's bundler, in the order given. They are signed and
   * sent in growing chunks (the first handleOps leaves before the last operation is signed), each chunk packed into as
   * few handleOps transactions as the block gas limit allows; transactions go out in order. Resolves once every one
   * is mined.
   */
  submitUserOperations(chain: ChainKey, requests: UserOperationRequest[], options?: SubmitOptions): Promise<UserOperationResult[]>
  /**
   * Optional, off the hot path (the executor calls it on every block for the wallets of projects about to launch):
   * gets these wallets ready for a burst of operations on a chain, so that submitting them later starts signing at
   * once. Reads what each operation would otherwise read first (deployment status, nonce; kept until one of the
   * wallet's own operations or a reorg could change it) and the bundler's fees and nonce, and deploys the wallets
   * that are not deployed yet (gas paid by the service, as their first operation would have). Resolves when done.
   */
  prepareAhead?(chain: ChainKey, userIndexes: readonly number[], options?: PrepareAheadOptions): Promise<PrepareAheadResult>
  /**
   * Forgets what prepareAhead read on a chain (call on a reorg), and the sender accounts' last pending-nonce check: the
   * next send checks them again.
   */
  forgetAhead?(chain: ChainKey): void
  /**
   * Optional (our own bundler only): signs one operation per request without sending them, and sends ONE transaction
   * of the bundler EOA whose calldata `build` makes from them (a contract of ours that calls handleOps itself and
   * checks what the operations did, so that they all count or none does: the OTC settlement). The transaction is
   * simulated first; a revert there sends nothing. Never throws for a revert: the outcome says what happened.
   */
  runOperationsInCall?(chain: ChainKey, request: OperationsCallRequest): Promise<OperationsCallOutcome>
  /**
   * Optional (our own bundler only): the account that sends the service's own contract calls on a chain (the bundler
   * EOA: an operator of the batch buyer); undefined where operations go through an external bundler.
   */
  operatorAddress?(chain: ChainKey): Address | undefined
  /**
   * Optional (our own bundler only): one plain transaction of the operator account (a batch buy, a sweep), through the
   * bundler's nonce manager, fee policy and receipt polling, so it never collides with the bundles. Resolves once sent
   * (rejects: nothing was sent); `landed` settles with the receipt, or none in time and whether the node still holds it.
   */
  sendCall?(chain: ChainKey, call: { to: Address; data: Hex; gas: bigint }, logFields?: Record<string, unknown>): Promise<SentOperatorCall>
}

/** A transaction sent by WalletService.sendCall; `landed` never rejects (the bundler's SentCall). */
export interface SentOperatorCall {
  hash: Hash
  landed: Promise<{ receipt: TransactionReceipt | undefined; pending: boolean }>
}

export interface OperationsCallRequest {
  requests: UserOperationRequest[]
  /** The call carrying the signed operations, packed for handleOps, in request order. */
  build(operations: PackedUserOperation[]): { to: Address; data: Hex }
  /** Gas of the call's own work; each operation's declared limits (verification, call, pre-verification) are added. */
  gas: bigint
  /** Errors of the called contract, to name its reverts. */
  errors?: Abi
  /**
   * Called once the transaction is sent, before its receipt is awaited: record the hash, so that a crash while waiting
   * leaves a transaction to look up rather than a search through logs.
   */
  onSent?(txHash: Hash): Promise<void>
  /**
   * Called with what the simulated call returned, before anything is sent: record what the transaction will create
   * (a deployment's address) so that whoever sees it land knows it. If it throws, nothing is sent (`not_prepared`).
   */
  beforeSend?(simulatedReturn: Hex): Promise<void>
}

export type OperationsCallOutcome =
  /** Mined and successful. */
  | { status: 'included'; txHash: Hash; blockNumber: bigint }
  /** Mined and reverted: nothing the operations did stands. */
  | { status: 'reverted'; txHash: Hash; blockNumber: bigint }
  /** The simulation reverted: nothing was sent. */
  | { status: 'refused'; revert: DecodedRevert }
  /** An operation could not be signed: nothing was sent. */
  | { status: 'not_sent'; reason: string }
  /**
   * The call does not fit one transaction: its declared gas is over the chain's per-transaction cap (EIP-7825) and it
   * does not succeed within the cap either (`revert`: what the simulation at the cap said). Nothing was sent; fewer
   * operations per call would fit.
   */
  | { status: 'over_gas_cap'; operations: number; declaredGas: bigint; cap: bigint; revert: DecodedRevert }
  /** Sent, no receipt in time; `pending`: the node still holds it (it may land later: reconcile from the chain). */
  | { status: 'not_mined'; txHash: Hash; pending: boolean }

export interface PrepareAheadOptions {
  /** Which of the wallets may be deployed now if they are not (default: all of them). */
  deploy?: readonly number[]
  /**
   * Asked right before deployments are sent (the reads before them take a while): false sends none. A launch seen
   * meanwhile is being bought, and a deployment pending then would make that launch's buy wait for it.
   */
  stillWanted?: () => boolean
}

export interface PrepareAheadResult {
  /** Wallets whose state was read now (the others were still known). */
  read: number
  /** Wallets not deployed yet on the chain (when the call began). */
  undeployed: number
  /** Of those, how many this call deployed (mined when it resolves, unless its transaction is still pending). */
  deployed: number
}
