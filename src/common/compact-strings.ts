/**
 * Strings held by the hundred thousand: V8 keeps the result of `a + b` (and of a template literal) of 13 characters or
 * more as a rope (a ConsString tree) until something flattens it, and viem builds a hex string two characters at a
 * time, so a cached 32-byte hash held ~18 rope nodes (~600 bytes) instead of one 82-byte flat string: the executor's
 * order-id cache alone held 84 MB of them at 100,000 orders (heap snapshot of the load suite's daemon, 2026-11-26,
 * docs/reliability.md). And JSON.parse gives every record its own copy of each string value (slug, status, amounts).
 */

/** The same characters as one flat (sequential) string: what a long-lived cache should hold. */
export function flatString(value: string): string {
  // A round trip through a Buffer always yields a flat string (the rope is read once and dropped). Latin-1 keeps
  // every UTF-16 code unit below 256 as is; anything else goes through UTF-8.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the Latin-1 range is the point.
  return /^[\u0000-\u00ff]*$/.test(value) ? Buffer.from(value, 'latin1').toString('latin1') : Buffer.from(value, 'utf8').toString('utf8')
}

/**
 * One shared copy per distinct value, for strings repeated across many records (a project's slug on each of its
 * orders, a buyer's key id on each of theirs, a handful of statuses and amounts). Bounded: past `max` distinct values
 * the table starts afresh (a value is then merely not shared, never wrong).
 */
export function createInterner(max = 100_000): (value: string) => string {
  let table = new Map<string, string>()
  return (value) => {
    const known = table.get(value)
    if (known !== undefined) return known
    if (table.size >= max) table = new Map()
    const flat = flatString(value)
    table.set(flat, flat)
    return flat
  }
}
