import { type AbiEvent, type Address, type GetEventArgs, isAddressEqual, type Log } from 'viem'
import { decodeEventLogCached } from '../chain/decode-event-log.ts'
import type { LaunchCandidate, LaunchContext } from './launchpad-adapter.ts'

/** A strictly decoded event's arguments, every one present. */
export type LaunchEventArgs<event extends AbiEvent> = GetEventArgs<readonly [event], event['name'], { EnableUnion: false; IndexedOnly: false; Required: true }>

/**
 * The arguments of a launchpad's launch event when `log` is that event and was emitted by `emitter`; null for any
 * other log (another contract, another event, a log that does not decode strictly). The first step of every adapter's
 * decodeLaunch.
 */
export function decodeLaunchLog<const event extends AbiEvent>(log: Log, emitter: Address, event: event): LaunchEventArgs<event> | null {
  if (!isAddressEqual(log.address, emitter)) return null
  try {
    return decodeEventLogCached({ abi: [event], data: log.data, topics: log.topics, strict: true }).args as LaunchEventArgs<event>
  } catch {
    return null
  }
}

/** The candidate's fields that come from the launch log and its transaction, the same on every launchpad. */
export const launchOrigin = (log: Log, ctx: LaunchContext): Pick<LaunchCandidate, 'txHash' | 'blockNumber' | 'blockHash' | 'launchedAt' | 'logIndex'> => ({
  txHash: ctx.txHash,
  blockNumber: ctx.blockNumber,
  blockHash: ctx.blockHash,
  launchedAt: ctx.blockTimestamp,
  logIndex: log.logIndex ?? 0,
})
