import { getAddress, type Log, type PublicClient } from 'viem'
import { blocksIn, TIMING_SECONDS } from '../../src/chain/block-seconds.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import { judgeLaunch, type LaunchBinding, type LaunchJudgement } from '../../src/domain/launches/judge-launch.ts'
import type { KnownLaunchPools } from '../../src/domain/launches/known-launch-pools.ts'
import type { Launchpad, ProjectRecord } from '../../src/domain/records.ts'
import type { Journal } from '../../src/journal/journal.ts'
import type { CandidateRecord, CandidateStatus, QuarantinedLog, StoredLaunch } from '../../src/journal/journal-records.ts'
import type { DecodedLaunch, LaunchCandidate, LaunchIdentity, PairedAsset } from '../../src/launchpads/launchpad-adapter.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import { projectsIn } from '../../src/store/project-index.ts'
import type { DetectedLaunch, LaunchDetector } from './detect-launch.ts'
import { launchFacts, needsTokenText, readTokenText, underPendingBinding } from './launch-binding-facts.ts'
import type { LaunchReadsAhead } from './launch-reads-ahead.ts'
import type { WaitingProjects } from './waiting-projects.ts'
import { mayBindAhead } from './may-bind-ahead.ts'
import { createLaunchHints } from './launch-hints.ts'
import { creatorsOfProject, tellAhead } from './launch-ahead-projects.ts'

/**
 * The next attempt after `attempts` failed ones: 2 s, 4 s, 8 s ... later, at most ~8.5 minutes (TIMING_SECONDS), in
 * blocks of `blockSeconds` (1, 2, 4 ... 256 blocks of 2 s; 10, 20, 40 ... 2,560 blocks of 200 ms).
 */
export const retryBlockAfter = (block: bigint, attempts: number, blockSeconds: number): bigint => {
  const seconds = Math.min(TIMING_SECONDS.retryFirst * 2 ** Math.max(0, attempts - 1), TIMING_SECONDS.retryMax)
  return block + BigInt(blocksIn(seconds, blockSeconds))
}

export { creatorsOfProject, MAX_PROJECTS_AHEAD, tellAhead } from './launch-ahead-projects.ts'

export interface IntakeBlock {
  number: bigint
  hash: `0x${string}`
  timestamp: bigint
}

/** One block's launch work: call `due()`, then `scan()` each launch log in order, then `result()`. */
export interface IntakeSession {
  /** Confirmed candidates, and quarantined launches and logs whose retry is due at this block; returns what it bound. */
  due(): Promise<DetectedLaunch[]>
  /**
   * A log from a launchpad with a project waiting to launch on this chain; returns what it bound. `blockLogs`: the
   * block's logs as the sync delivered them, from which the launch's reads start before its receipt arrives.
   */
  scan(entry: Log, blockLogs?: readonly Log[]): Promise<DetectedLaunch[]>
  /**
   * Starts the receipts and reads ahead of the block's launch logs (of launchpads with a project waiting) at once,
   * before the block's other work (schedule refreshes); `scan` then finds them under way. Never throws.
   * `onLaunchAhead`: told each launch log's provisional candidate with the waiting projects its known facts do not
   * exclude (mayBindAhead), for the executor's reads ahead of the launch tick: a read hint, never a judgement.
   */
  prefetch(blockLogs: readonly Log[], onLaunchAhead?: (candidate: LaunchCandidate, slugs: string[]) => void): void
  /** The launches bound in this block and the candidate and quarantine records to write with it. */
  result(): { launches: DetectedLaunch[]; ops: StoreOperation[] }
}

export interface LaunchIntakeDeps {
  store: Store
  journal: Journal
  chain: ChainConfig
  client: PublicClient
  detector: LaunchDetector
  /** Lower-cased addresses of deployers shared by many creators (config `launches.sharedDeployers`). */
  sharedDeployers: ReadonlySet<string>
  log: Logger
  now: () => number
  /** The chain's seconds per block, to space retries in wall time (src/chain/block-seconds.ts). */
  blockSeconds: number
  /** The launchpads' known pool configurations on this chain (src/launchpads/known-launch-pools.ts); absent: not checked. */
  knownPools?: KnownLaunchPools
  /** The waiting projects held in memory (waiting-projects.ts); without it, read from the store once per block. */
  waiting?: WaitingProjects
}

const storeLaunch = (candidate: LaunchCandidate): StoredLaunch => ({ ...candidate, blockNumber: candidate.blockNumber.toString() })
const restoreLaunch = (stored: StoredLaunch): LaunchCandidate => ({ ...stored, blockNumber: BigInt(stored.blockNumber) })
const message = (error: unknown): string => (error instanceof Error ? error.message.split('\n')[0]! : String(error)).slice(0, 500)

