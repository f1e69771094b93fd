import type { Address, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { lowerWallet } from '../../src/domain/execution/wallet-index.ts'
import { APPROVAL_TOPIC, TRANSFER_TOPIC, tokenLogsByTopic, topicAddress } from '../../src/chain/token-owner-logs.ts'

/**
 * Blocks of logs a carried snapshot is brought forward over; a larger gap reads every allowance again (one multicall),
 * as a first read does. 64 blocks are 12.8 s of Base at 200 ms (docs.base.org/base-chain/specs/upgrades/denim/overview).
 */
export const MAX_CARRIED_BLOCKS = 64n

export interface WarmAllowancesDeps {
  /** Each wallet's stablecoin allowance to `spender` at a block, by lower-cased address (one multicall). */
  read(chain: ChainKey, spender: Address, wallets: readonly Address[], blockNumber: bigint): Promise<Map<string, bigint>>
  /**
   * Lower-cased owners whose allowance to `spender` may have changed in blocks [fromBlock, toBlock]: every Approval
   * owner (approve, permit) and every Transfer sender (a transferFrom spends allowance; the token may emit no Approval
   * for it, as OpenZeppelin's ERC20 since v5 and Circle's FiatToken do not).
   */
  changedOwners(chain: ChainKey, spender: Address, fromBlock: bigint, toBlock: bigint): Promise<ReadonlySet<string>>
  /** Up to this many wallets, `at` reads them directly at the block (default DIRECT_READ_MAX_WALLETS; 0: always carried). */
  directUpTo?: number
  /** How long `at` waits for the calls queued before it before stepping on its own (default QUEUE_WAIT_MAX_MS). */
  queueWaitMaxMs?: number
}

/**
 * The longest a tick's `at` waits for the call under way before it (a read ahead of thousands of wallets: 2.5 s for
 * 5,000 on a loaded node, docs/execution.md §8) before it carries the snapshot itself beside it. Concurrent steps are
 * safe: each carries from a snapshot with its block and only a newer snapshot replaces a stored one. A bound so that a
 * launch tick never waits on a readying pass's read for longer than this, whatever the node does (issue 23 item 3).
 */
export const QUEUE_WAIT_MAX_MS = 1_000

/**
 * Wallets a tick reads directly at its block, in one multicall, instead of carrying a snapshot forward (issue 23 item 3).
 * Carrying is a getLogs, then a multicall of the owners the logs name, queued behind any read ahead under way: three
 * round trips where the tick's quote takes one (the latency bench, 2026-11-26: the launch tick waited 300-380 ms on it
 * after its quote). A direct read is one round trip, overlapped with the quote; its decoding costs ~0.1 ms a wallet
 * (5,000 in 0.3-0.5 s: the reason the carry exists), so up to 256 it costs less than a round trip.
 */
export const DIRECT_READ_MAX_WALLETS = 256

export interface WarmAllowances {
  /**
   * The wallets' allowances to `spender` at `blockNumber`, by lower-cased address: up to `directUpTo` wallets read at the
   * block (one multicall, shared by the calls of the same block that it covers); more, the snapshot of an earlier block
   * carried forward (wallets whose allowance may have changed since, by the logs, dropped) and only the wallets it
   * does not hold read at the block. Calls for one chain and spender run one after another, so a read ahead of a launch
   * (ready-ahead.ts, on every processed block) leaves the launch tick one getLogs instead of a 5,000-call multicall.
   */
  at(chain: ChainKey, spender: Address, wallets: readonly Address[], blockNumber: bigint): Promise<Map<string, bigint>>
  /**
   * Reads ahead: as `at`, but nothing when the snapshot is already at a later block (a launch tick got there first:
   * reading every wallet again at an older block would only cost the node and the event loop). A read ahead still
   * queued when a later call of the same chain and spender is made (the next block's read ahead, a tick's `at` of a
   * later block) is superseded: it reads nothing and resolves undefined, so the queue never holds more than
   * the step under way and the newest read ahead (docs/execution.md §8, "The readying pass that never ended").
   * Resolves the allowances at `blockNumber` (the snapshot's map: every wallet asked and any read before), undefined
   * when superseded or when the snapshot was already past the block. `covers`: lists whose every wallet is in `wallets`
   * (the waiting books' own lists, joined into `wallets`), known covered by the snapshot's map afterwards as `wallets`
   * is: a tick asking with one of them scans none of it.
   */
  ahead(
    chain: ChainKey,
    spender: Address,
    wallets: readonly Address[],
    blockNumber: bigint,
    covers?: ReadonlyArray<readonly Address[]>,
  ): Promise<ReadonlyMap<string, bigint> | undefined>
  /** Forgets the chain's snapshots (a reorg: the carried blocks may be gone). */
  forget(chain: ChainKey): void
}

/**
 * Allowances to the batch buyer carried from block to block (issue 23 item 3: the launch tick of a 5,000-order book
 * read 5,000 allowances in one multicall, ~0.3-0.5 s of encoding and decoding on the event loop plus the node's time,
 * measured in the split bench's CPU profile 2026-11-26). Only a filter: the batch contract checks each allowance when
 * it pulls (a wallet short of it is skipped, `CollectSkipped`), so a snapshot that missed a change (a storage write
 * without a log, a reorg not yet seen) costs a buyer a block, never a wrong pull.
 */
const byLowerMemo = new WeakMap<readonly Address[], Map<string, Address>>()

/** A wallet list's wallets by their lower-cased form, once per list. */
function walletsByLower(wallets: readonly Address[]): Map<string, Address> {
  let byLower = byLowerMemo.get(wallets)
  if (!byLower) {
    byLower = new Map()
    for (const wallet of wallets) byLower.set(lowerWallet(wallet), wallet)
    byLowerMemo.set(wallets, byLower)
  }
  return byLower
}

/** Allowances at a block, by lower-cased owner; `own`: the map is this snapshot's alone (else an earlier block's, shared). */
interface Snapshot {
  block: bigint
  values: Map<string, bigint>
  own: boolean
}

export function createWarmAllowances(deps: WarmAllowancesDeps): WarmAllowances {
  const snapshots = new Map<string, Snapshot>()
  // Per allowance map, the wallet lists it holds every wallet of (by list identity: a tick passes its book's list,
  // the same array while the book is unchanged, warm-books.ts bookWallets).
  const coverage = new WeakMap<Map<string, bigint>, WeakSet<readonly Address[]>>()
  const queues = new Map<string, Promise<unknown>>()
  const keyOf = (chain: ChainKey, spender: Address) => `${chain}!${spender.toLowerCase()}`

  async function step(
    key: string,
    chain: ChainKey,
    spender: Address,
    wallets: readonly Address[],
    block: bigint,
    onlyForward: boolean,
    covers: ReadonlyArray<readonly Address[]> = [],
  ): Promise<Snapshot> {
    const stored = snapshots.get(key)
    if (onlyForward && stored && stored.block > block) return stored
    let snapshot: Snapshot
    // The stored map held every one of these wallets (a book's tick asks with the same list block after block).
    const wasCovered = stored !== undefined && coverage.get(stored.values)?.has(wallets) === true
    let changed: ReadonlySet<string> | undefined
    if (!stored || block < stored.block || block - stored.block > MAX_CARRIED_BLOCKS) {
      snapshot = { block, values: new Map(), own: true }
    } else if (block > stored.block) {
      changed = await deps.changedOwners(chain, spender, stored.block + 1n, block)
      // The earlier block's map serves as it is when none of its owners changed (most blocks): a copy of every
      // allowance each block was ~25 ms of the event loop per block at 17,000 wallets (the held-ticks bench's profile).
      let dropped = false
      for (const owner of changed) if (stored.values.has(owner)) dropped = true
      if (dropped) {
        const values = new Map(stored.values)
        for (const owner of changed) values.delete(owner)
        snapshot = { block, values, own: true }
      } else {
        // Shared from now on: a step of the earlier block still running must not write into it either (below).
        stored.own = false
        snapshot = { block, values: stored.values, own: false }
      }
    } else snapshot = stored
    // Every wallet missing from the snapshot: when the stored map covered them, only the owners just dropped can be
    // (no scan of the whole list: ~17,000 lookups a block); else each is looked up.
    const missing: Address[] = []
    if (wasCovered && snapshot.values === stored!.values) {
      // Nothing dropped: none missing.
    } else if (wasCovered && changed) {
      const byLower = walletsByLower(wallets)
      for (const owner of changed) {
        const wallet = byLower.get(owner)
        if (wallet !== undefined && !snapshot.values.has(owner)) missing.push(wallet)
      }
    } else {
      const seen = new Set<string>()
      for (const wallet of wallets) {
        const lower = lowerWallet(wallet)
        if (snapshot.values.has(lower) || seen.has(lower)) continue
        seen.add(lower)
        missing.push(wallet)
      }
    }
    if (missing.length > 0) {
      const read = await deps.read(chain, spender, missing, block)
      // Never written into a map shared with an earlier block's snapshot: a step of that block running beside this
      // one would otherwise see this block's allowances as its own, and the reverse (and carry them on).
      if (!snapshot.own) snapshot = { block, values: new Map(snapshot.values), own: true }
      for (const [wallet, value] of read) snapshot.values.set(wallet, value)
    }
    // A map's entries are only ever added once it is stored (a dropped owner is deleted from a fresh copy), so a map
    // that held these wallets holds them for good.
    let covered = coverage.get(snapshot.values)
    if (!covered) {
      covered = new WeakSet()
      coverage.set(snapshot.values, covered)
    }
    covered.add(wallets)
    for (const list of covers) covered.add(list)
    const current = snapshots.get(key)
    if (!current || current.block <= snapshot.block) snapshots.set(key, snapshot)
    return snapshot
  }

  // Reads ahead queued and not started yet, per chain and spender: a later call supersedes them.
  const waitingAheads = new Map<string, Set<{ block: bigint; superseded: boolean }>>()
  const queueWaitMaxMs = deps.queueWaitMaxMs ?? QUEUE_WAIT_MAX_MS

  /** The previous calls' tail, waited for at most `queueWaitMaxMs` (a tick's `at`), or fully (a read ahead). */
  function afterPrevious(previous: Promise<unknown>, bounded: boolean): Promise<unknown> {
    if (!bounded) return previous
    let timer: ReturnType<typeof setTimeout> | undefined
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, queueWaitMaxMs)
    })
    return Promise.race([previous, bound]).finally(() => clearTimeout(timer))
  }

  function queued(
    chain: ChainKey,
    spender: Address,
    wallets: readonly Address[],
    blockNumber: bigint,
    onlyForward: boolean,
    covers?: ReadonlyArray<readonly Address[]>,
  ) {
    const key = keyOf(chain, spender)
    // Reads ahead of an older block still waiting (or of this block, when this is a read ahead too): this call brings
    // the snapshot past them, and an older read ahead behind it would read nothing new (the readying pass of each 200 ms
    // block queued one, and with a step slower than a block the queue grew without end, a tick's `at` behind all of it).
    // A tick's call of the same block leaves the pass's read ahead of that block: it asks other wallets (the waiting ones).
    let waiting = waitingAheads.get(key)
    if (waiting) for (const entry of waiting) if (entry.block < blockNumber || (onlyForward && entry.block === blockNumber)) entry.superseded = true
    const mine = onlyForward ? { block: blockNumber, superseded: false } : undefined
    if (mine) {
      if (!waiting) {
        waiting = new Set()
        waitingAheads.set(key, waiting)
      }
      waiting.add(mine)
    }
    const previous = (queues.get(key) ?? Promise.resolve()).catch(() => undefined)
    const run = afterPrevious(previous, !onlyForward).then(() => {
      if (mine) {
        waiting?.delete(mine)
        if (waiting?.size === 0 && waitingAheads.get(key) === waiting) waitingAheads.delete(key)
        if (mine.superseded) return undefined
      }
      return step(key, chain, spender, wallets, blockNumber, onlyForward, covers)
    })
    const tail = run.catch(() => undefined)
    queues.set(key, tail)
    tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key)
    })
    return run
  }

  // The last direct read per chain and spender: a tick's prefetch and its plan ask the same wallets at the same block.
  const direct = new Map<string, { block: bigint; wallets: ReadonlySet<string>; read: Promise<Map<string, bigint>> }>()
  const directUpTo = deps.directUpTo ?? DIRECT_READ_MAX_WALLETS
  // An option accepted must be honoured (the executor's allowancesDirectUpTo).
  if (!Number.isSafeInteger(directUpTo) || directUpTo < 0) throw new RangeError(`allowancesDirectUpTo must be a non-negative integer, got ${directUpTo}.`)

  function readDirect(chain: ChainKey, spender: Address, wallets: readonly Address[], block: bigint): Promise<Map<string, bigint>> {
    const key = keyOf(chain, spender)
    const last = direct.get(key)
    if (last && last.block === block && wallets.every((w) => last.wallets.has(w.toLowerCase()))) return last.read
    const read = deps.read(chain, spender, wallets, block)
    const entry = { block, wallets: new Set(wallets.map((w) => w.toLowerCase())), read }
    direct.set(key, entry)
    read.catch(() => direct.get(key) === entry && direct.delete(key))
    return read
  }

  return {
    at: async (chain, spender, wallets, blockNumber) =>
      wallets.length <= directUpTo ? readDirect(chain, spender, wallets, blockNumber) : (await queued(chain, spender, wallets, blockNumber, false))!.values,
    async ahead(chain, spender, wallets, blockNumber, covers) {
      const done = await queued(chain, spender, wallets, blockNumber, true, covers)
      return done?.block === blockNumber ? done.values : undefined
    },
    forget(chain) {
      for (const key of [...snapshots.keys()]) if (key.startsWith(`${chain}!`)) snapshots.delete(key)
      for (const key of [...direct.keys()]) if (key.startsWith(`${chain}!`)) direct.delete(key)
    },
  }
}

