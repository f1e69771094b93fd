import { randomBytes } from 'node:crypto'
import { isPublicText } from '../common/public-text.ts'
import { PrebuyError } from '../common/errors.ts'
import { digestsEqual, formatApiKey, hashApiKey, isWellFormedApiKey, LABEL_MAX_LENGTH } from '../domain/api-key.ts'
import type { ApiKeyRecord, UserRecord } from '../domain/records.ts'
import { del, put, type Store, type StoreOperation } from '../store/open-store.ts'
import type { WalletService } from '../wallets/wallet-service.ts'
import type { Clock } from './clock.ts'

/** A key ready to be written: the caller commits `ops` (possibly with more) in one batch, then calls `release`. */
export interface PreparedKey {
  apiKey: string
  record: ApiKeyRecord
  ops: StoreOperation[]
  /** Frees the in-memory label reservation; call after the batch was written or abandoned. */
  release(): void
}

export interface NewApiKey {
  /** Plaintext, returned exactly once. */
  apiKey: string
  record: ApiKeyRecord
}

export interface KeyService {
  /** Reserves the label, allocates the user index and provisions the wallet address; writes nothing yet. */
  prepareKey(label: string): Promise<PreparedKey>
  issueKey(label: string): Promise<NewApiKey>
  /** The active key behind a plaintext key, or undefined (malformed, unknown or revoked). */
  authenticate(apiKey: string): Promise<ApiKeyRecord | undefined>
  getKey(id: string): Promise<ApiKeyRecord | undefined>
  listKeys(): Promise<ApiKeyRecord[]>
  /** Revokes a key; `alsoWrite` goes into the same batch (the cancellation of its active orders). */
  revokeKey(id: string, alsoWrite?: readonly StoreOperation[]): Promise<ApiKeyRecord>
  /**
   * A new secret for the same key record (same id, label, user, wallet and orders); the old secret stops working in the
   * same write. Refused for a revoked key.
   */
  rotateKey(id: string): Promise<NewApiKey>
}

export interface KeyServiceDeps {
  store: Store
  wallets: WalletService
  now: Clock
}

const AUTH_CACHE_LIMIT = 10_000
const LABEL_LOCK = 'keys:labels'

export function validateLabel(label: string): string {
  const trimmed = label.trim()
  if (trimmed.length < 1 || trimmed.length > LABEL_MAX_LENGTH) {
    throw new PrebuyError('invalid_label', `label must be 1 to ${LABEL_MAX_LENGTH} characters`)
  }
  // The public-text rule (src/common/public-text.ts): also for labels the service makes (from a project name).
  if (!isPublicText(trimmed)) throw new PrebuyError('invalid_label', 'label must be one line of text without control, bidi or zero-width characters')
  return trimmed
}

export function createKeyService({ store, wallets, now }: KeyServiceDeps): KeyService {
  const { keys, keysByLabel, keysByHash, users, meta } = store.sub
  /** Labels between the uniqueness check and the write: a second request for one of them gets the 409 at once. */
  const reserved = new Set<string>()
  /**
   * keyHash -> record for keys seen by authenticate. Only this process writes the database, and revocation goes
   * through this service, so the cache cannot serve a revoked key.
   */
  const authCache = new Map<string, ApiKeyRecord>()
  /**
   * Bumped once a revocation or rotation is written. authenticate caches what it read only if none was written while it
   * read: a read begun before a revocation can resolve after the revocation's last cache delete, and its record (not
   * revoked) would then be cached, and the revoked key accepted, until the cache is cleared.
   */
  let keyWrites = 0

  async function prepareKey(rawLabel: string): Promise<PreparedKey> {
    const label = validateLabel(rawLabel)
    const userIndex = await store.mutex.run(LABEL_LOCK, async () => {
      if (reserved.has(label) || (await keysByLabel.get(label)) !== undefined) {
        throw new PrebuyError('label_taken', 'This label is already taken; choose another one.', {
          details: { label },
        })
      }
      reserved.add(label)
      const index = (await meta.get('nextUserIndex')) ?? 0
      // Allocated for good even if provisioning fails later: an index is never handed to two keys.
      await store.batch([put(meta, 'nextUserIndex', index + 1)])
      return index
    })
    const release = () => {
      reserved.delete(label)
    }
    try {
      // Confirmed against every chain's factory before anything is stored or shown (issue 21: the address a buyer funds).
      const walletAddress = await wallets.verifiedWalletAddress(userIndex)
      const apiKey = formatApiKey(randomBytes(32))
      const record: ApiKeyRecord = {
        id: `key_${randomBytes(8).toString('hex')}`,
        keyHash: hashApiKey(apiKey),
        label,
        userIndex,
        walletAddress,
        createdAt: now(),
        revokedAt: null,
      }
      const user: UserRecord = { keyId: record.id, userIndex }
      const ops = [put(keys, record.id, record), put(keysByLabel, label, record.id), put(keysByHash, record.keyHash, record.id), put(users, record.id, user)]
      return { apiKey, record, ops, release }
    } catch (error) {
      release()
      throw error
    }
  }

  return {
    prepareKey,
    async issueKey(label) {
      const prepared = await prepareKey(label)
      try {
        await store.batch(prepared.ops)
      } finally {
        prepared.release()
      }
      return { apiKey: prepared.apiKey, record: prepared.record }
    },
    async authenticate(apiKey) {
      if (!isWellFormedApiKey(apiKey)) return undefined
      const hash = hashApiKey(apiKey)
      let record = authCache.get(hash)
      if (!record) {
        const writesBefore = keyWrites
        const id = await keysByHash.get(hash)
        record = id === undefined ? undefined : await keys.get(id)
        if (!record) return undefined
        if (authCache.size >= AUTH_CACHE_LIMIT) authCache.clear()
        if (keyWrites === writesBefore) authCache.set(hash, record)
      }
      if (!digestsEqual(record.keyHash, hash) || record.revokedAt !== null) return undefined
      return record
    },
    getKey: (id) => keys.get(id),
    async listKeys() {
      const out: ApiKeyRecord[] = []
      for await (const value of keys.values()) out.push(value as ApiKeyRecord)
      return out.sort((a, b) => a.createdAt - b.createdAt || a.userIndex - b.userIndex)
    },
    async rotateKey(id) {
      return store.mutex.run(LABEL_LOCK, async () => {
        const record = await keys.get(id)
        if (!record) throw new PrebuyError('key_not_found', 'No key has this id.')
        if (record.revokedAt !== null) throw new PrebuyError('key_revoked', 'The key is revoked: issue a new one instead of rotating it.')
        const apiKey = formatApiKey(randomBytes(32))
        const rotated: ApiKeyRecord = { ...record, keyHash: hashApiKey(apiKey), rotatedAt: now() }
        authCache.delete(record.keyHash)
        await store.batch([put(keys, id, rotated), del(keysByHash, record.keyHash), put(keysByHash, rotated.keyHash, id)])
        keyWrites++
        authCache.delete(record.keyHash)
        return { apiKey, record: rotated }
      })
    },
    async revokeKey(id, alsoWrite = []) {
      return store.mutex.run(LABEL_LOCK, async () => {
        const record = await keys.get(id)
        if (!record) throw new PrebuyError('key_not_found', 'No key has this id.')
        authCache.delete(record.keyHash)
        if (record.revokedAt !== null) return record
        const revoked = { ...record, revokedAt: now() }
        await store.batch([put(keys, id, revoked), ...alsoWrite])
        keyWrites++
        authCache.delete(record.keyHash)
        return revoked
      })
    },
  }
}
