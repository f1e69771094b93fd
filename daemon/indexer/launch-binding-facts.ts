import { erc20Abi, type PublicClient } from 'viem'
import { judgeLaunch, type LaunchBinding, type LaunchFacts, type LaunchRule } from '../../src/domain/launches/judge-launch.ts'
import { type KnownLaunchPools, unknownPoolReason } from '../../src/domain/launches/known-launch-pools.ts'
import { pendingOf } from '../../src/domain/owner-changes.ts'
import type { ProjectRecord } from '../../src/domain/records.ts'
import type { DecodedLaunch, LaunchIdentity } from '../../src/launchpads/launchpad-adapter.ts'

/** The judge's view of a launch (judge-launch.ts): its identity, with its pool checked against the launchpad's known configurations. */
export function launchFacts(decoded: DecodedLaunch, knownPools: KnownLaunchPools | undefined): LaunchFacts {
  const identity = decoded.kind === 'launch' ? decoded.candidate : decoded.launch
  if (decoded.kind !== 'launch' || !knownPools) return identity
  const c = decoded.candidate
  const unknownPool = unknownPoolReason(
    c.launchpad,
    { hook: c.poolKey.hooks, paired: c.paired, feeSources: c.feeSources, supplySplit: c.supplySplit },
    knownPools,
  )
  return unknownPool === undefined ? identity : { ...identity, unknownPool }
}

/**
 * What the owner's pending binding change (not in force: docs/owner-changes.md) makes of a launch the binding in force
 * does not bind: `pending_owner_change` when it would bind it (it buys nothing yet; owner-change-service.ts confirms it
 * once the change takes effect); or its own verdict (a squat of the proposed address, say), with the change named;
 * undefined: the change ignores it too.
 */
export function underPendingBinding(
  project: ProjectRecord,
  launch: LaunchFacts,
  heldLaunch: LaunchBinding['heldLaunch'],
  sharedDeployers: ReadonlySet<string>,
): { rule: LaunchRule; status: 'rejected' | 'awaiting_confirmation'; reason: string } | undefined {
  const pending = pendingOf(project, 'launch_binding')
  if (!pending) return undefined
  const binding: LaunchBinding = {
    deployer: pending.binding.creatorAddress,
    expectedToken: pending.binding.expectedTokenAddress,
    // A proposal recorded before symbols were: the symbol in force stays.
    expectedSymbol: pending.binding.expectedSymbol === undefined ? (project.expectedSymbol ?? null) : pending.binding.expectedSymbol,
    expectedName: pending.binding.expectedName === undefined ? (project.expectedName ?? null) : pending.binding.expectedName,
    heldLaunch,
  }
  const judged = judgeLaunch(binding, launch, sharedDeployers)
  const proposedAt = new Date(pending.proposedAt).toISOString()
  if (judged.verdict === 'unrelated') return undefined
  if (judged.verdict !== 'bound') {
    return { rule: judged.rule, status: judged.verdict, reason: `under the owner's binding change proposed at ${proposedAt} (not in force): ${judged.reason}` }
  }
  const when =
    pending.effectiveAt === null
      ? "awaiting the operator's confirmation"
      : `confirmed, in force from ${new Date(pending.effectiveAt).toISOString()} (notice to the buyers)`
  return { rule: 'pending_owner_change', status: 'rejected', reason: `matches the owner's binding change proposed at ${proposedAt}, not in force: ${when}` }
}

/**
 * Whether a launch whose event names no symbol (Doppler's Create) needs the token's own name and symbol: a project
 * waiting on its launchpad is registered with its deployer and a symbol (the second fact, judge-launch.ts). Only then
 * are they read, so the launches of everyone else cost no read.
 */
export const needsTokenText = (identity: LaunchIdentity, waiting: readonly ProjectRecord[]): boolean =>
  identity.symbol === null && waiting.some((p) => p.expectedSymbol && p.creatorAddress.toLowerCase() === identity.deployer.toLowerCase())

/** The launch with its token's name and symbol, read at the launch block; a failed read throws (the log is quarantined and retried). */
export async function readTokenText(client: PublicClient, decoded: DecodedLaunch): Promise<DecodedLaunch> {
  const identity = decoded.kind === 'launch' ? decoded.candidate : decoded.launch
  const read = (functionName: 'name' | 'symbol') =>
    client.readContract({ address: identity.token, abi: erc20Abi, functionName, blockNumber: identity.blockNumber })
  const [name, symbol] = await Promise.all([read('name'), read('symbol')])
  return decoded.kind === 'launch'
    ? { ...decoded, candidate: { ...decoded.candidate, name, symbol } }
    : { ...decoded, launch: { ...decoded.launch, name, symbol } }
}
