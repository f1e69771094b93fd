import type { ExecutableOrder } from '../../../src/domain/execution/executable-order.ts'

/** An active order `o<i>` of wallet i + 1 (an hour to live): the clearing's input in the batch property tests. */
export const executableOrderOf = (i: number, maxSpend: bigint, limitFdv: bigint | null): ExecutableOrder => ({
  id: `o${i}`,
  wallet: `0x${(i + 1).toString(16).padStart(40, '0')}`,
  status: 'active',
  maxSpend,
  limitFdv,
  expiresInMs: 3_600_000,
})
