import type { Store, StoreOperation } from './open-store.ts'

/** What `dropped` answers for a write that changes every key's read. */
export const EVERY_KEY: unique symbol = Symbol('every key')

/** Reads of the store by key, each held in memory from its first read until a write changes what it read. */
export interface HeldReads<K, T> {
  /** The key's read: the held one, or a new one (held from now on). */
  of(key: K): Promise<T>
  /** Stops following the store's writes and drops what is held: from then on every call reads the store. */
  stop(): void
}

/**
 * Reads kept until a write changes them: exact, not a timed cache. Every write of the service goes through
 * `store.batch`, whose `onBatch` listeners run synchronously after the write and before `batch` resolves
 * (open-store.ts), so a write's `dropped` keys are forgotten before its writer, or anyone after it, can read again. A
 * read under way when such a write lands is handed to those who asked already (as a read racing the write always was)
 * but not kept. A failed read is not kept either: the next caller reads again.
 *
 * `dropped(op)` names what an operation changes: EVERY_KEY, the key it changes, or undefined for none (so a key type
 * that includes undefined can only be dropped with EVERY_KEY). `onDropped` is told once per write that dropped
 * something, after the write (to read again ahead of the next caller).
 */
export function createHeldReads<K, T>(
  store: Pick<Store, 'onBatch'>,
  options: {
    read(key: K): Promise<T>
    dropped(op: StoreOperation): typeof EVERY_KEY | K | undefined
    onDropped?(): void
  },
): HeldReads<K, T> {
  const held = new Map<K, Promise<T>>()
  let stopped = false
  const unsubscribe = store.onBatch((operations) => {
    let any = false
    for (const op of operations) {
      const key = options.dropped(op)
      if (key === undefined) continue
      any = true
      if (key === EVERY_KEY) {
        held.clear()
        break
      }
      held.delete(key)
    }
    if (any) options.onDropped?.()
  })
  return {
    of(key) {
      if (stopped) return options.read(key)
      let found = held.get(key)
      if (!found) {
        const reading = options.read(key)
        held.set(key, reading)
        reading.catch(() => {
          if (held.get(key) === reading) held.delete(key)
        })
        found = reading
      }
      return found
    },
    stop() {
      stopped = true
      held.clear()
      unsubscribe()
    },
  }
}