/**
 * What launches mean for registered projects (launch authenticity, judge-launch.ts), and everything that must not stop
 * the chain's indexing: a launch log whose reads fail is quarantined and decoded again later; a bound launch whose
 * reads fail is quarantined and completed again later (backoff 2, 4, 8 ... seconds, counted in blocks); a launch that only touches a
 * project (rejected, awaiting confirmation, unsupported) is recorded for the operator. Every other launch, block and
 * tick goes on meanwhile.
 */
export function createLaunchIntake(deps: LaunchIntakeDeps) {
  const { store, journal, chain, client, detector, log, now } = deps
  // A launch log pushed over the socket starts its block's reads through the memo its session takes (launch-hints.ts).
  const hints = createLaunchHints({ store, chain, client, detector, waiting: deps.waiting })

  function begin(block: IntakeBlock, prefetchPrice: (paired: PairedAsset) => Promise<unknown>): IntakeSession {
    const launches: DetectedLaunch[] = []
    const ops: StoreOperation[] = []
    const bound = new Set<string>()
    // This block's reads of launches, shared between those started ahead of a receipt (by its pushed log's hint, or by
    // the block's prefetch) and the same ones after it.
    const reads = hints.memoOf(block)
    const waiting = new Map<Launchpad, Promise<ProjectRecord[]>>()
    const waitingOn = async (launchpad: Launchpad) => {
      let projects = waiting.get(launchpad)
      if (!projects) {
        projects = deps.waiting?.of(launchpad) ?? projectsIn(store, chain.key, 'waiting', launchpad)
        waiting.set(launchpad, projects)
      }
      return (await projects).filter((project) => !bound.has(project.slug))
    }

    const candidateRecord = (
      project: ProjectRecord,
      launch: LaunchIdentity,
      status: CandidateStatus,
      reason: string,
      extra: Partial<CandidateRecord> = {},
    ): CandidateRecord => ({
      slug: project.slug,
      chain: chain.key,
      launchpad: launch.launchpad,
      token: launch.token,
      deployer: launch.deployer,
      claimedCreators: launch.claimedCreators,
      name: launch.name,
      symbol: launch.symbol,
      txHash: launch.txHash,
      blockNumber: launch.blockNumber.toString(),
      blockHash: launch.blockHash,
      logIndex: launch.logIndex,
      launchedAt: launch.launchedAt * 1000,
      status,
      reason,
      attempts: 0,
      seenAt: now(),
      updatedAt: now(),
      ...extra,
    })

    /** Completes a bound launch; a failed read quarantines it with the launch kept for the retry. */
    async function bind(project: ProjectRecord, candidate: LaunchCandidate, stateAt: bigint, attempts: number): Promise<void> {
      bound.add(project.slug)
      try {
        launches.push(await detector.complete(project, candidate, stateAt, prefetchPrice, reads))
        // A bound launch keeps no candidate (one held for the operator's confirmation, a quarantined one retried). Deleted
        // whether or not one is stored: a LevelDB read to find out sat between the launch's reads and its record (issue
        // 23 item 3), and deleting a key that is not there writes nothing anyone reads (no listener follows candidate
        // deletions: console-feed.ts publishes puts).
        ops.push(journal.deleteCandidate({ chain: chain.key, slug: project.slug, token: candidate.token }))
      } catch (error) {
        bound.delete(project.slug)
        heldThisBlock.set(project.slug, { token: candidate.token, status: 'quarantined' })
        const tries = attempts + 1
        const reason = `reads failed (attempt ${tries}): ${message(error)}`
        log.warn({ slug: project.slug, token: candidate.token, err: error }, 'launch quarantined; retried with backoff')
        ops.push(
          journal.putCandidate(
            candidateRecord(project, candidate, 'quarantined', reason, {
              launch: storeLaunch(candidate),
              attempts: tries,
              retryAtBlock: retryBlockAfter(block.number, tries, deps.blockSeconds).toString(),
            }),
          ),
        )
      }
    }

    /**
     * The chain's launch candidates as the block found them (read once per block: `due` retries from them, the judge
     * holds projects by them; this block's own changes are ops written with the block). A block with a launch log starts
     * the read with the log's prefetch, so the judge after the receipt does not wait on LevelDB (issue 23 item 3).
     */
    let candidatesRead: Promise<CandidateRecord[]> | undefined
    const candidatesOfChain = () => (candidatesRead ??= journal.candidates(chain.key))

    /**
     * Launches that bound a project but could not be bought (unsupported, quarantined), by slug: then no other launch of
     * the project binds without the operator (judge-launch.ts `heldLaunch`). Read once per block; this block's own added.
     */
    let held: Promise<Map<string, NonNullable<LaunchBinding['heldLaunch']>>> | undefined
    const heldThisBlock = new Map<string, NonNullable<LaunchBinding['heldLaunch']>>()
    const heldLaunches = () =>
      (held ??= candidatesOfChain().then(
        (all) =>
          new Map(
            all
              .filter((c) => c.status === 'unsupported' || c.status === 'quarantined')
              .map((c) => [c.slug, { token: c.token, status: c.status as 'unsupported' | 'quarantined' }]),
          ),
      ))
    const heldLaunchOf = async (slug: string): Promise<LaunchBinding['heldLaunch']> => heldThisBlock.get(slug) ?? (await heldLaunches()).get(slug) ?? null

    /** Judges a decoded launch against every project waiting on its chain and launchpad. */
    async function judge(decoded: DecodedLaunch): Promise<void> {
      const identity = decoded.kind === 'launch' ? decoded.candidate : decoded.launch
      const facts = launchFacts(decoded, deps.knownPools)
      let boundTo: string | undefined
      for (const project of await waitingOn(identity.launchpad)) {
        const heldLaunch = await heldLaunchOf(project.slug)
        const judged: LaunchJudgement = judgeLaunch(
          {
            deployer: project.creatorAddress,
            expectedToken: project.expectedTokenAddress ?? null,
            expectedSymbol: project.expectedSymbol ?? null,
            expectedName: project.expectedName ?? null,
            expectedTokenOnly: project.launchMethod === 'dev_buy',
            // The coordinator the dev-buy worker recorded with the expected token: only its deployment binds.
            launcher: project.devBuy?.coordinator ?? null,
            heldLaunch,
          },
          facts,
          deps.sharedDeployers,
        )
        const stored = decoded.kind === 'launch' ? { launch: storeLaunch(decoded.candidate) } : {}
        const pendingView = judged.verdict === 'bound' ? undefined : underPendingBinding(project, facts, heldLaunch, deps.sharedDeployers)
        // A launch the binding in force rejects keeps that rejection unless the owner's change would bind it.
        const proposed = pendingView && (pendingView.rule === 'pending_owner_change' || judged.verdict === 'unrelated') ? pendingView : undefined
        if (proposed !== undefined) {
          // The owner's binding change is not in force yet (docs/owner-changes.md): its launch buys nothing now; it is
          // recorded, and bound once the change takes effect (owner-change-service.ts confirms it then).
          log.warn({ slug: project.slug, token: identity.token, reason: proposed.reason }, "launch of an owner's pending binding change not bound")
          ops.push(journal.putCandidate(candidateRecord(project, identity, proposed.status, proposed.reason, { ...stored, rule: proposed.rule })))
          continue
        }
        if (judged.verdict === 'unrelated') continue
        if (judged.verdict === 'bound' && boundTo !== undefined) {
          ops.push(journal.putCandidate(candidateRecord(project, identity, 'rejected', `the launch already bound project ${boundTo}`, stored)))
        } else if (judged.verdict === 'bound' && decoded.kind === 'unsupported') {
          log.warn({ slug: project.slug, token: identity.token, reason: decoded.reason }, 'the project launched in a way prebuy cannot buy')
          ops.push(journal.putCandidate(candidateRecord(project, identity, 'unsupported', decoded.reason)))
          heldThisBlock.set(project.slug, { token: identity.token, status: 'unsupported' })
          boundTo = project.slug
        } else if (judged.verdict === 'bound' && decoded.kind === 'launch') {
          boundTo = project.slug
          await bind(project, decoded.candidate, decoded.candidate.blockNumber, 0)
        } else if (judged.verdict !== 'bound') {
          log.warn(
            { slug: project.slug, token: identity.token, verdict: judged.verdict, rule: judged.rule, reason: judged.reason },
            'launch candidate not bound',
          )
          ops.push(journal.putCandidate(candidateRecord(project, identity, judged.verdict, judged.reason, { ...stored, rule: judged.rule })))
        }
      }
    }

    /** A launch whose event names no symbol, with the token's own when a waiting project needs it (launch-binding-facts.ts). */
    async function withTokenText(decoded: DecodedLaunch): Promise<DecodedLaunch> {
      const identity = decoded.kind === 'launch' ? decoded.candidate : decoded.launch
      return needsTokenText(identity, await waitingOn(identity.launchpad)) ? readTokenText(reads, decoded) : decoded
    }

    /** Decodes a log; a failed read quarantines the log itself (its project is not known yet). */
    async function decodeOrQuarantine(
      entry: Log,
      blockTimestamp: bigint,
      previous?: QuarantinedLog,
      ahead?: LaunchReadsAhead,
    ): Promise<DecodedLaunch | null | undefined> {
      try {
        const decoded = await detector.decode(entry, blockTimestamp, ahead)
        return decoded ? await withTokenText(decoded) : decoded
      } catch (error) {
        const attempts = (previous?.attempts ?? 0) + 1
        log.warn({ txHash: entry.transactionHash, logIndex: entry.logIndex, err: error }, 'launch log quarantined; decoded again with backoff')
        ops.push(
          journal.putQuarantinedLog({
            chain: chain.key,
            address: getAddress(entry.address),
            txHash: entry.transactionHash!,
            logIndex: entry.logIndex ?? 0,
            blockNumber: (entry.blockNumber ?? block.number).toString(),
            blockHash: entry.blockHash ?? block.hash,
            blockTimestamp: Number(blockTimestamp),
            error: message(error),
            attempts,
            retryAtBlock: retryBlockAfter(block.number, attempts, deps.blockSeconds).toString(),
            seenAt: previous?.seenAt ?? now(),
          }),
        )
        return undefined
      }
    }

    /**
     * What the launch's reads ahead of its receipt need (launch-reads-ahead.ts): the block's logs and whose code to read
     * with the receipt: the creators of the projects waiting on the launchpad, in force or proposed (owner changes).
     */
    async function readsAheadOf(entry: Log, blockLogs: readonly Log[]): Promise<LaunchReadsAhead | undefined> {
      const adapter = detector.adapterOf(entry)
      if (!adapter) return undefined
      const creators = (await waitingOn(adapter.id)).flatMap(creatorsOfProject)
      const projects = await waitingOn(adapter.id)
      const creatorsOf = (candidate: LaunchCandidate) => projects.filter((p) => mayBindAhead(p, candidate)).flatMap(creatorsOfProject)
      return { client: reads, blockLogs, creators, creatorsOf }
    }

    async function retryLog(entry: QuarantinedLog): Promise<void> {
      const receipt = await client.getTransactionReceipt({ hash: entry.txHash }).catch(() => undefined)
      const found = receipt?.logs.find((l) => l.logIndex === entry.logIndex)
      if (!found) {
        // A receipt the node cannot serve yet is retried; one whose block left the chain is dropped by the reorg handling.
        ops.push(
          journal.putQuarantinedLog({
            ...entry,
            attempts: entry.attempts + 1,
            retryAtBlock: retryBlockAfter(block.number, entry.attempts + 1, deps.blockSeconds).toString(),
          }),
        )
        return
      }
      ops.push(journal.deleteQuarantinedLog(entry))
      const decoded = await decodeOrQuarantine(found, BigInt(entry.blockTimestamp), entry)
      if (decoded) await judge(decoded)
    }

    async function retryCandidate(candidate: CandidateRecord): Promise<void> {
      const project = await store.sub.projects.get(candidate.slug)
      if (!project || project.launch !== null || bound.has(project.slug)) {
        ops.push(journal.putCandidate({ ...candidate, status: 'rejected', reason: 'the project launched (or left) meanwhile', updatedAt: now() }))
        return
      }
      if (!candidate.launch) {
        ops.push(journal.putCandidate({ ...candidate, status: 'unsupported', reason: `${candidate.reason}; nothing prebuy can buy`, updatedAt: now() }))
        return
      }
      // A launch bound later than its block is priced at this block's pool state: that is what a buy meets now.
      await bind(project, restoreLaunch(candidate.launch), block.number, candidate.attempts)
    }

    return {
      async due() {
        const before = launches.length
        for (const candidate of await candidatesOfChain()) {
          const retry = candidate.status === 'quarantined' && BigInt(candidate.retryAtBlock ?? '0') <= block.number
          if (candidate.status === 'confirmed' || retry) await retryCandidate(candidate)
        }
        for (const entry of await journal.quarantinedLogs(chain.key)) {
          if (BigInt(entry.retryAtBlock) <= block.number) await retryLog(entry)
        }
        return launches.slice(before)
      },
      async scan(entry, blockLogs) {
        const before = launches.length
        const ahead = blockLogs ? await readsAheadOf(entry, blockLogs) : undefined
        const decoded = await decodeOrQuarantine(entry, block.timestamp, undefined, ahead)
        if (decoded) await judge(decoded)
        return launches.slice(before)
      },
      prefetch(blockLogs, onLaunchAhead) {
        for (const entry of blockLogs) {
          const adapter = detector.adapterOf(entry)
          if (!adapter) continue
          void (async () => {
            if ((await waitingOn(adapter.id)).length === 0) return
            // The judge's held launches, read while the receipt is out.
            heldLaunches().catch(() => undefined)
            const ahead = await readsAheadOf(entry, blockLogs)
            if (!ahead) return
            const projects = onLaunchAhead ? await waitingOn(adapter.id) : []
            detector.readAhead(entry, block.timestamp, ahead, onLaunchAhead && tellAhead(projects, onLaunchAhead))
          })().catch(() => undefined)
        }
      },
      result: () => ({ launches, ops }),
    }
  }

  return Object.assign(begin, { hint: hints.hint, hintedBlocks: hints.hintedBlocks })
}

export type LaunchIntake = ReturnType<typeof createLaunchIntake>
