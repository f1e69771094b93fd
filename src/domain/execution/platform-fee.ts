/** The platform fee: 3% of the tokens each buy receives, in basis points. */
export const PLATFORM_FEE_BPS = 300n
const BPS = 10_000n

export interface FeeSplit {
  /** To the configured fee recipient. */
  fee: bigint
  /** Stays in the buyer's wallet. */
  buyer: bigint
}

/** Splits the tokens a buy received; the fee is rounded down so it never exceeds 3%, and the parts always add up. */
export function splitPlatformFee(tokensReceived: bigint, feeBps: bigint = PLATFORM_FEE_BPS): FeeSplit {
  if (tokensReceived < 0n) throw new RangeError('tokensReceived must not be negative')
  if (feeBps < 0n || feeBps > BPS) throw new RangeError('feeBps must be within 0..10000')
  const fee = (tokensReceived * feeBps) / BPS
  return { fee, buyer: tokensReceived - fee }
}
