import { concat, encodeAbiParameters, getAddress, keccak256, type Address, type Hex } from 'viem'
import { create2Address } from '../chain/ensure-create2-contract.ts'
import { batchBuyerBytecode } from './batch-buyer-abi.ts'

/**
 * PrebuyBatchBuyer's CREATE2 salt: one place for the daemon's deployment at start (ensureBatchBuyer), `prebuy contracts
 * deploy` (our-contracts.ts) and the approvals ahead of launches (approve-ahead.ts), so all three name one address.
 */
export const BATCH_BUYER_SALT: Hex = keccak256(new TextEncoder().encode('prebuy.PrebuyBatchBuyer.v1'))

/** PrebuyBatchBuyer's constructor arguments (src/chain/contracts/execution/PrebuyBatchBuyer.sol). */
export interface BatchBuyerArgs {
  /** The PrebuyBuyRouter the batch swaps through (buyRouterAddress(poolManager)). */
  router: Address
  /** May add and remove operators later (`setOperator`): the service's bundler EOA. */
  admin: Address
  /**
   * The accounts allowed to call executeBatch from the start. The address depends on this list: sorted and deduplicated
   * here so that callers listing the same accounts in another order get the same address. Changing the list moves the
   * contract (and every wallet's approval would point at the old one): keep it fixed and add senders with setOperator.
   */
  operators: readonly Address[]
}

const canonicalOperators = (operators: readonly Address[]): Address[] =>
  [...new Set(operators.map((operator) => getAddress(operator)))].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))

/** Bytecode plus constructor arguments: what the CREATE2 deployer is sent after the salt. */
export const batchBuyerInitCode = (args: BatchBuyerArgs): Hex =>
  concat([
    batchBuyerBytecode,
    encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'address[]' }], [args.router, args.admin, canonicalOperators(args.operators)]),
  ])

/** The salt and init code to deploy PrebuyBatchBuyer through the CREATE2 deployer (ensureCreate2Contract takes both). */
export const batchBuyerCreate2 = (args: BatchBuyerArgs): { salt: Hex; initCode: Hex } => ({ salt: BATCH_BUYER_SALT, initCode: batchBuyerInitCode(args) })

/** Where PrebuyBatchBuyer is for these arguments: the same on every chain with the same router, admin and operators. */
export const batchBuyerAddress = (args: BatchBuyerArgs): Address => create2Address(BATCH_BUYER_SALT, batchBuyerInitCode(args))

/**
 * The service's own batch buyer arguments: the bundler EOA as admin and as the one initial operator (further sender
 * accounts are added with setOperator, so the address never moves with their number). What our-contracts.ts deploys.
 */
export const serviceBatchBuyerArgs = (router: Address, bundler: Address): BatchBuyerArgs => ({ router, admin: bundler, operators: [bundler] })
