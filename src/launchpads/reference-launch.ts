import type { DevBuyLaunch } from '../launch-methods/dev-buy/domain/dev-buy-eligibility.ts'
import type { Launchpad } from '../domain/records.ts'
import { clankerProtocolFeeOf, clankerTotalFeeFraction } from '../pricing/fee-fraction.ts'
import { clankerLaunchPool } from './clanker/clanker-launch-pool.ts'
import type { FeeSchedule } from '../pricing/fee-schedule.ts'
import { fdvUsdAtomic } from '../pricing/fdv.ts'
import type { Fraction } from '../pricing/fraction.ts'
import { CLANKER_MAX_MEV_MODULE_DELAY } from '../pricing/schedules/clanker-auction.ts'
import { CLANKER_V5_SNIPER } from '../pricing/schedules/clanker-v5.ts'
import { tokenPriceInPaired } from '../pricing/sqrt-price.ts'
import { getSqrtPriceAtTick } from '../pricing/v4/tick-math.ts'

/**
 * The launch fees each launchpad applies when the launcher keeps its defaults: what the launch simulator places an
 * open-market order book on before the real launch exists (after it, the indexer reads the real schedule). The devnet
 * launchpads deploy with the same numbers (DEVNET_LAUNCH_DEFAULTS).
 * - Clanker v4.1 on Base: the SniperAuctionV2 MEV module with the SDK's default fee config, 666,777 -> 41,673 pips over
 *   15 s, and the static hook's 1% LP fee on buys (clanker-devco/clanker-sdk `src/constants.ts`,
 *   `src/config/clankerTokenV4.ts`); at launch block N the module sets its first auction at N+2 and counts the decay
 *   from the launch's time (clanker-devco/v4-contracts `src/mev-modules/ClankerSniperAuctionV2.sol`).
 * - Doppler as Bankr launches it: 80% -> 1.2% over 10 s, linear per second (a third-party write-up, unverified:
 *   ../shared/facts/launchpads.md); swaps allowed from the start.
 * - Zora coins v4: 99% -> 1% over 10 s, linear per second from the coin's creation (ourzora/zora-protocol
 *   `packages/coins/src/hooks/ZoraV4CoinHook.sol`, `libs/CoinConstants.sol`).
 * - Clanker v5: a buy tax the creator sets between 1% and 10% and an optional sniper fee, 99% falling to the tax over
 *   the first 20 s (clanker-devco/DOCS general/token-deployments.md). No default is documented: chosen the worst a
 *   buyer can meet, the sniper fee on and the 10% maximum tax (the simulator then never shows a cap below a real v5
 *   launch's), the curve linear (its shape is undocumented: schedules/clanker-v5.ts).
 */
export const REFERENCE_LAUNCH_FEES = {
  clanker: { startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15, lpFee: 10_000 },
  doppler: { startFee: 800_000, endFee: 12_000, durationSeconds: 10 },
  zora: { startFee: 990_000, endFee: 10_000, durationSeconds: 10 },
  clanker_v5: { buyTax: 100_000, sniperStartFee: CLANKER_V5_SNIPER.startFee, sniperSeconds: CLANKER_V5_SNIPER.seconds },
} as const

/** Blocks between a Clanker launch and its first auction block (ClankerSniperAuctionV2: N+2). */
export const CLANKER_FIRST_AUCTION_BLOCKS = 2n

/** Clanker v4's token supply: 100 billion, 18 decimals (clanker-devco/v4-contracts `src/Clanker.sol`, TOKEN_SUPPLY). */
export const CLANKER_TOKEN_SUPPLY = 100_000_000_000n * 10n ** 18n

/**
 * Clanker's default pool (clanker-sdk `src/constants.ts` and `src/config/clankerTokenV4.ts`): the starting tick
 * -230,400 as if the token were currency0 (~9.87 ETH for the whole supply) on WETH, tick spacing 200, and the Standard
 * position, one range from the start to -120,000 holding the whole pool supply.
 */
export const CLANKER_DEFAULT_POOL = {
  tickIfToken0IsClanker: -230_400,
  tickSpacing: 200,
  positions: [{ tickLower: -230_400, tickUpper: -120_000, bps: 10_000 }],
} as const

