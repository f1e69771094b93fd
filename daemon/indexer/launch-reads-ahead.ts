import { type Address, type Log, type PublicClient, zeroAddress } from 'viem'
import type { LaunchCandidate, LaunchContext, LaunchpadAdapter } from '../../src/launchpads/launchpad-adapter.ts'
import type { LaunchAttribution } from '../../src/launchpads/launch-deployer.ts'
import { readTokenText } from './launch-binding-facts.ts'

/** What the indexer knows of a launch log's block before its transaction's receipt (launch-intake.ts gives it). */
export interface LaunchReadsAhead {
  /** The block's memo client (memo-reads.ts): every read below is made through it, so the later ones share them. */
  client: PublicClient
  /** The block's logs as the sync delivered them (the launch emitters' and the PoolManager's, `Initialize` included). */
  blockLogs: readonly Log[]
  /** Whose code at the launch block is read with the receipt: the creators of the projects waiting on the launchpad. */
  creators: readonly Address[]
  /**
   * Of those, the creators of the projects a provisional candidate may bind (launch-intake.ts `mayBindAhead`: a deployer
   * or symbol the event names excludes the others). Absent: the deployer the candidate names, if one of `creators`.
   */
  creatorsOf?: (candidate: LaunchCandidate) => readonly Address[]
}

/**
 * Stands in for the sender before the receipt says who it is. Only the reads ahead see it: no judgement is ever made
 * on a candidate decoded with it (the launch is judged on the receipt's decoding, launch-intake.ts).
 */
const UNKNOWN_SENDER: LaunchAttribution = {
  deployer: zeroAddress,
  shared: 'not known before the receipt',
  txFrom: zeroAddress,
  txFromShared: null,
  otherOperations: [],
}

/**
 * Issue 23 item 3: the reads a launch's record needs start with its receipt instead of after it. Returns at once;
 * everything runs in the background and nothing it finds is used as such:
 * - the code of each waiting creator at the launch block (the attribution reads the sender's code, readLaunchAttribution:
 *   when the receipt names one of them as the sender, its code is already there: same address, same block);
 * - a provisional decoding of the log by its adapter over the block's own logs of the same transaction (the launch
 *   event, the PoolManager's `Initialize`, the factory's events) and an unknown sender, then, for a candidate, the
 *   completion's reads (fee schedule, token metadata, the pool's state and bridge fees at the launch block) and the
 *   token's name and symbol where its event names none.
 * Every one goes through the block's memo client: the decoding on the receipt and the completion after the judgement
 * make their own reads as before, and those asked with the same arguments wait on these answers instead of asking the
 * node again. So what the indexer decides is exactly what it decided without the reads ahead (same questions, same
 * blocks, the real receipt's logs and sender; authenticity untouched, docs/launchpads.md); a read the provisional
 * decoding got wrong (a field only the receipt's other logs give: a Doppler hook's FeeScheduleSet, a 4337 sender) is
 * simply not shared, and asked after the receipt as before.
 */
export function readAheadOfReceipt(
  adapter: LaunchpadAdapter,
  entry: Log,
  blockTimestamp: bigint,
  ahead: LaunchReadsAhead,
  completionReads: (candidate: LaunchCandidate) => Promise<unknown>,
  /**
   * Told the first provisional candidate (the adapter's `candidateAhead`, else its decoding over the block's logs): what
   * the executor's reads ahead of the launch tick are asked from (chain-indexer.ts `launch_ahead`). A read hint only.
   */
  onCandidate?: (candidate: LaunchCandidate) => void,
): void {
  const { transactionHash, blockNumber, blockHash } = entry
  if (transactionHash === null || blockNumber === null || blockHash === null) return
  const ignore = () => undefined
  // Same argument shape as readLaunchAttribution's read, so the memo shares it. Once: when a provisional decoding gives a
  // candidate before any read, only the creators of the projects it may bind (a deployer the event names, Zora's
  // `caller` or Clanker v4's `msgSender`, is the sender of a launch sent by the creator's own account; a symbol it names,
  // Clanker's, excludes the projects that recorded another), else every waiting creator's (20 creators waiting: 20
  // requests in the receipt's round). A sender not read ahead is read after the receipt, as before: timing only.
  let codesRead = false
  const readCodes = (candidate?: LaunchCandidate) => {
    if (codesRead) return
    codesRead = true
    const named = candidate && candidate.deployer.toLowerCase() !== zeroAddress ? candidate.deployer.toLowerCase() : undefined
    const wanted = candidate && ahead.creatorsOf ? ahead.creatorsOf(candidate) : ahead.creators.filter((c) => named === undefined || c.toLowerCase() === named)
    for (const address of new Set(wanted.map((c) => c.toLowerCase() as Address))) ahead.client.getCode({ address, blockNumber }).catch(ignore)
  }
  // A decoding that needs no read ends within the microtasks before this; one that reads must not hold the codes back.
  setImmediate(() => readCodes())
  const ctx: LaunchContext = {
    client: ahead.client,
    txHash: transactionHash,
    blockNumber,
    blockHash,
    blockTimestamp: Number(blockTimestamp),
    txFrom: zeroAddress,
    attribution: UNKNOWN_SENDER,
    txLogs: ahead.blockLogs.filter((l) => l.transactionHash === transactionHash),
  }
  // A decoding that waits on a read first (Doppler) would start the completion's reads a round late: its adapter's
  // candidate from the logs alone starts them now (the memo shares the ones the decodings below ask again).
  const early = adapter.candidateAhead?.(entry, ctx)
  let told = false
  const tell = (candidate: LaunchCandidate) => {
    if (told || !onCandidate) return
    told = true
    onCandidate(candidate)
  }
  if (early) {
    readCodes(early)
    tell(early)
    completionReads(early).catch(ignore)
    if (early.symbol === null) readTokenText(ahead.client, { kind: 'launch', candidate: early }).catch(ignore)
  }
  void (async () => {
    const decoded = await adapter.decodeLaunch(entry, ctx)
    if (decoded?.kind !== 'launch') return readCodes()
    readCodes(decoded.candidate)
    tell(decoded.candidate)
    completionReads(decoded.candidate).catch(ignore)
    if (decoded.candidate.symbol === null) readTokenText(ahead.client, decoded).catch(ignore)
  })().catch(() => readCodes())
}
