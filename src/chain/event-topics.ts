import { type Abi, type Hex, type Log, toEventSelector } from 'viem'

/**
 * The first topics (event selectors, lower case) of an ABI's events. A log whose first topic is not one of them is not
 * one of the ABI's events: callers skip it instead of asking viem's decodeEventLog to refuse it, since each refusal
 * builds an error with its message and stack (~10 µs, measured 2026-11-27), for every other log of a launch's receipt
 * or of a block, on the detection path (seen in the split bench's CPU profile: the Doppler fee schedule's search over
 * the launch receipt's logs, 2026-11-28).
 */
export function eventTopicsOf(abi: Abi): ReadonlySet<string> {
  const topics = new Set<string>()
  for (const item of abi) if (item.type === 'event') topics.add(toEventSelector(item).toLowerCase())
  return topics
}

/** Whether `log` may be one of the events `topics` names (its first topic is one of theirs). */
export function mayBeEventOf(topics: ReadonlySet<string>, log: Pick<Log, 'topics'>): boolean {
  const first: Hex | undefined = log.topics[0]
  return first !== undefined && topics.has(first.toLowerCase())
}
