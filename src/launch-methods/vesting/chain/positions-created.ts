import { getAddress, parseEventLogs, type Address, type Log } from 'viem'
import type { ChainKey } from '../../../chain/chain-keys.ts'
import type { OrderVesting } from '../../../domain/records.ts'
import { VESTING_ABI } from './vesting-contract.ts'

/**
 * The vesting positions a transaction created, by beneficiary wallet: the PositionCreated logs of our vesting contract
 * only (a token could emit look-alike events). A locked OTC settlement and a locked dev buy create one per buyer.
 */
export function positionsCreated(chain: ChainKey, logs: readonly Log[], vesting: Address | null): Map<string, OrderVesting> {
  const positions = new Map<string, OrderVesting>()
  if (vesting === null) return positions
  const ours = logs.filter((l) => getAddress(l.address) === getAddress(vesting))
  for (const entry of parseEventLogs({ abi: VESTING_ABI, logs: ours as Log[], eventName: 'PositionCreated' })) {
    const args = entry.args as Record<string, unknown>
    positions.set(getAddress(args.beneficiary as Address), {
      chain,
      contract: getAddress(entry.address),
      positionId: (args.id as bigint).toString(),
      tokenAddress: getAddress(args.token as Address),
      total: (args.total as bigint).toString(),
      start: Number(args.start as bigint),
      lockupEnd: Number(args.lockupEnd as bigint),
      vestingSeconds: Number(args.vestingSeconds as bigint),
    })
  }
  return positions
}
