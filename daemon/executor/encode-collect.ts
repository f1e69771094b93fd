import { type Address, type Hex, toFunctionSelector } from 'viem'
import { batchBuyerAbi } from './batch-buyer-abi.ts'

/**
 * The calldata of `collect(bytes32 batchId, address stablecoin, uint256 chunk, uint256[] entries, uint256
 * validUntilBlock, bytes32[] supersedes)` (PrebuyBatchBuyer.sol), encoded by hand: the fixed signature's ABI layout is
 * six head words (each array's as an offset: the entries' 0xc0, the superseded ids' after the entries), then each
 * array's length and its words. viem's `encodeFunctionData` walks the ABI and
 * converts every word through bigint checks and `concat`: 8 collects of 625 entries took 23-38 ms warm and 86 ms cold
 * on the shared machine, all of it before the launch's first collect could leave (docs/execution.md §8, "The commit
 * record", Measured). Here an entry word is its wallet's 40 hex digits and its amount's 24 (the same word as
 * batch-buyer-abi.ts batchEntry: wallet << 96 | amount), joined once. Tested byte for byte against viem
 * (test/executor/parts/encode-collect.test.ts).
 */

/** The selector, from the compiled ABI (not a copied constant: a changed signature changes it). */
const COLLECT_SELECTOR = toFunctionSelector(
  (batchBuyerAbi as ReadonlyArray<{ type: string; name?: string }>).find((item) => item.type === 'function' && item.name === 'collect') as never,
)

const MAX_AMOUNT = (1n << 96n) - 1n
const MAX_UINT256 = (1n << 256n) - 1n
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const BYTES32 = /^0x[0-9a-fA-F]{64}$/
const HEAD_WORDS = 6n
const ENTRIES_OFFSET = (HEAD_WORDS * 32n).toString(16).padStart(64, '0')

/** One included buyer of a chunk: its wallet and its spend in stablecoin atoms (a BatchRecord's `included` entry). */
export interface CollectEntry {
  wallet: Address
  spendAtoms: string | bigint
}

const uintWord = (value: bigint, what: string): string => {
  if (value < 0n || value > MAX_UINT256) throw new RangeError(`${what} is not a uint256: ${value}`)
  return value.toString(16).padStart(64, '0')
}

/** The 64 hex digits of one entry word (batchEntry's checks: an address, an amount within 1..2^96-1 atoms). */
export function entryWordHex(entry: CollectEntry): string {
  if (!ADDRESS.test(entry.wallet)) throw new RangeError(`not an address: ${entry.wallet}`)
  const amount = BigInt(entry.spendAtoms)
  if (amount <= 0n || amount > MAX_AMOUNT) throw new RangeError('a batch entry amount must be within 1..2^96-1 atoms')
  return entry.wallet.slice(2).toLowerCase() + amount.toString(16).padStart(24, '0')
}

/**
 * collect's calldata for `entries` (in order: the chunk's range of the record's `included`) and the batches it
 * supersedes (the record's `supersedes`, the same list in every collect of the batch).
 */
export function encodeCollect(
  batchId: Hex,
  stablecoin: Address,
  chunk: bigint,
  entries: readonly CollectEntry[],
  validUntilBlock: bigint,
  supersedes: readonly Hex[] = [],
): Hex {
  if (!BYTES32.test(batchId)) throw new RangeError(`not a bytes32: ${batchId}`)
  if (!ADDRESS.test(stablecoin)) throw new RangeError(`not an address: ${stablecoin}`)
  for (const id of supersedes) if (!BYTES32.test(id)) throw new RangeError(`not a bytes32: ${id}`)
  const n = entries.length
  const words = new Array<string>(n + supersedes.length + 9)
  words[0] = COLLECT_SELECTOR
  words[1] = batchId.slice(2).toLowerCase()
  words[2] = stablecoin.slice(2).toLowerCase().padStart(64, '0')
  words[3] = uintWord(chunk, 'chunk')
  words[4] = ENTRIES_OFFSET
  words[5] = uintWord(validUntilBlock, 'validUntilBlock')
  words[6] = uintWord((HEAD_WORDS + 1n + BigInt(n)) * 32n, 'supersedes offset')
  words[7] = uintWord(BigInt(n), 'entries length')
  for (let i = 0; i < n; i++) words[i + 8] = entryWordHex(entries[i]!)
  words[n + 8] = uintWord(BigInt(supersedes.length), 'supersedes length')
  for (let i = 0; i < supersedes.length; i++) words[n + 9 + i] = supersedes[i]!.slice(2).toLowerCase()
  return words.join('') as Hex
}
