/**
 * Named in-process locks: `run(key, fn)` starts `fn` once every earlier `run` on the same key has settled (resolved or
 * rejected); other keys are not held up. The daemon is the only process that opens the database, so serialising a
 * read-check-write inside the process is enough (label uniqueness, one key's order batch, one wallet's withdrawal, one
 * chain's executor planning). Keys are dropped when idle, so the map does not grow with every key ever locked.
 */
export interface KeyedMutex {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>
  /**
   * Runs `fn` holding every key at once. Keys are taken one by one in sorted order, so two callers holding overlapping
   * sets (or a single key each) can never wait for each other in a circle.
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
    runAll<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
      const sorted = [...new Set(keys)].sort()
      const acquire = (i: number): Promise<T> => (i === sorted.length ? fn() : run(sorted[i]!, () => acquire(i + 1)))
      return acquire(0)
    },
  }
}
