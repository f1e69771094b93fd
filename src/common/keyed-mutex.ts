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
}

export function createKeyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<unknown>>()
  const run = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve()
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
  }
}
