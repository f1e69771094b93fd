import type { OrderVesting } from '../../../domain/records.ts'
import { vestingState } from './vesting-schedule.ts'

/** A filled order's vesting position as GET /orders shows it (execution.vesting). Amounts atomic, times ISO 8601. */
export interface VestingView {
  contract: string
  positionId: string
  tokenAddress: string
  total: string
  start: string
  lockupEnd: string
  /** When everything has vested (lockupEnd + the vesting period). */
  vestingEnd: string
  /** The state at `asOf` (the chain's latest block time); null when the chain could not be read. */
  vested: string | null
  locked: string | null
  released: string | null
  releasable: string | null
  asOf: string | null
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/**
 * The view of a recorded position: the schedule from the record (what PositionCreated said), the state from the pure
 * rule at the chain's time with the released amount read from the contract (only the buyer's wallet releases, but
 * through the chain, so the chain says how much).
 */
export function vestingView(position: OrderVesting, state: { now: number; released: bigint } | null): VestingView {
  const schedule = { total: BigInt(position.total), start: position.start, lockupEnd: position.lockupEnd, vestingSeconds: position.vestingSeconds }
  const at = state ? vestingState(schedule, state.now, state.released) : null
  return {
    contract: position.contract,
    positionId: position.positionId,
    tokenAddress: position.tokenAddress,
    total: position.total,
    start: iso(position.start),
    lockupEnd: iso(position.lockupEnd),
    vestingEnd: iso(position.lockupEnd + position.vestingSeconds),
    vested: at ? at.vested.toString() : null,
    locked: at ? at.locked.toString() : null,
    released: state ? state.released.toString() : null,
    releasable: at ? at.releasable.toString() : null,
    asOf: state ? iso(state.now) : null,
  }
}
