import type { PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { create2Address } from '../../../daemon/chain/ensure-create2-contract.ts'
import { resolveOtcSettlements } from '../../../daemon/launch-methods/otc-settlements.ts'
import type { ChainConfig, ChainKey } from '../../../src/chain/chain-keys.ts'
import { OTC_SETTLEMENT_SALT, otcSettlementInitCode } from '../../../src/launch-methods/otc/otc-settlement-contract.ts'

describe('resolveOtcSettlements on real chains', () => {
  it('uses the contract where its CREATE2 address has code; elsewhere no OTC, and the address it expects is logged', async () => {
    const addresses = { entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032', stablecoin: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } as const
    const chains = { base: { key: 'base', addresses }, second_chain: { key: 'second_chain', addresses } } as unknown as Record<ChainKey, ChainConfig>
    const operator = '0x0000000000000000000000000000000000000b0b'
    const feeRecipient = '0x0000000000000000000000000000000000000fee'
    const expected = create2Address(OTC_SETTLEMENT_SALT, otcSettlementInitCode({ ...addresses, operator, feeRecipient }))
    const client = (code: string) => ({ getCode: async ({ address }: { address: string }) => (address === expected ? code : '0x') }) as unknown as PublicClient
    const warnings: unknown[] = []
    const logger = { warn: (fields: unknown) => warnings.push(fields) } as never
    const found = await resolveOtcSettlements({
      chains,
      clients: { base: client('0x6080'), second_chain: client('0x') },
      operator,
      feeRecipient,
      devnet: false,
      logger,
    })
    expect(found).toEqual({ base: expected })
    expect(warnings).toEqual([{ chain: 'second_chain', address: expected }])
  })
})
