/**
 * Named in-process locks. The daemon is the only process that opens the database, so serialising a read-check-write
 * (label uniqueness, user index allocation, one key's order batch) inside the process is enough.
 */
export interface Mutex {
  run<T>(name: string, fn: () => Promise<T>): Promise<T>
}

export function createMutex(): Mutex {
  const tails = new Map<string, Promise<unknown>>()
  return {
    async run<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve()
      let release!: () => void
      const current = new Promise<void>((resolve) => {
        release = resolve
      })
      const tail = previous.then(() => current)
      tails.set(name, tail)
      await previous
      try {
        return await fn()
      } finally {
        release()
        // Drop the entry when nobody queued behind us, so the map does not grow with every key ever locked.
        if (tails.get(name) === tail) tails.delete(name)
      }
    },
  }
}
