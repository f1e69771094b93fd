import type { Log, PublicClient } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { LaunchCandidate } from '../../src/launchpads/launchpad-adapter.ts'
import type { Store } from '../../src/store/open-store.ts'
import { projectsIn } from '../../src/store/project-index.ts'
import type { LaunchDetector } from './detect-launch.ts'
import { creatorsOfProject, tellAhead } from './launch-ahead-projects.ts'
import type { LaunchReadsAhead } from './launch-reads-ahead.ts'
import type { WaitingProjects } from './waiting-projects.ts'
import { mayBindAhead } from './may-bind-ahead.ts'
import { memoReads } from './memo-reads.ts'

/**
 * Blocks whose pushed launch logs (hints) started reads and whose intake has not begun: their memos are kept for them,
 * the oldest dropped beyond this (a hint of a block that never came: a reorged block, a forged push).
 */
export const MAX_HINTED_BLOCKS = 8

/** What a pushed launch log (a hint) started for its block: the memo its intake session takes, the logs pushed so far. */
interface HintedBlock {
  number: bigint
  reads: PublicClient
  logs: Log[]
  /** Launch logs (transaction hash and log index) whose reads the hints started. */
  started: Set<string>
}

/**
 * The launch logs pushed over the socket, as hints to the launch intake (issue 23 item 3, docs/execution.md §5 "The
 * launch log pushed"): the memos by block hash that a hint's reads and its block's intake session share.
 */
export function createLaunchHints(deps: {
  store: Store
  chain: ChainConfig
  client: PublicClient
  detector: LaunchDetector
  waiting?: WaitingProjects | undefined
}) {
  const { store, chain, client, detector } = deps
  // By block hash: the memo a block's hints started reads through, taken by the block's session (memoOf).
  const hinted = new Map<string, HintedBlock>()

  /**
   * A pushed launch log (the sync's `logs` subscription, docs/execution.md §5 "The launch log pushed"): a hint only. For a
   * log of a launchpad with a project waiting, the reads its block's intake will make start now, through the memo of its
   * block hash, which the block's session takes when the block itself arrives (memoOf): the receipt, the waiting creators'
   * code, the provisional decoding's completion reads (readAheadOfReceipt, over the logs of its block pushed so far), and
   * `onLaunchAhead` with the provisional candidate (the executor's reads ahead, launch_ahead). Nothing is decided, judged
   * or written on it: the block's logs are still read by hash and checked by the sync, and the session decodes them on
   * their own receipt as before; a hint whose block never comes costs its reads (its memo is dropped, MAX_HINTED_BLOCKS).
   * `blockTimestamp`: the pushed log's, else an estimate (the provisional decoding's only use of it; a read asked with
   * another value than the block's own is simply not shared). Never throws.
   */
  function hint(entry: Log, blockTimestamp: bigint, onLaunchAhead?: (candidate: LaunchCandidate, slugs: string[]) => void): void {
    const { blockHash, blockNumber, transactionHash } = entry
    if (blockHash === null || blockNumber === null || transactionHash === null) return
    let block = hinted.get(blockHash)
    if (!block) {
      block = { number: blockNumber, reads: memoReads(client), logs: [], started: new Set() }
      hinted.set(blockHash, block)
      for (const oldest of hinted.keys()) if (hinted.size > MAX_HINTED_BLOCKS) hinted.delete(oldest)
    }
    block.logs.push(entry)
    const adapter = detector.adapterOf(entry)
    const key = `${transactionHash}:${entry.logIndex}`
    if (!adapter || block.started.has(key)) return
    block.started.add(key)
    const { reads, logs } = block
    // The receipt at once; the decoding after the pushes of the same burst (the PoolManager's Initialize comes on its
    // own subscription, maybe just after this log).
    void (async () => {
      const projects = await (deps.waiting?.of(adapter.id) ?? projectsIn(store, chain.key, 'waiting', adapter.id))
      if (projects.length === 0) return
      await new Promise((resolve) => setImmediate(resolve))
      const creatorsOf = (candidate: LaunchCandidate) => projects.filter((p) => mayBindAhead(p, candidate)).flatMap(creatorsOfProject)
      const ahead: LaunchReadsAhead = {
        client: reads,
        blockLogs: [...logs].sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0)),
        creators: projects.flatMap(creatorsOfProject),
        creatorsOf,
      }
      detector.readAhead(entry, blockTimestamp, ahead, onLaunchAhead && tellAhead(projects, onLaunchAhead))
    })().catch(() => undefined)
  }

  /**
   * The memo of `block` (its intake session's, launch-intake.ts): the one its hints read through, else a new one; hints
   * of blocks at or below it are dropped (that height is taken by this block: theirs will not come).
   */
  function memoOf(block: { number: bigint; hash: string }): PublicClient {
    const mine = hinted.get(block.hash)
    for (const [hash, other] of hinted) if (other.number <= block.number) hinted.delete(hash)
    return mine?.reads ?? memoReads(client)
  }

  return { hint, memoOf, hintedBlocks: () => hinted.size }
}
