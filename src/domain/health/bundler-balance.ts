/** What the watcher says of a bundler's ETH balance. */
export type BundlerBalanceLevel = 'ok' | 'low' | 'unknown'

/**
 * A bundler is low once its ETH is under `lowWei` plus the L1 data fee a launch bundle would pay on top of its gas
 * (OP-stack chains; 0 elsewhere, see src/chain/l1-data-fee.ts): launch buys (the service pays their gas) may soon fail
 * to send.
 */
export const bundlerLevel = (balanceWei: bigint | null, lowWei: bigint, l1DataFeeWei = 0n): BundlerBalanceLevel =>
  balanceWei === null ? 'unknown' : balanceWei < lowWei + l1DataFeeWei ? 'low' : 'ok'

/** What to log after a check: a warning when it turns low (and again every `repeatMs` while low), a note when it recovers. */
export type BundlerAlert = 'warn_low' | 'recovered' | null

/**
 * The watcher's log decision for one chain, from the previous level and when it last warned. Pure: the daemon reads the
 * balance on a timer and logs what this says.
 */
export function bundlerAlert(
  previous: BundlerBalanceLevel,
  next: BundlerBalanceLevel,
  lastWarnedAt: number | null,
  now: number,
  repeatMs: number,
): BundlerAlert {
  if (next === 'low') return previous !== 'low' || lastWarnedAt === null || now - lastWarnedAt >= repeatMs ? 'warn_low' : null
  if (next === 'ok' && previous === 'low') return 'recovered'
  return null
}
