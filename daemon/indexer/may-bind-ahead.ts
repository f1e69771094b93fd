import { zeroAddress } from 'viem'
import { normalizeTokenText } from '../../src/domain/launches/judge-launch.ts'
import { pendingOf } from '../../src/domain/owner-changes.ts'
import type { ProjectRecord } from '../../src/domain/records.ts'
import type { LaunchCandidate } from '../../src/launchpads/launchpad-adapter.ts'

/**
 * Whether a provisional candidate (before its receipt: no sender where the event names none, and a symbol only where the
 * event names one) may be a waiting project's launch, from the facts it already has: a deployer the event names must be
 * the project's creator (in force or proposed), a symbol it names must be the one recorded unless the project expects
 * exactly this token, and a dev-buy project only ever takes its expected token. Only what the executor reads ahead
 * depends on it (a wrong yes costs those reads, a wrong no the round they save); the binding is judged on the receipt.
 */
export function mayBindAhead(project: ProjectRecord, candidate: LaunchCandidate): boolean {
  const expected = project.expectedTokenAddress
  const expectsThis = expected !== undefined && expected !== null && expected.toLowerCase() === candidate.token.toLowerCase()
  if (project.launchMethod === 'dev_buy') return expectsThis
  const deployer = candidate.deployer.toLowerCase()
  if (deployer !== zeroAddress) {
    const proposed = pendingOf(project, 'launch_binding')?.binding.creatorAddress
    if (deployer !== project.creatorAddress.toLowerCase() && deployer !== proposed?.toLowerCase()) return false
  }
  const symbol = project.expectedSymbol
  if (!expectsThis && candidate.symbol !== null && symbol != null && normalizeTokenText(candidate.symbol) !== normalizeTokenText(symbol)) return false
  return true
}
