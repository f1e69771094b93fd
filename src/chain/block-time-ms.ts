/**
 * A block's time in milliseconds, for latency figures only (how long after its block a launch log reached us).
 *
 * Base since Denim (2026-11-05) makes a block every 200 ms while `block.timestamp` still counts whole seconds (about
 * five blocks share one); its RPC adds optional millisecond fields: `timestampMs` on blocks and `blockTimestampMs` on
 * logs and receipts (../shared/facts/base-today.md, from docs.base.org/base-chain/specs/upgrades/denim/overview).
 * Where present they are used; elsewhere (anvil, other chains) the whole second is all there is, and the figure says
 * so (`precise: false`). Fee schedules never use this: the contracts see `block.timestamp`, whole seconds.
 */
export interface BlockTimeMs {
  ms: number
  /** true: from the RPC's millisecond field; false: the whole-second timestamp times 1000 (up to a second early). */
  precise: boolean
}

/** A quantity as an RPC or viem hands it over: a hex string (viem keeps unknown fields raw), a bigint or a number. */
export function quantityOf(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) return Number(BigInt(value))
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) return Number(value)
  return undefined
}

export function blockTimeMs(block: { timestamp: bigint; timestampMs?: unknown; blockTimestampMs?: unknown }): BlockTimeMs {
  const ms = quantityOf(block.timestampMs) ?? quantityOf(block.blockTimestampMs)
  // A millisecond field that disagrees with the whole second is not trusted (another unit, a node's bug).
  if (ms !== undefined && Math.floor(ms / 1000) === Number(block.timestamp)) return { ms, precise: true }
  return { ms: Number(block.timestamp) * 1000, precise: false }
}
