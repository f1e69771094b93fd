import {
  concat,
  encodeAbiParameters,
  keccak256,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { create2Address, ensureCreate2Contract } from '../chain/ensure-create2-contract.ts'
import { batchBuyerBytecode } from './batch-buyer-abi.ts'

const SALT: Hex = keccak256(new TextEncoder().encode('prebuy.PrebuyBatchBuyer.v1'))

/** Who the batch buyer answers to: the buy router it swaps through, its admin (setOperator) and its first operators. */
export interface BatchBuyerTerms {
  router: Address
  admin: Address
  /** The executor's sending accounts (the bundler EOAs): only they may spend the wallets' approvals. */
  operators: readonly Address[]
}

const initCode = ({ router, admin, operators }: BatchBuyerTerms): Hex =>
  concat([batchBuyerBytecode, encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'address[]' }], [router, admin, [...operators]])])

/** The batch buyer's CREATE2 salt and init code (what `prebuy contracts deploy` sends). */
export const batchBuyerCreate2 = (terms: BatchBuyerTerms): { salt: Hex; initCode: Hex } => ({ salt: SALT, initCode: initCode(terms) })

/** The batch buyer's address for these terms: the same on every chain where they are the same. */
export const batchBuyerAddress = (terms: BatchBuyerTerms): Address => create2Address(SALT, initCode(terms))

/**
 * Deploys PrebuyBatchBuyer through the CREATE2 deployer unless it is already there (idempotent: a restart finds it).
 * The address depends on the router, the admin and the operators: a service with other bundler accounts gets its own
 * batch buyer, and the wallets' approvals (to this address) can only be spent by this service's operators.
 */
export const ensureBatchBuyer = (
  options: BatchBuyerTerms & { publicClient: PublicClient; walletClient: WalletClient<Transport, Chain, Account> },
): Promise<Address> =>
  ensureCreate2Contract({
    publicClient: options.publicClient,
    walletClient: options.walletClient,
    salt: SALT,
    initCode: initCode(options),
    name: 'PrebuyBatchBuyer',
  })
