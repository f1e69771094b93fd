import { describe, expect, it } from 'vitest'
import { bandEthUsd, DEFAULT_ETH_USD_BAND, deviationBps, meanTick } from '../../../src/pricing/eth-usd-band.ts'
import { fraction } from '../../../src/pricing/fraction.ts'

// Prices as stablecoin atoms per wei: $3,000 is 3000e6 / 1e18.
const usd = (dollars: number) => fraction(BigInt(Math.round(dollars * 100)) * 10n ** 4n, 10n ** 18n)

describe('the ETH/USD sanity band (spot against the pool’s TWAP)', () => {
  it('measures the gap in basis points of the TWAP, rounded up', () => {
    expect(deviationBps(usd(3000), usd(3000))).toBe(0)
    expect(deviationBps(usd(3060), usd(3000))).toBe(200)
    expect(deviationBps(usd(2940), usd(3000))).toBe(200)
    expect(deviationBps(usd(3060.03), usd(3000))).toBe(201)
  })

  it('within the band (default 2%, edge included) the spot is the price', () => {
    expect(DEFAULT_ETH_USD_BAND).toEqual({ twapSeconds: 600, bandBps: 200 })
    expect(bandEthUsd(usd(3060), usd(3000), DEFAULT_ETH_USD_BAND)).toEqual({ status: 'in_band', price: usd(3060), deviationBps: 200 })
    expect(bandEthUsd(usd(2941), usd(3000), DEFAULT_ETH_USD_BAND).price).toEqual(usd(2941))
  })

  it('outside the band the price is the safe side: the higher of the two, whichever way the spot was pushed', () => {
    const pushedDown = bandEthUsd(usd(1500), usd(3000), DEFAULT_ETH_USD_BAND)
    expect(pushedDown).toMatchObject({ status: 'out_of_band', price: usd(3000), spot: usd(1500), twap: usd(3000), deviationBps: 5000 })
    const pushedUp = bandEthUsd(usd(6000), usd(3000), DEFAULT_ETH_USD_BAND)
    expect(pushedUp).toMatchObject({ status: 'out_of_band', price: usd(6000), deviationBps: 10_000 })
    expect(bandEthUsd(usd(3100), usd(3000), { bandBps: 500 }).status).toBe('in_band')
  })

  it('without a TWAP (no history yet) the spot is used, said so', () => {
    expect(bandEthUsd(usd(3000), null, DEFAULT_ETH_USD_BAND)).toEqual({ status: 'no_twap', price: usd(3000) })
  })

  it('the mean tick rounds toward negative infinity, as OracleLibrary.consult', () => {
    expect(meanTick(0n, 6000n, 600)).toBe(10)
    expect(meanTick(0n, 6001n, 600)).toBe(10)
    expect(meanTick(0n, -6001n, 600)).toBe(-11)
    expect(meanTick(1000n, -5000n, 600)).toBe(-10)
    expect(() => meanTick(0n, 1n, 0)).toThrow(RangeError)
  })
})
