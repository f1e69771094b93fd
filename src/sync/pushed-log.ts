import type { Address, Hash, Hex, Log } from 'viem'

/** A log pushed by a `logs` subscription, checked for shape: a hint of a block's log, never one of its delivered logs. */
export type PushedLog = Log<bigint, number, false> & {
  /** The block's time (seconds) when the node adds it to its logs (geth 1.16+, anvil), else undefined. */
  blockTimestamp?: bigint | undefined
}

const HASH = /^0x[0-9a-fA-F]{64}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HEX = /^0x([0-9a-fA-F]{2})*$/
const QUANTITY = /^0x[0-9a-fA-F]{1,16}$/

const quantity = (value: unknown): bigint | undefined => (typeof value === 'string' && QUANTITY.test(value) ? BigInt(value) : undefined)

/**
 * A pushed log (the JSON-RPC `eth_subscription` result of a `logs` subscription) as a viem Log, or undefined when any
 * field it must have is missing or malformed (a forged or broken push: dropped, never thrown), and for a log the node
 * marks `removed` (a reorg's retraction: the block's own round handles reorgs). What is checked is the shape only; the
 * content is a stranger's word until the block's logs, read by hash, say the same.
 */
export function parsePushedLog(raw: unknown): PushedLog | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const r = raw as Record<string, unknown>
  if (r.removed === true) return undefined
  if (typeof r.address !== 'string' || !ADDRESS.test(r.address)) return undefined
  if (!Array.isArray(r.topics) || r.topics.length > 4 || !r.topics.every((t) => typeof t === 'string' && HASH.test(t))) return undefined
  if (typeof r.data !== 'string' || !HEX.test(r.data)) return undefined
  if (typeof r.blockHash !== 'string' || !HASH.test(r.blockHash)) return undefined
  if (typeof r.transactionHash !== 'string' || !HASH.test(r.transactionHash)) return undefined
  const blockNumber = quantity(r.blockNumber)
  const logIndex = quantity(r.logIndex)
  const transactionIndex = quantity(r.transactionIndex)
  if (blockNumber === undefined || logIndex === undefined || transactionIndex === undefined) return undefined
  return {
    address: r.address.toLowerCase() as Address,
    topics: r.topics as [Hex, ...Hex[]],
    data: r.data as Hex,
    blockHash: r.blockHash as Hash,
    blockNumber,
    transactionHash: r.transactionHash as Hash,
    logIndex: Number(logIndex),
    transactionIndex: Number(transactionIndex),
    removed: false,
    blockTimestamp: quantity(r.blockTimestamp),
  }
}
