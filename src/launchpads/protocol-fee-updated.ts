import { type Hex, type Log, parseAbi } from 'viem'
import { decodeEventLogCached } from '../chain/decode-event-log.ts'
import { eventTopicsOf, mayBeEventOf } from '../chain/event-topics.ts'

/** v4-core IProtocolFees `ProtocolFeeUpdated(PoolId indexed id, uint24 protocolFee)`, emitted by the PoolManager. */
export const PROTOCOL_FEE_UPDATED = parseAbi(['event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee)'])

/** A PoolManager log setting a pool's protocol fee (both directions packed, as in slot0), or undefined. */
const PROTOCOL_FEE_UPDATED_TOPICS = eventTopicsOf(PROTOCOL_FEE_UPDATED)

export function decodeProtocolFeeUpdated(entry: Log): { poolId: Hex; protocolFee: number } | undefined {
  if (!mayBeEventOf(PROTOCOL_FEE_UPDATED_TOPICS, entry)) return undefined // another PoolManager event
  try {
    const { args } = decodeEventLogCached({ abi: PROTOCOL_FEE_UPDATED, data: entry.data, topics: entry.topics, strict: true })
    return { poolId: args.id, protocolFee: args.protocolFee }
  } catch {
    return undefined // another PoolManager event
  }
}
