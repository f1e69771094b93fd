import { decodeCursor, encodeCursor } from './cursor.ts'
import type { Sublevel } from './open-store.ts'

export interface IndexPage<V> {
  entries: Array<{ key: string; value: V }>
  nextCursor: string | null
}

/**
 * One page of an index walk over the keys starting with `prefix`. The next walk starts strictly after the last key
 * returned, so records that existed when the walk began are seen exactly once even while others are inserted.
 * `keyPattern`: what the part of a key after `prefix` looks like, so a cursor naming anything else is refused.
 */
export async function readIndexPage<V>(
  sublevel: Sublevel<V>,
  prefix: string,
  options: { cursor?: string | undefined; limit: number; keyPattern?: RegExp },
): Promise<IndexPage<V>> {
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, prefix, options.keyPattern)
  const range = after === undefined ? { gte: prefix } : { gt: after }
  // One native round trip for the whole page (plus one look-ahead entry that says whether more exist).
  const rows = await sublevel.iterator({ ...range, lt: `${prefix}\xff`, limit: options.limit + 1 }).all()
  const more = rows.length > options.limit
  const entries = rows.slice(0, options.limit).map(([key, value]) => ({ key, value: value as V }))
  const last = entries.at(-1)
  return { entries, nextCursor: more && last ? encodeCursor(last.key) : null }
}

/** Number of keys under a prefix (keys only; used for page totals of small sets). */
export async function countPrefix<V>(sublevel: Sublevel<V>, prefix: string): Promise<number> {
  let count = 0
  for await (const _key of sublevel.keys({ gte: prefix, lt: `${prefix}\xff` })) count += 1
  return count
}

/** Every value under a prefix. */
export async function readAll<V>(sublevel: Sublevel<V>, prefix: string): Promise<Array<{ key: string; value: V }>> {
  const out: Array<{ key: string; value: V }> = []
  for await (const [key, value] of sublevel.iterator({ gte: prefix, lt: `${prefix}\xff` })) out.push({ key, value: value as V })
  return out
}
