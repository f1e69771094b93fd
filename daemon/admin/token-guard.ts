import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (value: string): Buffer => createHash('sha256').update(value).digest()

/**
 * Checks `Authorization: Bearer <token>` against the operator token. Both sides are hashed first so the comparison is
 * constant-time and independent of the presented token's length.
 */
export function isOperatorAuthorized(header: string | undefined, operatorToken: string): boolean {
  if (typeof header !== 'string') return false
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim())
  const presented = match?.[1] ?? ''
  return timingSafeEqual(digest(presented), digest(operatorToken)) && presented.length > 0
}
