import type { Hash, Hex } from 'viem'
import { type BlockRef, toBlockRef } from './sync-types.ts'

/** A head pushed by the socket's `newHeads` subscription, as the sync reads a head: its identity and logs bloom. */
export interface PushedHead {
  ref: BlockRef
  logsBloom: Hex | null
}

const HASH = /^0x[0-9a-fA-F]{64}$/
const QUANTITY = /^0x[0-9a-fA-F]{1,16}$/
/** 256 bytes (yellow paper §4.3.1). */
const BLOOM = /^0x[0-9a-fA-F]{512}$/

/**
 * A `newHeads` push (the JSON-RPC `eth_subscription` result: the block header, quantities in hex) as the sync's head,
 * or undefined when a field it needs is missing or malformed (dropped, never thrown: the push then only wakes the sync,
 * which reads the head itself as before). Shape only: the header is the provider's word exactly as a head read over
 * HTTP is, and the sync checks it the same way (it must link to our tip, its logs carry its hash).
 */
export function parsePushedHead(raw: unknown): PushedHead | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const r = raw as Record<string, unknown>
  if (typeof r.hash !== 'string' || !HASH.test(r.hash)) return undefined
  if (typeof r.parentHash !== 'string' || !HASH.test(r.parentHash)) return undefined
  if (typeof r.number !== 'string' || !QUANTITY.test(r.number)) return undefined
  if (typeof r.timestamp !== 'string' || !QUANTITY.test(r.timestamp)) return undefined
  if (r.logsBloom !== undefined && r.logsBloom !== null && (typeof r.logsBloom !== 'string' || !BLOOM.test(r.logsBloom))) return undefined
  const ref = toBlockRef({
    number: BigInt(r.number),
    hash: r.hash as Hash,
    parentHash: r.parentHash as Hash,
    timestamp: BigInt(r.timestamp),
    ...(r.timestampMs === undefined ? {} : { timestampMs: r.timestampMs }),
  })
  return { ref, logsBloom: typeof r.logsBloom === 'string' ? (r.logsBloom as Hex) : null }
}
