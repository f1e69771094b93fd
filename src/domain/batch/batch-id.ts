import { type Hash, keccak256, stringToHex } from 'viem'

/**
 * A batch's idempotency key (PrebuyBatchBuyer executes an id once, ever, and it is the router's order id of the one
 * swap): deterministic from what the batch is, the project, its launch block and the batch's place in the launch's
 * sequence, and journaled before the batch is sent, so after a crash the same id is looked up on chain.
 */
export const batchIdOf = (slug: string, launchBlock: bigint | string, sequence: number): Hash =>
  keccak256(stringToHex(`prebuy:batch:${slug}:${launchBlock}:${sequence}`))
