import type { ChainKey } from '../chain/chain-keys.ts'
import { padNumber } from '../store/cursor.ts'
import { del, put, type Store, type StoreOperation, type Sublevel } from '../store/open-store.ts'
import { readAll } from '../store/paginate.ts'
import { MAX_DELTAS_IN_A_ROW } from '../domain/execution/decision-delta.ts'
import { materializeDecisions, type StoredDecision } from './materialize-decisions.ts'
import type {
  CandidateRecord,
  FillRecord,
  InFlightExecution,
  IndexerCheckpoint,
  LaunchRecord,
  OrderEvent,
  PriceTick,
  QuarantinedLog,
  TickDecision,
} from './journal-records.ts'

const BLOCK_WIDTH = 20
const TIME_WIDTH = 15
const INDEX_WIDTH = 8

/**
 * The indexer's and executor's records: their own sublevels on the shared LevelDB, written through the store's batch
 * so one block's (or one tick's) effects, order transitions included, land in one atomic write.
 */
export interface Journal {
  readonly sub: {
    /** chain -> IndexerCheckpoint */
    checkpoints: Sublevel<IndexerCheckpoint>
    /** `${chain}!${token}` -> LaunchRecord */
    launches: Sublevel<LaunchRecord>
    /** slug -> `${chain}!${token}` */
    launchesBySlug: Sublevel<string>
    /** `${chain}!${block}!${token}` -> slug: what a reorg above a block must revert */
    launchesByBlock: Sublevel<string>
    /** `${slug}!${block}!${logIndex}` -> PriceTick */
    ticks: Sublevel<PriceTick>
    /** `${chain}!${block}!${slug}!${logIndex}` -> tick key */
    ticksByBlock: Sublevel<string>
    /** `${slug}!${time}!${seq}` -> TickDecision */
    decisions: Sublevel<TickDecision>
    /** `${keyId}!${slug}!${time}!${seq}` -> OrderEvent */
    orderEvents: Sublevel<OrderEvent>
    /** `${chain}!${keyId}!${slug}` -> InFlightExecution */
    inFlight: Sublevel<InFlightExecution>
    /** `${chain}!${block}!${keyId}!${slug}` -> FillRecord: the buys a reorg above a block may have undone */
    fillsByBlock: Sublevel<FillRecord>
    /** `${chain}!${slug}!${token}` -> CandidateRecord: launches that touched a project without binding it */
    candidates: Sublevel<CandidateRecord>
    /** `${chain}!${block}!${txHash}!${logIndex}` -> QuarantinedLog: launch logs that could not be decoded yet */
    quarantinedLogs: Sublevel<QuarantinedLog>
  }
  putCheckpoint(checkpoint: IndexerCheckpoint): StoreOperation
  getCheckpoint(chain: ChainKey): Promise<IndexerCheckpoint | undefined>
  putLaunch(launch: LaunchRecord): StoreOperation[]
  deleteLaunch(launch: LaunchRecord): StoreOperation[]
  getLaunchBySlug(slug: string): Promise<LaunchRecord | undefined>
  /** Launches on a chain whose block is above `blockNumber` (what a reorg to that ancestor invalidates). */
  launchesAbove(chain: ChainKey, blockNumber: bigint): Promise<LaunchRecord[]>
  putTick(tick: PriceTick): StoreOperation[]
  /** Delete ops for every tick on a chain above a block. */
  ticksAboveOps(chain: ChainKey, blockNumber: bigint): Promise<StoreOperation[]>
  latestTick(slug: string): Promise<PriceTick | undefined>
  ticksOf(slug: string): Promise<PriceTick[]>
  /** A project's latest `limit` ticks, oldest first. */
  recentTicks(slug: string, limit: number): Promise<PriceTick[]>
  /** The operation's `key` is what a later quiet record names as its base (`TickDecision.delta`). */
  putDecision(decision: TickDecision): StoreOperation
  /** Every decision of a project, oldest first, whole (a delta record made whole: materialize-decisions.ts). */
  decisionsOf(slug: string): Promise<TickDecision[]>
  /** The project's newest decision, whole. */
  latestDecision(slug: string): Promise<TickDecision | undefined>
  putOrderEvent(event: OrderEvent): StoreOperation
  orderEventsOf(keyId: string, slug?: string): Promise<OrderEvent[]>
  putInFlight(entry: InFlightExecution): StoreOperation
  deleteInFlight(entry: Pick<InFlightExecution, 'chain' | 'keyId' | 'slug'>): StoreOperation
  inFlight(chain?: ChainKey): Promise<InFlightExecution[]>
  putFill(fill: FillRecord): StoreOperation
  deleteFill(fill: FillRecord): StoreOperation
  /** Fills mined on a chain above a block. */
  fillsAbove(chain: ChainKey, blockNumber: bigint): Promise<FillRecord[]>
  putCandidate(candidate: CandidateRecord): StoreOperation
  deleteCandidate(candidate: { chain: ChainKey; slug: string; token: string }): StoreOperation
  getCandidate(chain: ChainKey, slug: string, token: string): Promise<CandidateRecord | undefined>
  /** Every candidate (of a chain). */
  candidates(chain?: ChainKey): Promise<CandidateRecord[]>
  putQuarantinedLog(entry: QuarantinedLog): StoreOperation
  deleteQuarantinedLog(entry: QuarantinedLog): StoreOperation
  /** Every quarantined launch log (of a chain), oldest block first. */
  quarantinedLogs(chain?: ChainKey): Promise<QuarantinedLog[]>
}

