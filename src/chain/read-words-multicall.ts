import { type Address, type Hex, multicall3Abi, type PublicClient, toFunctionSelector } from 'viem'

/*
 * Many calls to one contract that each answer one 32-byte word (an ERC-20's balanceOf and allowance over thousands of
 * wallets), through Multicall3's aggregate3, with its calldata and answer written and read by hand.
 *
 * viem's multicall encodes each call with encodeFunctionData (the ABI item formatted and hashed per call) and the
 * aggregate3 call with encodeAbiParameters, whose address check goes through an LRU cache that deletes and re-inserts
 * the entry on every hit: 5,000 wallets' allowances and balances cost ~200 ms of CPU in the split bench's profile around
 * a launch (2026-11-28), on the event loop the launch's ticks run on. It also cut them into aggregate3 calls of ~28
 * (1,024 bytes of inner calldata each): 178 requests for 5,000 balances. Here: string work only, WORDS_PER_CALL a call.
 */

/** Multicall3 aggregate3((address target, bool allowFailure, bytes callData)[]) (github.com/mds1/multicall). */
const AGGREGATE3 = multicall3Abi.find((item) => item.type === 'function' && item.name === 'aggregate3')!
const AGGREGATE3_SELECTOR = toFunctionSelector(AGGREGATE3).slice(2)

/**
 * Calls per aggregate3 eth_call: 500 balanceOf are ~112 kB of calldata (a ~225 kB request body in hex). Estimated on
 * the devnet stablecoin, every slot cold (2026-11-28): 2.78 M gas for 500 balanceOf, 3.08 M for 500 allowance, a few
 * thousand more per call through USDC's proxy: well under 2^24 (EIP-7825's per-transaction cap, should a node apply it
 * to eth_call) and geth's default --rpc.gascap (50 M); and well inside request bodies (geth's and op-geth's HTTP server
 * take up to 5 MB: go-ethereum rpc/http.go defaultBodyLimit). Such a call goes alone, not in a JSON-RPC batch
 * (read-batching.ts BATCH_CALL_MAX_CHARS).
 */
export const WORDS_PER_CALL = 500

const word = (n: number): string => n.toString(16).padStart(64, '0')

/** aggregate3's calldata for `calls` to `target`, none allowed to fail unless `allowFailure` (what encodeFunctionData builds). */
export function aggregate3Data(target: Address, calls: readonly Hex[], allowFailure = false): Hex {
  const to = addressWord(target)
  const parts: string[] = [AGGREGATE3_SELECTOR, word(0x20), word(calls.length)]
  // Each element's offset, from the start of the offsets (the array's content); then the elements.
  const bodies: string[] = new Array(calls.length)
  let offset = calls.length * 32
  for (let i = 0; i < calls.length; i++) {
    const data = calls[i]!.slice(2)
    if (data.length % 2 !== 0) throw new RangeError('calldata must be whole bytes')
    const bytes = data.length / 2
    const padded = Math.ceil(bytes / 32) * 64
    // target, allowFailure, the bytes' offset within the tuple (three words), its length, its data padded.
    bodies[i] = `${to}${word(allowFailure ? 1 : 0)}${word(0x60)}${word(bytes)}${data.padEnd(padded, '0')}`
    parts.push(word(offset))
    offset += 128 + padded / 2
  }
  return `0x${parts.join('')}${bodies.join('')}`.toLowerCase() as Hex
}

/** Each call's outcome in aggregate3's answer, in order: its success flag and its return data (hex, no 0x). */
export function aggregate3Results(answer: Hex, count: number): Array<{ success: boolean; returnData: string }> {
  const hex = answer.slice(2)
  // A word read as an offset, a count, a flag or a length: a small number, or the answer is not aggregate3's.
  const at = (byte: number): number => {
    if (!Number.isSafeInteger(byte) || byte < 0 || byte * 2 + 64 > hex.length) throw new RangeError('aggregate3 answer cut short')
    const value = Number.parseInt(hex.slice(byte * 2, byte * 2 + 64), 16)
    if (!Number.isSafeInteger(value)) throw new RangeError('aggregate3 answer malformed: a word too large for an offset or a length')
    return value
  }
  const array = at(0)
  if (at(array) !== count) throw new RangeError(`aggregate3 answered ${at(array)} results for ${count} calls`)
  const content = array + 32
  const results: Array<{ success: boolean; returnData: string }> = new Array(count)
  for (let i = 0; i < count; i++) {
    const element = content + at(content + i * 32)
    const flag = at(element)
    if (flag > 1) throw new RangeError(`call ${i} of aggregate3: a success flag of ${flag}`)
    const bytes = element + at(element + 32)
    const length = at(bytes)
    const start = (bytes + 32) * 2
    if (start + length * 2 > hex.length) throw new RangeError('aggregate3 answer cut short')
    results[i] = { success: flag === 1, returnData: hex.slice(start, start + length * 2) }
  }
  return results
}

/** The words aggregate3 answered (each call's returnData must be one 32-byte word), in order; throws otherwise. */
export function aggregate3Words(answer: Hex, count: number): bigint[] {
  return aggregate3Results(answer, count).map(({ success, returnData }, i) => {
    if (!success) throw new RangeError(`call ${i} of aggregate3 failed`)
    if (returnData.length !== 64) throw new RangeError(`call ${i} of aggregate3 answered ${returnData.length / 2} bytes, not one word`)
    return BigInt(`0x${returnData}`)
  })
}

