import { PrebuyError } from '../common/errors.ts'

/** Opaque cursors: base64url of the last index key returned. Walking on with `gt` never repeats or skips a key. */
export const encodeCursor = (indexKey: string): string => Buffer.from(indexKey, 'utf8').toString('base64url')

/**
 * Decodes a cursor and checks it is one this walk could have issued: the canonical encoding of a key under `prefix`
 * whose rest matches `rest` when given (a listing keyed by slugs: a slug). Anything else is a 400: a garbage cursor is
 * never silently read as "start after this string".
 */
export function decodeCursor(cursor: string, prefix: string, rest?: RegExp): string {
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
  const issued = decoded !== '' && encodeCursor(decoded) === cursor && (rest === undefined || rest.test(decoded.slice(prefix.length)))
  if (!issued || !decoded.startsWith(prefix) || decoded.length === prefix.length) {
    throw new PrebuyError('invalid_cursor', 'Invalid cursor')
  }
  return decoded
}

/** Zero-padded fixed width so lexicographic order is numeric order. */
export const padNumber = (value: bigint, width: number): string => value.toString().padStart(width, '0')

/** Descending numeric order in an ascending key space: (10^width - 1) - value, padded. */
export function descendingKey(value: bigint, width: number): string {
  const max = 10n ** BigInt(width) - 1n
  const clamped = value < 0n ? 0n : value > max ? max : value
  return padNumber(max - clamped, width)
}
