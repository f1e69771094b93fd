import type { DecisionInputOrder, DecisionInputs, TickDecision } from '../domain/execution/tick-records.ts'
import type { OrderDecision } from '../domain/execution/verdicts.ts'

/*
 * The journal's decisions handed out whole. A quiet tick's decision may be stored as its changes since the project's
 * previous record (`delta`, src/domain/execution/decision-delta.ts): here it becomes the decision it stands for, the
 * base's verdicts and input rows with the changed ones in place, the removed ones out and the new ones last. Every
 * reader (`executions replay`, the console's snapshot, GET of the execution journal) sees whole decisions, as before.
 */

export interface StoredDecision {
  key: string
  value: TickDecision
}

/** `list` with the entries whose key id is in `removed` left out and those in `changes` put in place or added last. */
function patched<T>(list: readonly T[], keyIdOf: (entry: T) => string, changes: readonly T[], removed: ReadonlySet<string>): T[] {
  const changed = new Map<string, T>()
  for (const entry of changes) changed.set(keyIdOf(entry), entry)
  const out: T[] = []
  for (const entry of list) {
    const keyId = keyIdOf(entry)
    if (removed.has(keyId)) continue
    const replacement = changed.get(keyId)
    if (replacement === undefined) out.push(entry)
    else {
      out.push(replacement)
      changed.delete(keyId)
    }
  }
  for (const entry of changed.values()) out.push(entry)
  return out
}

const rowKeyId = (row: DecisionInputOrder): string => row[0]
const decisionKeyId = (decision: OrderDecision): string => decision.keyId

/** A delta record applied to its base, made whole. The base's inputs missing (an older journal): no inputs. */
function applied(base: TickDecision, record: TickDecision): TickDecision {
  const { delta, ...rest } = record
  const removed = new Set(delta?.removed ?? [])
  const orders = patched(base.orders, decisionKeyId, record.orders, removed)
  if (!base.inputs || !record.inputs) {
    const { inputs: _none, ...withoutInputs } = rest
    return { ...withoutInputs, orders }
  }
  const inputs: DecisionInputs = { ...record.inputs, orders: patched(base.inputs.orders, rowKeyId, record.inputs.orders, removed) }
  return { ...rest, orders, inputs }
}

/**
 * A delta record whose base is not in the journal (a store edited by hand): its changes alone, without inputs, so the
 * replay says it cannot check it rather than checking a partial book.
 */
function orphaned(record: TickDecision): TickDecision {
  const { delta: _delta, inputs: _inputs, ...rest } = record
  return rest
}

/**
 * Every stored decision made whole, in the order given (the journal's key order). A base is looked up by its key, not
 * taken as the entry before: keys start with the tick's wall-clock time, which may step back.
 */
export function materializeDecisions(entries: readonly StoredDecision[]): TickDecision[] {
  const stored = new Map<string, TickDecision>()
  for (const { key, value } of entries) stored.set(key, value)
  const whole = new Map<string, TickDecision>()
  const resolving = new Set<string>()
  const resolve = (key: string, value: TickDecision): TickDecision => {
    const done = whole.get(key)
    if (done) return done
    resolving.add(key)
    const baseKey = value.delta?.base
    const baseValue = baseKey === undefined || resolving.has(baseKey) ? undefined : stored.get(baseKey)
    const decision = !value.delta ? value : baseKey !== undefined && baseValue ? applied(resolve(baseKey, baseValue), value) : orphaned(value)
    resolving.delete(key)
    whole.set(key, decision)
    return decision
  }
  return entries.map(({ key, value }) => resolve(key, value))
}
