import { createHmac } from 'node:crypto'
import type { Hex } from 'viem'
import { PrebuyError } from '../../common/errors.ts'

/** Order of the secp256k1 group: a private key must lie in [1, n - 1]. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** Domain tags: changing one changes every key derived with it, so they are versioned and never edited. */
export const OWNER_KEY_TAG = 'prebuy/owner-key/v1'
export const BUNDLER_KEY_TAG = 'prebuy/bundler-key/v1'

/**
 * Deterministic child key: HMAC-SHA256(masterSecret, tag || ":" || index), read as a big-endian integer and reduced
 * into [1, n - 1] as (h mod (n - 1)) + 1. The reduction's bias is below 2^-127, and the result can never be 0 or >= n,
 * so every index yields a valid key without retry loops. HMAC keeps the master secret unrecoverable from any child key.
 */
export function deriveChildKey(masterSecret: Uint8Array, tag: string, index: number): Hex {
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new PrebuyError('invalid_key_index', 'A key index must be a non-negative integer.')
  }
  if (masterSecret.length !== 32) throw new PrebuyError('invalid_master_secret', 'The master secret must be 32 bytes.')
  const digest = createHmac('sha256', masterSecret).update(`${tag}:${index}`).digest()
  const scalar = (BigInt(`0x${digest.toString('hex')}`) % (SECP256K1_N - 1n)) + 1n
  return `0x${scalar.toString(16).padStart(64, '0')}`
}

export const deriveOwnerKey = (masterSecret: Uint8Array, userIndex: number): Hex => deriveChildKey(masterSecret, OWNER_KEY_TAG, userIndex)

/** One bundler EOA for every chain: the same address is funded on each. */
export const deriveBundlerKey = (masterSecret: Uint8Array): Hex => deriveChildKey(masterSecret, BUNDLER_KEY_TAG, 0)

/**
 * Sender account `index` of the pool that sends the service's transactions in parallel (wallet.senderAccounts): the
 * bundler key's own derivation at further indexes, so account 0 is the bundler EOA itself and every existing
 * deployment keeps its address (and its funds, and the contracts naming it as their operator).
 */
export const deriveSenderKey = (masterSecret: Uint8Array, index: number): Hex => deriveChildKey(masterSecret, BUNDLER_KEY_TAG, index)
