import type { PublicClient } from 'viem'
import { notAnswered } from '../../src/chain/not-answered.ts'

/**
 * The reads a launch's decoding and completion make (adapters, detect-launch.ts): the ones a memo may share. A mined
 * transaction's receipt is one answer too (a reorg processes the block again, with a new memo).
 */
const MEMO_METHODS = new Set<string>(['readContract', 'getCode', 'call', 'getStorageAt', 'getBalance', 'multicall', 'getTransactionReceipt'])

const bigintsAsText = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? `${value}n` : value)

// An ABI's part of a key: a short id per distinct ABI content, found once per ABI object. Written out in every key, an
// ABI (viem's erc20Abi: 1.8 kB of JSON) made each key cost ~40 µs through the replacer, 0.1 ms the first time
// (measured 2026-11-28), for each of the ~30-40 reads of a launch, on the event loop between its log and its receipt.
// Two ABI objects of the same content get the same id, so what is shared is exactly what the full text shared.
const abiIdsByContent = new Map<string, number>()
const abiIds = new WeakMap<object, number>()
function abiId(abi: object): number {
  let id = abiIds.get(abi)
  if (id === undefined) {
    const content = JSON.stringify(abi, bigintsAsText).toLowerCase()
    id = abiIdsByContent.get(content) ?? abiIdsByContent.size + 1
    abiIdsByContent.set(content, id)
    abiIds.set(abi, id)
  }
  return id
}

const keyOf = (method: string, args: unknown): string =>
  `${method}:${JSON.stringify(args, (key, value: unknown) => (key === 'abi' && Array.isArray(value) ? `abi#${abiId(value)}` : bigintsAsText(key, value))).toLowerCase()}`

/**
 * A client whose state reads with the same arguments are made once (issue 23 item 3, "the launch tick's serial round
 * trips"): the indexer starts a launch's reads before its receipt arrives (launch-reads-ahead.ts), and the decoding and
 * completion that follow the receipt ask the same questions again; they then wait on the answers already under way
 * instead of asking the node a second time, one round trip after the other. A read pinned to a block (`blockNumber`,
 * `blockHash`) has one answer, so sharing it changes nothing; a read at `latest` is answered as of the first asking, a
 * few milliseconds earlier, which is as good a "latest" as the second. Addresses are compared case-insensitively
 * (the key is lower-cased); a contract's refusal is shared too, a failed request is not. Lives for one block's launch work: the next block makes a new one. Every other method goes
 * to the client as is.
 */
export function memoReads(client: PublicClient): PublicClient {
  const answers = new Map<string, Promise<unknown>>()
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (typeof property !== 'string' || !MEMO_METHODS.has(property) || typeof value !== 'function') return value
      return (args: unknown) => {
        const key = keyOf(property, args)
        let answer = answers.get(key)
        if (!answer) {
          answer = (value as (a: unknown) => Promise<unknown>).call(target, args)
          // A read the node failed to answer is asked again by the next caller (it may answer then). A contract's refusal
          // (a revert, no data: a getter that launchpad's contract does not have) is its answer, shared as a value is:
          // asked again, it cost the launch one more round trip (a Doppler asset's balance-limit getters, which the
          // devnet's token does not have, were asked ahead of the receipt and again after it: the latency bench, 2026-11-26).
          answer.catch((error: unknown) => {
            if (!notAnswered(error)) answers.delete(key)
          })
          answers.set(key, answer)
        }
        return answer
      }
    },
  })
}
