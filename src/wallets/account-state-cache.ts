import type { Address } from 'viem'

/** What a UserOperation of an account needs from the chain: whether it is deployed, and its nonce on stream 0. */
export interface AccountState {
  deployed: boolean
  /** EntryPoint nonce of the account's first 2D-nonce stream (0 for an account that is not deployed). */
  nonce: bigint
}

/**
 * Account states read ahead of a burst of operations (a launch), so preparing them needs no chain read.
 *
 * Only our own operations change an account's code or nonce (the owner keys never leave the service), so a state read
 * after the account's last own operation began stays exact until the next one: every prepare (and a deployment ahead)
 * `touch`es the account, which invalidates reads that began before it. A read is recorded with the sequence number
 * taken when it began, never for an account with an operation in flight (the caller skips busy accounts), so an
 * operation mined while the read was travelling cannot leave it stale. What a touch cannot see (a reorg that undoes one
 * of our operations) is bounded by `clear()` on a reorg and by a maximum age.
 *
 * A deployment sent ahead (from the bundler EOA, not through the EntryPoint) changes only the account's code, never its
 * EntryPoint nonce: when it ends, only a "not deployed" read made before is stale (`deploymentEnded`). A read that saw
 * the code stays served, so a readying pass made after the deployment landed but before its follow-up reported it is
 * not thrown away (which made the launch's own buys read the chain again).
 */
export interface AccountStateCache {
  /** A read is about to start: its sequence number, to pass to `record`. */
  beginRead(): number
  record(readSeq: number, address: Address, state: AccountState): void
  /** The state if still exact (no touch since its read began, younger than the maximum age); else undefined. */
  get(address: Address): AccountState | undefined
  /** An operation of the account is being prepared, or its deployment sent: what was read before is stale. */
  touch(address: Address): void
  /** The account's deployment ahead ended (landed, or dropped): a "not deployed" read begun before is stale. */
  deploymentEnded(address: Address): void
  clear(): void
  readonly size: number
}

export function createAccountStateCache(options: { maxAgeMs: number; now?: () => number; maxEntries?: number }): AccountStateCache {
  const now = options.now ?? Date.now
  const maxEntries = options.maxEntries ?? 200_000
  let seq = 0
  // Reads that began at or before this are refused: they may predate a forgotten touch or a reorg.
  let floor = 0
  const touched = new Map<string, number>()
  // Only "not deployed" reads begun before these are refused: what a deployment ahead changed.
  const deploymentsEnded = new Map<string, number>()
  const staleUndeployed = (key: string, readSeq: number, deployed: boolean) => !deployed && (deploymentsEnded.get(key) ?? 0) > readSeq
  const bound = () => {
    // Marks only matter against entries and reads in flight; with too many, all go and older reads are refused.
    if (touched.size + deploymentsEnded.size > maxEntries) {
      touched.clear()
      deploymentsEnded.clear()
      entries.clear()
      floor = seq
    }
  }
  const entries = new Map<string, AccountState & { seq: number; at: number }>()
  return {
    beginRead: () => ++seq,
    record(readSeq, address, state) {
      const key = address.toLowerCase()
      if (readSeq <= floor || (touched.get(key) ?? 0) > readSeq || staleUndeployed(key, readSeq, state.deployed)) return
      // A bound, not an eviction policy: a cleared entry is read again before the next launch.
      if (entries.size >= maxEntries) entries.clear()
      entries.set(key, { ...state, seq: readSeq, at: now() })
    },
    get(address) {
      const key = address.toLowerCase()
      const entry = entries.get(key)
      if (!entry) return undefined
      if ((touched.get(key) ?? 0) > entry.seq || staleUndeployed(key, entry.seq, entry.deployed) || now() - entry.at > options.maxAgeMs) {
        entries.delete(key)
        return undefined
      }
      return { deployed: entry.deployed, nonce: entry.nonce }
    },
    touch(address) {
      const key = address.toLowerCase()
      touched.set(key, ++seq)
      entries.delete(key)
      bound()
    },
    deploymentEnded(address) {
      const key = address.toLowerCase()
      deploymentsEnded.set(key, ++seq)
      if (entries.get(key)?.deployed === false) entries.delete(key)
      bound()
    },
    clear() {
      entries.clear()
      floor = seq
    },
    get size() {
      return entries.size
    },
  }
}
