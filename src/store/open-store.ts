import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Level } from 'level'
import type { AbstractBatchOperation, AbstractSublevel } from 'abstract-level'
import type { ApiKeyRecord, BlockEntry, DeskSettings, OrderRecord, ProjectRecord, ReviewItem, UserRecord } from '../domain/records.ts'
import { createKeyedMutex, type KeyedMutex } from '../common/keyed-mutex.ts'
import { PrebuyError } from '../common/errors.ts'

export type Sublevel<V> = AbstractSublevel<Level<string, unknown>, string | Buffer | Uint8Array, string, V>

/** Every record kind in its own sublevel; values are JSON. Index sublevels map an ordered key to a record id. */
export interface Sublevels {
  /** id -> ApiKeyRecord */
  keys: Sublevel<ApiKeyRecord>
  /** label -> key id (unique) */
  keysByLabel: Sublevel<string>
  /** sha256 hex -> key id */
  keysByHash: Sublevel<string>
  /** key id -> UserRecord (the buyer behind the key) */
  users: Sublevel<UserRecord>
  /** slug -> ProjectRecord; key order is the listing order of GET /projects */
  projects: Sublevel<ProjectRecord>
  /** `${ownerKeyId}!${slug}` -> slug */
  projectsByOwner: Sublevel<string>
  /** `${chain}!${waiting|launched}!${launchpad}!${slug}` -> slug (project-index.ts) */
  projectsByChain: Sublevel<string>
  /** `${keyId}!${slug}` -> OrderRecord */
  orders: Sublevel<OrderRecord>
  /**
   * `${keyId}!${group}!${descending spend}!${slug}` -> a copy of the OrderRecord (group is `visible` = not deleted,
   * or the status). The copy lets GET /orders read one range and nothing else; orderWriteOps rewrites it with the
   * record in the same batch.
   */
  ordersBySpend: Sublevel<OrderRecord>
  /** `${slug}!${status}!${keyId}` -> keyId: the executor's "all active orders of project S" */
  ordersByProject: Sublevel<string>
  /** `${slug}!${descending followers}!${keyId}` -> keyId, for every key with a non-deleted order on the project */
  buyersByProject: Sublevel<string>
  /** id (time-ordered) -> ReviewItem */
  reviews: Sublevel<ReviewItem>
  /** `${type}!${value}` -> BlockEntry */
  blocklist: Sublevel<BlockEntry>
  /** 'desk' -> DeskSettings */
  settings: Sublevel<DeskSettings>
  /** counters: 'nextUserIndex' -> number */
  meta: Sublevel<number>
}

export type StoreOperation =
  | { type: 'put'; sublevel: Sublevel<unknown>; key: string; value: unknown }
  | { type: 'del'; sublevel: Sublevel<unknown>; key: string }

export interface Store {
  readonly path: string
  readonly sub: Sublevels
  /**
   * Applies every operation atomically (one LevelDB write batch) or none. Every write of the service goes through
   * here, which is what lets in-memory read caches stay exact (see onBatch).
   */
  batch(operations: readonly StoreOperation[]): Promise<void>
  /** Called synchronously after each successful batch with its operations; returns an unsubscribe function. */
  onBatch(listener: (operations: readonly StoreOperation[]) => void): () => void
  /** Named in-process lock for read-check-write sequences. */
  readonly mutex: KeyedMutex
  /** A further JSON sublevel (launches, execution journal, ...) created on demand and cached by name. */
  sublevel<V>(name: string): Sublevel<V>
  /** Open, and whether the last write succeeded (LevelDB refuses every write after a failed one until reopened). */
  health(): { open: boolean; writable: boolean }
  /**
   * LevelDB's own figures, for the metrics: its approximate memory (memtables and block cache) and the table files it
   * keeps (each open one holds its index in memory, outside that figure); null once closed.
   */
  engineStats(): { memoryBytes: number; tableFiles: number } | null
  /**
   * Every entry of the database, raw (sublevel prefixes included), as it was when this is called: LevelDB iterators
   * read from a snapshot taken synchronously when they are created (classic-level README, "snapshot guarantees"), so
   * writes landing while the caller reads are not seen. What a backup is made of.
   */
  snapshotEntries(): AsyncIterable<[string, string]>
  close(): Promise<void>
}

const SUBLEVEL_NAMES = [
  'keys',
  'keysByLabel',
  'keysByHash',
  'users',
  'projects',
  'projectsByOwner',
  'projectsByChain',
  'orders',
  'ordersBySpend',
  'ordersByProject',
  'buyersByProject',
  'reviews',
  'blocklist',
  'settings',
  'meta',
] as const satisfies ReadonlyArray<keyof Sublevels>

export const put = <V>(sublevel: Sublevel<V>, key: string, value: V): StoreOperation => ({
  type: 'put',
  sublevel: sublevel as Sublevel<unknown>,
  key,
  value,
})
export const del = <V>(sublevel: Sublevel<V>, key: string): StoreOperation => ({
  type: 'del',
  sublevel: sublevel as Sublevel<unknown>,
  key,
})

const UTF8 = { keyEncoding: 'utf8', valueEncoding: 'utf8' } as const
type RawOperation = ({ type: 'put'; key: string; value: string } | { type: 'del'; key: string }) & typeof UTF8
const RAW = UTF8
interface ImplementerBatch {
  _batch(operations: readonly RawOperation[], options: object): Promise<void>
}
/** The key prefix abstract-level gives a sublevel of the root database ("!name!"). */
const prefixOf = (sublevel: Sublevel<unknown>): string => (sublevel as unknown as { prefix: string }).prefix