export function createJournal(store: Store): Journal {
  const sub: Journal['sub'] = {
    checkpoints: store.sublevel('journal.checkpoints'),
    launches: store.sublevel('journal.launches'),
    launchesBySlug: store.sublevel('journal.launchesBySlug'),
    launchesByBlock: store.sublevel('journal.launchesByBlock'),
    ticks: store.sublevel('journal.ticks'),
    ticksByBlock: store.sublevel('journal.ticksByBlock'),
    decisions: store.sublevel('journal.decisions'),
    orderEvents: store.sublevel('journal.orderEvents'),
    inFlight: store.sublevel('journal.inFlight'),
    fillsByBlock: store.sublevel('journal.fillsByBlock'),
    candidates: store.sublevel('journal.candidates'),
    quarantinedLogs: store.sublevel('journal.quarantinedLogs'),
  }
  // Several writes in one millisecond keep their order and never overwrite each other.
  let seq = 0
  const nextSeq = () => padNumber(BigInt(seq++ % 10 ** INDEX_WIDTH), INDEX_WIDTH)
  const launchKey = (l: Pick<LaunchRecord, 'chain' | 'token'>) => `${l.chain}!${l.token.toLowerCase()}`
  const blockPart = (n: bigint | string) => padNumber(BigInt(n), BLOCK_WIDTH)
  const fillKey = (f: FillRecord) => `${f.chain}!${blockPart(f.blockNumber)}!${f.keyId}!${f.slug}`
  const candidateKey = (c: { chain: ChainKey; slug: string; token: string }) => `${c.chain}!${c.slug}!${c.token.toLowerCase()}`
  const quarantinedKey = (q: QuarantinedLog) => `${q.chain}!${blockPart(q.blockNumber)}!${q.txHash}!${padNumber(BigInt(q.logIndex), INDEX_WIDTH)}`
  const tickKey = (t: PriceTick) => `${t.slug}!${blockPart(t.blockNumber)}!${padNumber(BigInt(t.logIndex + 1), INDEX_WIDTH)}`

  const getOptional = async <V>(sublevel: Sublevel<V>, key: string): Promise<V | undefined> => {
    const value = await sublevel.get(key)
    return value === undefined ? undefined : (value as V)
  }

  return {
    sub,
    putCheckpoint: (checkpoint) => put(sub.checkpoints, checkpoint.chain, checkpoint),
    getCheckpoint: (chain) => getOptional(sub.checkpoints, chain),
    putLaunch: (launch) => [
      put(sub.launches, launchKey(launch), launch),
      put(sub.launchesBySlug, launch.slug, launchKey(launch)),
      put(sub.launchesByBlock, `${launch.chain}!${blockPart(launch.blockNumber)}!${launch.token.toLowerCase()}`, launch.slug),
    ],
    deleteLaunch: (launch) => [
      del(sub.launches, launchKey(launch)),
      del(sub.launchesBySlug, launch.slug),
      del(sub.launchesByBlock, `${launch.chain}!${blockPart(launch.blockNumber)}!${launch.token.toLowerCase()}`),
    ],
    async getLaunchBySlug(slug) {
      const key = await getOptional(sub.launchesBySlug, slug)
      return key === undefined ? undefined : getOptional(sub.launches, key)
    },
    async launchesAbove(chain, blockNumber) {
      const out: LaunchRecord[] = []
      for await (const key of sub.launchesByBlock.keys({ gt: `${chain}!${blockPart(blockNumber)}\xff`, lt: `${chain}!\xff` })) {
        const token = key.split('!')[2]!
        const launch = await getOptional(sub.launches, `${chain}!${token}`)
        if (launch) out.push(launch)
      }
      return out
    },
    putTick: (tick) => [
      put(sub.ticks, tickKey(tick), tick),
      put(sub.ticksByBlock, `${tick.chain}!${blockPart(tick.blockNumber)}!${tick.slug}!${tick.logIndex + 1}`, tickKey(tick)),
    ],
    async ticksAboveOps(chain, blockNumber) {
      const ops: StoreOperation[] = []
      for await (const [key, value] of sub.ticksByBlock.iterator({ gt: `${chain}!${blockPart(blockNumber)}\xff`, lt: `${chain}!\xff` })) {
        ops.push(del(sub.ticksByBlock, key), del(sub.ticks, value as string))
      }
      return ops
    },
    async latestTick(slug) {
      for await (const value of sub.ticks.values({ gte: `${slug}!`, lt: `${slug}!\xff`, reverse: true, limit: 1 })) return value as PriceTick
      return undefined
    },
    ticksOf: async (slug) => (await readAll(sub.ticks, `${slug}!`)).map((e) => e.value),
    async recentTicks(slug, limit) {
      const out: PriceTick[] = []
      for await (const value of sub.ticks.values({ gte: `${slug}!`, lt: `${slug}!\xff`, reverse: true, limit })) out.push(value as PriceTick)
      return out.reverse()
    },
    putDecision: (decision) => put(sub.decisions, `${decision.slug}!${padNumber(BigInt(decision.at), TIME_WIDTH)}!${nextSeq()}`, decision),
    decisionsOf: async (slug) => materializeDecisions(await readAll(sub.decisions, `${slug}!`)),
    async latestDecision(slug) {
      // The newest record, then its bases by key back to a whole record (a quiet tick's may be a delta): a cumulative
      // delta's base is the last whole record, which may lie many records back (decision-delta.ts). The writer's chains
      // are at most MAX_DELTAS_IN_A_ROW long; a longer one (a store edited by hand) stops at 4 times that, handed out
      // partial (materialize-decisions.ts), as is a record whose base is missing.
      const newestFirst: StoredDecision[] = []
      for await (const [key, value] of sub.decisions.iterator({ gte: `${slug}!`, lt: `${slug}!\xff`, reverse: true, limit: 1 })) {
        newestFirst.push({ key, value: value as TickDecision })
      }
      const seen = new Set(newestFirst.map((entry) => entry.key))
      for (let base = newestFirst[0]?.value.delta?.base; base !== undefined && !seen.has(base) && seen.size <= 4 * MAX_DELTAS_IN_A_ROW; ) {
        const value = await getOptional(sub.decisions, base)
        if (value === undefined) break
        newestFirst.push({ key: base, value })
        seen.add(base)
        base = value.delta?.base
      }
      return materializeDecisions(newestFirst.reverse()).at(-1)
    },
    putOrderEvent: (event) => put(sub.orderEvents, `${event.keyId}!${event.slug}!${padNumber(BigInt(event.at), TIME_WIDTH)}!${nextSeq()}`, event),
    orderEventsOf: async (keyId, slug) => (await readAll(sub.orderEvents, slug === undefined ? `${keyId}!` : `${keyId}!${slug}!`)).map((e) => e.value),
    putInFlight: (entry) => put(sub.inFlight, `${entry.chain}!${entry.keyId}!${entry.slug}`, entry),
    deleteInFlight: (entry) => del(sub.inFlight, `${entry.chain}!${entry.keyId}!${entry.slug}`),
    inFlight: async (chain) => (await readAll(sub.inFlight, chain === undefined ? '' : `${chain}!`)).map((e) => e.value),
    putFill: (fill) => put(sub.fillsByBlock, fillKey(fill), fill),
    deleteFill: (fill) => del(sub.fillsByBlock, fillKey(fill)),
    putCandidate: (candidate) => put(sub.candidates, candidateKey(candidate), candidate),
    deleteCandidate: (candidate) => del(sub.candidates, candidateKey(candidate)),
    getCandidate: (chain, slug, token) => getOptional(sub.candidates, candidateKey({ chain, slug, token })),
    candidates: async (chain) => (await readAll(sub.candidates, chain === undefined ? '' : `${chain}!`)).map((e) => e.value),
    putQuarantinedLog: (entry) => put(sub.quarantinedLogs, quarantinedKey(entry), entry),
    deleteQuarantinedLog: (entry) => del(sub.quarantinedLogs, quarantinedKey(entry)),
    quarantinedLogs: async (chain) => (await readAll(sub.quarantinedLogs, chain === undefined ? '' : `${chain}!`)).map((e) => e.value),
    async fillsAbove(chain, blockNumber) {
      const out: FillRecord[] = []
      for await (const value of sub.fillsByBlock.values({ gt: `${chain}!${blockPart(blockNumber)}\xff`, lt: `${chain}!\xff` })) out.push(value as FillRecord)
      return out
    },
  }
}
