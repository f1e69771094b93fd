import type { Abi, Address } from 'viem'
import artifact from '../../src/chain/contracts/artifacts/PrebuyBatchBuyer.json' with { type: 'json' }

/** ABI and creation code of src/chain/contracts/execution/PrebuyBatchBuyer.sol (compiled, checked in). */
export const batchBuyerAbi = artifact.abi as Abi
export const batchBuyerBytecode = artifact.bytecode as `0x${string}`

const MAX_AMOUNT = (1n << 96n) - 1n

/**
 * One buyer's word in `executeBatch`'s entries: the wallet in the high 160 bits, the stablecoin atoms in the low 96
 * (the cheapest calldata: one word per buyer). 2^96 atoms of a 6-decimal stablecoin is far above any order.
 */
export function batchEntry(wallet: Address, amount: bigint): bigint {
  if (!/^0x[0-9a-fA-F]{40}$/.test(wallet)) throw new RangeError(`not an address: ${wallet}`)
  if (amount <= 0n || amount > MAX_AMOUNT) throw new RangeError('a batch entry amount must be within 1..2^96-1 atoms')
  return (BigInt(wallet) << 96n) | amount
}

/** The inverse of batchEntry (for reconciling a batch from its transaction's calldata): amount 0 marks a skipped buyer. */
export function readBatchEntry(word: bigint): { wallet: Address; amount: bigint } {
  const wallet = `0x${(word >> 96n).toString(16).padStart(40, '0')}` as Address
  return { wallet, amount: word & MAX_AMOUNT }
}
