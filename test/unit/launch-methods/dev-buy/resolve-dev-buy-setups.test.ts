import type { PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { create2Address } from '../../../../daemon/chain/ensure-create2-contract.ts'
import { resolveDevBuySetups } from '../../../../src/launch-methods/dev-buy/worker/resolve-dev-buy-setups.ts'
import type { ChainConfig, ChainKey } from '../../../../src/chain/chain-keys.ts'
import { BASE_CLANKER_DEV_BUY } from '../../../../src/launch-methods/dev-buy/chain/clanker-dev-buy-deployment.ts'
import { DEV_BUY_COORDINATOR_SALT, devBuyCoordinatorInitCode } from '../../../../src/launch-methods/dev-buy/chain/dev-buy-coordinator-contract.ts'

describe('resolveDevBuySetups on real chains', () => {
  it('Base has a dev buy once the coordinator is at its CREATE2 address (built with Clanker’s factory and the vesting contract); without it, or another chain, none, and the expected address is logged', async () => {
    const addresses = {
      entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
      stablecoin: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      weth: '0x4200000000000000000000000000000000000006',
      ethUsdPool: '0xd0b53D9277642d899DF5C87A3966A349A798F224',
    } as const
    const chains = {
      base: { key: 'base', chainId: 8453, addresses },
      second_chain: { key: 'second_chain', chainId: 10, addresses },
    } as unknown as Record<ChainKey, ChainConfig>
    const operator = '0x0000000000000000000000000000000000000b0b'
    const feeRecipient = '0x0000000000000000000000000000000000000fee'
    const vesting = '0x00000000000000000000000000000000000fe571'
    const expected = create2Address(
      DEV_BUY_COORDINATOR_SALT,
      devBuyCoordinatorInitCode({ ...addresses, factory: BASE_CLANKER_DEV_BUY.factory, vesting, operator, feeRecipient }),
    )
    const client = (deployed: string[]) =>
      ({ getCode: async ({ address }: { address: string }) => (deployed.includes(address) ? '0x6080' : '0x') }) as unknown as PublicClient
    const warnings: unknown[] = []
    const logger = { warn: (fields: unknown) => warnings.push(fields) } as never
    const resolve = (deployed: string[]) =>
      resolveDevBuySetups({
        chains,
        clients: { base: client(deployed), second_chain: client(deployed) },
        operator,
        feeRecipient,
        vesting: { base: vesting, second_chain: vesting },
        logger,
      })
    // second_chain has no Clanker dev-buy setup: never a dev buy there.
    expect(await resolve([expected])).toEqual({
      coordinators: { base: expected },
      vesting: { base: vesting },
      setups: { base: BASE_CLANKER_DEV_BUY },
    })
    expect(warnings).toEqual([])
    expect((await resolve([])).coordinators).toEqual({})
    expect(warnings).toEqual([{ chain: 'base', address: expected }])
  })
})
