import { describe, expect, it } from 'vitest'
import {
  describeOtcDifferences,
  OTC_TERM_FIELDS,
  type OtcTerms,
  otcTermsDifferences,
  recordedOtcTerms,
} from '../../../../src/launch-methods/pooled-otc/domain/otc-terms.ts'
import type { OtcOffer } from '../../../../src/domain/records.ts'

/** The comparison a deposit and a settlement are only counted by (issue 19): every field, nothing else. */
const offer: OtcOffer = {
  offerId: `0x${'11'.repeat(32)}`,
  fdvUsdc: '1000000.5',
  tokenAddress: '0x00000000000000000000000000000000000a0c02',
  tokenSymbol: 'OTC',
  tokenDecimals: 18,
  totalSupply: (10n ** 27n).toString(),
  tokenAmount: (10n ** 25n).toString(),
  settleAt: 1_700_000_000_001,
  lock: { lockSeconds: 60, vestingSeconds: 3_600 },
  deposit: null,
  settlement: null,
}
const WALLET = '0x00000000000000000000000000000000000D0D01'

describe('recordedOtcTerms / otcTermsDifferences', () => {
  it('the recorded terms in the contract’s units: FDV in stablecoin atoms, the settlement time rounded up to whole seconds', () => {
    expect(recordedOtcTerms(offer, WALLET)).toEqual({
      project: WALLET,
      token: offer.tokenAddress,
      offered: 10n ** 25n,
      fdv: 1_000_000_500_000n,
      totalSupply: 10n ** 27n,
      settleAfter: 1_700_000_001n,
      lockSeconds: 60n,
      vestingSeconds: 3_600n,
    })
    expect(recordedOtcTerms({ ...offer, lock: undefined }, WALLET)).toMatchObject({ lockSeconds: 0n, vestingSeconds: 0n })
  })

  it('the same offer (addresses in any case) has no difference; each field that differs is named, alone', () => {
    const recorded = recordedOtcTerms(offer, WALLET)
    expect(otcTermsDifferences(recorded, { ...recorded, project: WALLET.toLowerCase(), token: offer.tokenAddress.toUpperCase().replace('0X', '0x') })).toEqual(
      [],
    )
    const other: OtcTerms = {
      project: '0x00000000000000000000000000000000000bad01',
      token: '0x00000000000000000000000000000000000bad02',
      offered: 1n,
      fdv: 2n,
      totalSupply: 3n,
      settleAfter: 4n,
      lockSeconds: 5n,
      vestingSeconds: 6n,
    }
    for (const field of OTC_TERM_FIELDS) expect(otcTermsDifferences(recorded, { ...recorded, [field]: other[field] }), field).toEqual([field])
    expect(otcTermsDifferences(recorded, other)).toEqual([...OTC_TERM_FIELDS])
    expect(describeOtcDifferences(recorded, { ...recorded, fdv: 7n }, ['fdv'])).toBe(
      'the on-chain offer differs from the record: fdv (1000000500000 recorded, 7 on chain)',
    )
  })
})
