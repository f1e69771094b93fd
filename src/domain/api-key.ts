import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * API key format: `prebuy_` + 43 base62 characters (32 random bytes, 256 bits) + 6 base62 characters of checksum
 * (the first 4 bytes of sha256 over the random part). The checksum lets the auth layer reject typos and garbage
 * without touching the store; the key itself is stored only as its sha256.
 */
/** A key's label: 1 to this many characters (the API's schema and the key service both hold it to this). */
export const LABEL_MAX_LENGTH = 100

export const API_KEY_PREFIX = 'prebuy_'
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BODY_LENGTH = 43
const CHECKSUM_LENGTH = 6
export const API_KEY_LENGTH = API_KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`)

function toBase62(value: bigint, width: number): string {
  let out = ''
  let rest = value
  while (rest > 0n) {
    out = ALPHABET[Number(rest % 62n)] + out
    rest /= 62n
  }
  return out.padStart(width, '0')
}

function checksum(body: string): string {
  const digest = createHash('sha256').update(body).digest()
  return toBase62(BigInt(digest.readUInt32BE(0)), CHECKSUM_LENGTH)
}

/** Builds a key from 32 random bytes (the caller supplies them, so this stays deterministic and testable). */
export function formatApiKey(randomBytes: Uint8Array): string {
  if (randomBytes.length !== 32) throw new RangeError('an API key needs 32 random bytes')
  const body = toBase62(BigInt(`0x${Buffer.from(randomBytes).toString('hex')}`), BODY_LENGTH)
  return `${API_KEY_PREFIX}${body}${checksum(body)}`
}

/** Prefix, length, alphabet and checksum: true only for something this service could have issued. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false
  const body = candidate.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH)
  return checksum(body) === candidate.slice(API_KEY_PREFIX.length + BODY_LENGTH)
}

export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey).digest('hex')

/** Constant-time equality of two hex digests (no early exit on the first differing byte). */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right)
}