/**
 * One word per call of `calls` to `target` (in their order), read through Multicall3 at `blockNumber` (default latest),
 * WORDS_PER_CALL calls per eth_call, all asked at once. Throws when any call fails or answers other than one word.
 */
export async function readWords(
  client: Pick<PublicClient, 'call'>,
  multicall3: Address,
  target: Address,
  calls: readonly Hex[],
  blockNumber?: bigint,
  perCall: number = WORDS_PER_CALL,
): Promise<bigint[]> {
  const chunks: Array<readonly Hex[]> = []
  for (let i = 0; i < calls.length; i += perCall) chunks.push(calls.slice(i, i + perCall))
  const answers = await Promise.all(
    chunks.map(async (chunk) => {
      // Never folded into viem's own multicall batching (a client with batch.multicall): this is the multicall.
      const request = { to: multicall3, data: aggregate3Data(target, chunk), batch: false, ...(blockNumber === undefined ? {} : { blockNumber }) }
      const { data } = await client.call(request)
      if (data === undefined) throw new RangeError('aggregate3 answered nothing')
      return aggregate3Words(data, chunk.length)
    }),
  )
  return answers.flat()
}

/**
 * `calls` to `target` in one eth_call to Multicall3's aggregate3, every call allowed to fail: each call's success and
 * return data (its revert data when it failed), at `at` (a block, block overrides). Throws when Multicall3 answered
 * nothing (none at that address) or the node failed. What probeWords and the quoter (quote-buy.ts) ask through.
 */
export async function callsAllowedToFail(
  client: Pick<PublicClient, 'call'>,
  multicall3: Address,
  target: Address,
  calls: readonly Hex[],
  at: { blockNumber?: bigint; blockOverrides?: { number: bigint; time: bigint } },
): Promise<Array<{ success: boolean; returnData: string }>> {
  // Never folded into viem's own multicall batching (a client with batch.multicall): this is the multicall.
  const { data } = await client.call({ to: multicall3, data: aggregate3Data(target, calls, true), batch: false, ...at })
  if (data === undefined) throw new RangeError(`Multicall3 at ${multicall3} answered nothing`)
  return aggregate3Results(data, calls.length)
}

/**
 * Getters that a contract may not have, probed in one eth_call that never reverts: each call of `calls` to `target`
 * through Multicall3's aggregate3 with every call allowed to fail, at `blockNumber` (default latest). A call's first
 * word when it answered one, undefined when it reverted or answered no data (no such getter; an address without
 * code answers nothing); an answer of 1-31 bytes is no word of an ABI getter, and throws, as viem's decoding would.
 *
 * Why not one readContract per getter: a reverting readContract costs ~0.45 ms of CPU against ~0.04 ms for an answered
 * one (viem builds its error chain and its `call` imports its CCIP module on every revert; measured 2026-11-28), and
 * the launch paths probe getters that most contracts lack (docs/execution.md §8, "The launch log's first 30 ms").
 */
export async function probeWords(
  client: Pick<PublicClient, 'call'>,
  multicall3: Address,
  target: Address,
  calls: readonly Hex[],
  blockNumber?: bigint,
): Promise<Array<bigint | undefined>> {
  const results = await callsAllowedToFail(client, multicall3, target, calls, blockNumber === undefined ? {} : { blockNumber })
  return results.map(({ success, returnData }, i) => {
    if (!success || returnData.length === 0) return undefined
    if (returnData.length < 64) throw new RangeError(`call ${i} answered ${returnData.length / 2} bytes, not a word`)
    return BigInt(`0x${returnData.slice(0, 64)}`)
  })
}

/**
 * `selector` followed by each address word, then `after`'s words: the calldata of a view taking an address first
 * (balanceOf(wallet), allowance(wallet, spender), getNonce(sender, key)) for each wallet. `after`: the same trailing
 * arguments for every call, or one per wallet (an address, or an unsigned integer below 2^256).
 */
export function addressCalls(selector: Hex, wallets: readonly Address[], after: Address | ReadonlyArray<Address | bigint> | undefined = undefined): Hex[] {
  const head = selector.slice(2)
  if (after === undefined || typeof after === 'string') {
    const tail = after === undefined ? '' : addressWord(after)
    return wallets.map((wallet) => `0x${head}${addressWord(wallet)}${tail}` as Hex)
  }
  if (after.length !== wallets.length) throw new RangeError('one trailing argument per wallet')
  return wallets.map((wallet, i) => {
    const arg = after[i]!
    return `0x${head}${addressWord(wallet)}${typeof arg === 'bigint' ? uintWord(arg) : addressWord(arg)}` as Hex
  })
}

/** An unsigned integer as an ABI word; throws outside 0..2^256-1. */
function uintWord(value: bigint): string {
  if (value < 0n || value >= 2n ** 256n) throw new RangeError(`not a uint256: ${value}`)
  return value.toString(16).padStart(64, '0')
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** An address as an ABI word (left-padded, lower case); throws for anything but 20 bytes of hex, as viem's encoder does. */
function addressWord(address: string): string {
  if (!ADDRESS.test(address)) throw new RangeError(`not an address: ${address}`)
  return address.slice(2).toLowerCase().padStart(64, '0')
}

/** ERC-20 balanceOf(address) and allowance(address owner, address spender). */
export const BALANCE_OF = toFunctionSelector('balanceOf(address)')
export const ALLOWANCE = toFunctionSelector('allowance(address,address)')
