/**
 * Named in-process locks: `run(key, fn)` starts `fn` once every earlier `run` on the same key has settled (resolved or
 * rejected); other keys are not held up. The daemon is the only process that opens the database, so serialising a
 * read-check-write inside the process is enough (label uniqueness, one key's order batch, one wallet's withdrawal, one
 * chain's executor planning). Keys are dropped when idle, so the map does not grow with every key ever locked.
 */
export interface KeyedMutex {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>
  /**
   * Runs `fn` holding every key at once (duplicates once). The call queues on every key at once, synchronously, behind
   * whatever `run` or `runAll` was called earlier on any of them, and starts when all of those settled.
   */
  runAll<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T>
  /**
   * Runs `fn` holding every key of `group` at once, as `runAll` over them would, with no step per key: the call queues
   * behind the earlier calls holding or waiting for any of its keys (found among the keys in use, a few, and the groups
   * in use, each compared once), and any later call on one of its keys queues behind it. For a launch tick's thousands
   * of orders (issue 23 item 3): `runAll`'s Set, lookups and stores of 5,000 fresh lock names took 3-8 ms between the
   * launch log and the first send (docs/execution.md §8, "The launch tick's candidates primed and its locks taken as
   * one"); a group is built before (`keyGroup`), by the readying pass.
   */
  runGroup<T>(group: KeyGroup, fn: () => Promise<T>): Promise<T>
}

/** Keys to be taken together by `runGroup`, gathered ahead of the call (building the set is the per-key work). */
export interface KeyGroup {
  readonly keys: ReadonlySet<string>
}

export const keyGroup = (keys: Iterable<string>): KeyGroup => ({ keys: new Set(keys) })

/** Whether two key sets share a key (the smaller one walked). */
function intersects(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return a.size > 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  for (const key of small) if (large.has(key)) return true
  return false
}

export function createKeyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<unknown>>()
  // The groups holding or waiting for their keys (runGroup), each until its call settled: a call on one of their keys
  // queues behind them as behind a key's tail.
  const groups = new Set<{ keys: ReadonlySet<string>; tail: Promise<unknown> }>()
  /** The tails of the groups in use that hold `key` (none while no group is in use: the usual case). */
  const groupTails = (key: string, into: Set<Promise<unknown>>): void => {
    for (const group of groups) if (group.keys.has(key)) into.add(group.tail)
  }
  const run = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    let previous = tails.get(key) ?? Promise.resolve()
    if (groups.size > 0) {
      const before = new Set<Promise<unknown>>([previous])
      groupTails(key, before)
      if (before.size > 1) previous = Promise.all(before)
    }
    const result = previous.then(fn, fn)
    const tail = result.catch(() => undefined)
    tails.set(key, tail)
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key)
    })
    return result
  }
  return {
    run,
    // Every key queued in one synchronous step, one tail for them all (issue 23 item 3: the launch tick locks 5,000
    // orders; taking them one by one in sorted order, each a `run` nested in the previous one's, took 2.5-15 ms and
    // 4 promises a key; docs/execution.md §8, "The first send without a read before it").
    // Exclusion: on each key the call's tail is set right after the key's previous tail was read, with no await in
    // between, so as for `run` every key's holders form one chain, each starting after the one before it settled.
    // No deadlock: JavaScript runs this loop to completion, so calls queue on their keys in one global order (the
    // order of the calls), and a call only ever waits for calls made before it: a wait-for relation inside a strict
    // total order has no cycle (the sorted order of the former one-by-one taking served that purpose; a call holding
    // some keys while waiting for others no longer exists). Also first come, first served on every key: a later
    // `run` on a key never overtakes a `runAll` that is still waiting for another of its keys.
    runAll<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
      const unique = [...new Set(keys)]
      if (unique.length === 0) return fn()
      const before = new Set<Promise<unknown>>()
      for (const key of unique) {
        const previous = tails.get(key)
        if (previous) before.add(previous)
        if (groups.size > 0) groupTails(key, before)
      }
      // Tails never reject (each is its result with the rejection caught).
      const result = (before.size === 0 ? Promise.resolve() : Promise.all(before)).then(fn)
      const tail = result.catch(() => undefined)
      for (const key of unique) tails.set(key, tail)
      void tail.then(() => {
        for (const key of unique) if (tails.get(key) === tail) tails.delete(key)
      })
      return result
    },
    // The same exclusion and order as runAll: queued in one synchronous step behind every earlier call sharing a key
    // (a key's tail is the last call on it, which itself queued behind the ones before; a group in use shares a key or
    // not), so every key's holders still form one chain in call order, and no call waits for a later one.
    runGroup<T>(group: KeyGroup, fn: () => Promise<T>): Promise<T> {
      const before = new Set<Promise<unknown>>()
      for (const [key, tail] of tails) if (group.keys.has(key)) before.add(tail)
      for (const held of groups) if (intersects(held.keys, group.keys)) before.add(held.tail)
      // Tails never reject (each is its result with the rejection caught).
      const result = (before.size === 0 ? Promise.resolve() : Promise.all(before)).then(fn)
      const held = { keys: group.keys, tail: result.catch(() => undefined) }
      groups.add(held)
      void held.tail.then(() => groups.delete(held))
      return result
    },
  }
}