const percentOfPips = (pips: number): string => `${pips / 10_000}%`

/** A one-line description of the reference launch, for the simulator's readers (from REFERENCE_LAUNCH_FEES). */
export function referenceLaunchDescription(launchpad: Launchpad): string {
  switch (launchpad) {
    case 'clanker': {
      const f = REFERENCE_LAUNCH_FEES.clanker
      return `Clanker v4.1 defaults: sniper auction blocks N+1..N+${CLANKER_FIRST_AUCTION_BLOCKS}, then ${percentOfPips(f.startingFee)} -> ${percentOfPips(f.endingFee)} over ${f.secondsToDecay} s, ${percentOfPips(f.lpFee)} LP fee`
    }
    case 'doppler':
    case 'zora': {
      const f = REFERENCE_LAUNCH_FEES[launchpad]
      const who = launchpad === 'doppler' ? 'Doppler as Bankr launches it' : 'Zora coin v4'
      return `${who}: ${percentOfPips(f.startFee)} -> ${percentOfPips(f.endFee)} over ${f.durationSeconds} s`
    }
    case 'clanker_v5': {
      const f = REFERENCE_LAUNCH_FEES.clanker_v5
      return `Clanker v5, sniper fee on: ${percentOfPips(f.sniperStartFee)} -> the ${percentOfPips(f.buyTax)} buy tax over ${f.sniperSeconds} s (linear, chosen), no LP fee`
    }
  }
}

/** The fee schedule of a reference launch mined in block `launch.number` at `launch.timestamp` (unix seconds). */
export function referenceFeeSchedule(launchpad: Launchpad, launch: { number: bigint; timestamp: number }): FeeSchedule {
  switch (launchpad) {
    case 'clanker':
      return {
        kind: 'clanker_auction',
        ...REFERENCE_LAUNCH_FEES.clanker,
        nextAuctionBlock: (launch.number + CLANKER_FIRST_AUCTION_BLOCKS).toString(),
        decayFrom: launch.timestamp,
        moduleEndsAt: launch.timestamp + CLANKER_MAX_MEV_MODULE_DELAY,
      }
    case 'doppler':
      return { kind: 'linear', startTime: launch.timestamp, ...REFERENCE_LAUNCH_FEES.doppler }
    case 'zora':
      return { kind: 'linear', startTime: launch.timestamp, ...REFERENCE_LAUNCH_FEES.zora }
    case 'clanker_v5':
      return { kind: 'clanker_v5', startTime: launch.timestamp, ...REFERENCE_LAUNCH_FEES.clanker_v5 }
  }
}

/** The FDV (micro-USD) of a Clanker launch at its default starting price, given ETH's price (micro-USD per wei). */
export function clankerDefaultStartFdv(ethUsd: Fraction): bigint {
  const sqrtPrice = getSqrtPriceAtTick(CLANKER_DEFAULT_POOL.tickIfToken0IsClanker)
  return fdvUsdAtomic({ tokenPriceInPaired: tokenPriceInPaired(sqrtPrice, true), pairedUsd: ethUsd, totalSupply: CLANKER_TOKEN_SUPPLY })
}

/**
 * Clanker's default launch as a pool to buy on once its launch fee has settled (the 1% LP fee, 20% protocol fee on the
 * input): the default pool, the whole supply placed (no extension), the token as currency0 (the other order mirrors
 * the ticks: the same curve up to rounding), the stablecoin turned into ETH at ETH's mid price `ethUsd`.
 */
export function clankerReferencePool(ethUsd: Fraction): DevBuyLaunch {
  const lpFeePips = REFERENCE_LAUNCH_FEES.clanker.lpFee
  return {
    pool: clankerLaunchPool({ ...CLANKER_DEFAULT_POOL, poolSupply: CLANKER_TOKEN_SUPPLY, tokenIsCurrency0: true }),
    tokenIsCurrency0: true,
    lpFeePips,
    hookInputFee: (paired) => clankerProtocolFeeOf(paired, lpFeePips),
    totalFee: clankerTotalFeeFraction(lpFeePips),
    totalSupply: CLANKER_TOKEN_SUPPLY,
    stableToPaired: (stable) => (stable * ethUsd.denominator) / ethUsd.numerator,
    pairedUsd: ethUsd,
  }
}
