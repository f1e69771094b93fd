import { PrebuyError } from '../common/errors.ts'

/** Opaque cursors: base64url of the last index key returned. Walking on with `gt` never repeats or skips a key. */
export const encodeCursor = (indexKey: string): string => Buffer.from(indexKey, 'utf8').toString('base64url')

/** Decodes a cursor and checks it belongs to the walk (same prefix); anything else is a 400. */
export function decodeCursor(cursor: string, prefix: string): string {
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
  if (!decoded.startsWith(prefix) || decoded.length === prefix.length) {
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