/** The chain side of `changedOwners`: the stablecoin's Transfer and Approval logs of the blocks, in one getLogs. */
export function allowanceChangesReader(deps: {
  chains: Partial<Record<ChainKey, ChainConfig>>
  clients: Partial<Record<ChainKey, PublicClient>>
}): WarmAllowancesDeps['changedOwners'] {
  return async (chain, spender, fromBlock, toBlock) => {
    const client = deps.clients[chain]
    const config = deps.chains[chain]
    if (!client || !config) throw new Error(`no client on ${chain}`)
    // Undecoded: the indexed owner (and spender) are all it needs (token-owner-logs.ts).
    const logs = await tokenLogsByTopic(client, config.addresses.stablecoin, [TRANSFER_TOPIC, APPROVAL_TOPIC], fromBlock, toBlock)
    const out = new Set<string>()
    const lowerSpender = spender.toLowerCase()
    for (const entry of logs) {
      const owner = topicAddress(entry.topics[1])
      const other = topicAddress(entry.topics[2])
      if (owner === undefined || other === undefined) continue
      const first = entry.topics[0]?.toLowerCase()
      if (first === TRANSFER_TOPIC) out.add(owner)
      else if (first === APPROVAL_TOPIC && other === lowerSpender) out.add(owner)
    }
    return out
  }
}
