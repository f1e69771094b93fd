import type { PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { create2Address } from '../../../../daemon/chain/ensure-create2-contract.ts'
import { resolveOtcSettlements } from '../../../../src/launch-methods/pooled-otc/worker/resolve-otc-settlements.ts'
import type { ChainConfig, ChainKey } from '../../../../src/chain/chain-keys.ts'
import { OTC_SETTLEMENT_SALT, otcSettlementInitCode } from '../../../../src/launch-methods/pooled-otc/chain/otc-settlement-contract.ts'
import { VESTING_SALT, vestingInitCode } from '../../../../src/launch-methods/vesting/chain/vesting-contract.ts'
import { resolveVesting } from '../../../../src/launch-methods/vesting/worker/resolve-vesting.ts'

describe('resolveVesting and resolveOtcSettlements on real chains', () => {
  it('uses the contracts where both CREATE2 addresses have code; elsewhere no OTC, and the addresses it expects are logged', async () => {
    const addresses = { entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032', stablecoin: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } as const
    const chains = { base: { key: 'base', addresses }, second_chain: { key: 'second_chain', addresses } } as unknown as Record<ChainKey, ChainConfig>
    const operator = '0x0000000000000000000000000000000000000b0b'
    const feeRecipient = '0x0000000000000000000000000000000000000fee'
    const vesting = create2Address(VESTING_SALT, vestingInitCode())
    const expected = create2Address(OTC_SETTLEMENT_SALT, otcSettlementInitCode({ ...addresses, operator, feeRecipient, vesting }))
    const client = (deployed: string[]) =>
      ({ getCode: async ({ address }: { address: string }) => (deployed.includes(address) ? '0x6080' : '0x') }) as unknown as PublicClient
    const warnings: unknown[] = []
    const logger = { warn: (fields: unknown) => warnings.push(fields) } as never
    const clients = { base: client([expected, vesting]), second_chain: client([expected]) }
    // second_chain has the settlement but not its vesting contract: a locked offer could not settle there.
    const vestingFound = await resolveVesting({ chains, clients, logger })
    expect(vestingFound).toEqual({ base: vesting })
    expect(warnings).toEqual([{ chain: 'second_chain', address: vesting }])
    warnings.length = 0
    const found = await resolveOtcSettlements({ chains, clients, operator, feeRecipient, vesting: vestingFound, logger })
    expect(found).toEqual({ settlements: { base: expected }, vesting: { base: vesting } })
    expect(warnings).toEqual([{ chain: 'second_chain', address: expected, vesting, settlementThere: true, vestingThere: false }])
  })
})