/**
 * A write the disk refused (full, read-only, I/O error) as the typed 503 every caller can show: nothing of the batch
 * was written (LevelDB batches are atomic). LevelDB then refuses every later write until it is reopened, so the
 * message says what the operator does: free space or fix the mount, then restart the daemon.
 */
function storageError(error: unknown): unknown {
  const text = error instanceof Error ? `${(error as { code?: unknown }).code ?? ''} ${error.message}` : String(error)
  if (!/ENOSPC|EROFS|EDQUOT|EIO|No space left|Read-only file system|IO error|Disk quota/i.test(text)) return error
  return new PrebuyError('storage_unavailable', 'The service cannot write its data right now; nothing was changed. Try again later.', {
    cause: error,
    details: { retryAfterSeconds: 60 },
  })
}

/** Opens (creating if needed) the LevelDB database at `<dataDir>/db` (the daemon then migrates it: daemon/store/migrate-store.ts). */
export async function openStore(options: { dataDir: string }): Promise<Store> {
  const path = join(options.dataDir, 'db')
  await mkdir(path, { recursive: true })
  const db = new Level<string, unknown>(path, { valueEncoding: 'json' })
  try {
    await db.open()
  } catch (error) {
    // level says only "Database failed to open"; the cause (read-only file system, locked, corrupt) is what helps.
    const cause = (error as { cause?: unknown }).cause
    const reason = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error)
    throw new Error(`cannot open the database at ${path}: ${reason}`, { cause: error })
  }
  const cache = new Map<string, Sublevel<unknown>>()
  const sublevel = <V>(name: string): Sublevel<V> => {
    let existing = cache.get(name)
    if (!existing) {
      existing = db.sublevel<string, unknown>(name, { valueEncoding: 'json' }) as unknown as Sublevel<unknown>
      cache.set(name, existing)
    }
    return existing as Sublevel<V>
  }
  const sub = Object.fromEntries(SUBLEVEL_NAMES.map((name) => [name, sublevel(name)])) as unknown as Sublevels
  const listeners = new Set<(operations: readonly StoreOperation[]) => void>()
  let writable = true
  const store: Store = {
    path,
    sub,
    mutex: createKeyedMutex(),
    sublevel,
    async batch(operations) {
      if (operations.length === 0) return
      // One atomic write across record kinds, encoded here: a sublevel's key is its prefix followed by the key, and
      // a JSON value is its JSON text, exactly what the sublevels read (a launch's batch holds ~4,500 operations and
      // precedes its first transaction).
      const encoded: RawOperation[] = new Array(operations.length)
      for (let i = 0; i < operations.length; i++) {
        const op = operations[i]!
        // What abstract-level would refuse, refused before anything is written.
        if (typeof op.key !== 'string') throw new TypeError(`Store operation ${i}: the key must be a string.`)
        if (op.type === 'put' && op.value === undefined) throw new TypeError(`Store operation ${i}: a put needs a value.`)
        const key = prefixOf(op.sublevel) + op.key
        encoded[i] = op.type === 'put' ? { type: 'put', key, value: JSON.stringify(op.value), ...UTF8 } : { type: 'del', key, ...UTF8 }
      }
      if (db.status === 'open') {
        // abstract-level's implementer API (`_batch`, documented for implementations like classic-level): the
        // operations are already validated and encoded, and the public batch's per-operation cloning and encoding
        // lookups cost ~5 µs each, 20-40 ms for a launch's batch against ~5 ms here. Hooks and 'write' events, which
        // this service does not use, are what it skips.
        try {
          await (db as unknown as ImplementerBatch)._batch(encoded, {})
          writable = true
        } catch (error) {
          writable = false
          throw storageError(error)
        }
      } else {
        // Not open (closing, closed): the public path reports it with level's own error.
        try {
          await db.batch(encoded as unknown as Array<AbstractBatchOperation<Level<string, unknown>, string, unknown>>, RAW)
        } catch (error) {
          throw storageError(error)
        }
      }
      for (const listener of listeners) listener(operations)
    },
    health: () => ({ open: db.status === 'open', writable }),
    engineStats() {
      if (db.status !== 'open') return null
      // In Node `level` is classic-level, whose getProperty reads LevelDB's DB::GetProperty (level's types omit it).
      const engine = db as unknown as { getProperty(name: string): string }
      const property = (name: string) => Number(engine.getProperty(name)) || 0
      let tableFiles = 0
      // LevelDB keeps 7 levels (leveldb db/dbformat.h, kNumLevels).
      for (let level = 0; level < 7; level++) tableFiles += property(`leveldb.num-files-at-level${level}`)
      return { memoryBytes: property('leveldb.approximate-memory-usage'), tableFiles }
    },
    snapshotEntries() {
      const iterator = db.iterator<string, string>({ keyEncoding: 'utf8', valueEncoding: 'utf8' })
      return {
        async *[Symbol.asyncIterator]() {
          try {
            for await (const entry of iterator) yield entry
          } finally {
            await iterator.close()
          }
        },
      }
    },
    onBatch(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    async close() {
      await db.close()
    },
  }
  return store
}
