import { type AbiEvent, type AbiParameter, decodeAbiParameters, decodeEventLog, type Hex, toEventSelector } from 'viem'

/**
 * viem's `decodeEventLog`, with each ABI event's selector computed once per event object instead of on every call.
 *
 * viem finds the log's event by formatting and hashing every event of the ABI it is given, on every call
 * (`toEventSelector(formatAbiItem(item))`, viem 2.57 utils/abi/decodeEventLog.js): ~0.1 ms a decoding when hot, ~0.3 ms
 * in the code paths a launch runs for the first time, most of it the selector (measured 2026-11-28). The detection of
 * a launch decodes its launch log, its pool's `Initialize` and its launchpad's own events, ahead of the receipt and
 * again after it, on the event loop between the launch log and the first send (issue 23 item 3); the indexer decodes
 * every `Swap` of a launched pool, every block.
 *
 * Same answers and same errors as viem's, by construction: the common case (strict, no `eventName`, a first topic
 * that is the selector of one of the ABI's named non-anonymous events) is decoded here as viem decodes it
 * (`decodeMatchedEventLog`, strict: every indexed argument from its topic, the others from the data); any other case,
 * and any failure here, is handed to viem's own function, which answers or throws its own error. Tested against it
 * with fast-check (test/unit/chain/decode-event-log.test.ts).
 */
export const decodeEventLogCached: typeof decodeEventLog = ((parameters: Parameters<typeof decodeEventLog>[0]) => {
  const { abi, data, topics, eventName, strict } = parameters as {
    abi: readonly unknown[]
    data?: Hex
    topics: readonly Hex[]
    eventName?: string
    strict?: boolean
  }
  const signature = topics[0]
  if (strict === false || eventName !== undefined || signature === undefined) return decodeEventLog(parameters)
  const item = abi.find((x): x is AbiEvent => isNamedEvent(x) && !x.anonymous && selectorOf(x) === signature)
  if (!item) return decodeEventLog(parameters)
  try {
    return decodeStrict(item, topics.slice(1), data)
  } catch {
    // viem's own error (or, were this decoder ever wrong to refuse, viem's answer).
    return decodeEventLog(parameters)
  }
}) as typeof decodeEventLog

const isNamedEvent = (x: unknown): x is AbiEvent => typeof x === 'object' && x !== null && (x as { type?: unknown }).type === 'event' && 'name' in x

const selectors = new WeakMap<AbiEvent, Hex>()
function selectorOf(item: AbiEvent): Hex {
  let selector = selectors.get(item)
  if (selector === undefined) {
    selector = toEventSelector(item)
    selectors.set(item, selector)
  }
  return selector
}

/** An indexed argument of these types is logged as its hash: the topic itself is the value (viem's decodeTopic). */
const loggedAsHash = (param: AbiParameter): boolean =>
  param.type === 'string' || param.type === 'bytes' || param.type === 'tuple' || /^(.*)\[(\d+)?\]$/.test(param.type)

/** viem's strict decoding of a matched event; throws where viem throws (the caller then lets viem throw its error). */
function decodeStrict(item: AbiEvent, argTopics: readonly Hex[], data: Hex | undefined) {
  const { inputs } = item
  const unnamed = inputs.some((x) => !x.name)
  const args: Record<string | number, unknown> = unnamed ? ([] as unknown as Record<number, unknown>) : {}
  const nonIndexed: AbiParameter[] = []
  let topic = 0
  for (const [i, param] of inputs.entries()) {
    if (!param.indexed) {
      nonIndexed.push(param)
      continue
    }
    const value = argTopics[topic++]
    if (!value) throw new RangeError('a topic is missing')
    args[unnamed ? i : param.name || i] = loggedAsHash(param) ? value : decodeAbiParameters([param], value)[0]
  }
  if (nonIndexed.length > 0) {
    if (!data || data === '0x') throw new RangeError('no data')
    const decoded = decodeAbiParameters(nonIndexed, data)
    if (unnamed) {
      let at = 0
      for (let i = 0; i < inputs.length; i++) if (args[i] === undefined && at < decoded.length) args[i] = decoded[at++]
    } else for (const [i, param] of nonIndexed.entries()) args[param.name!] = decoded[i]
  }
  return { eventName: item.name, args: Object.values(args).length > 0 ? args : undefined }
}
