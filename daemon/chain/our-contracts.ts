import type { Address, Hex } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { BASE_CLANKER_DEV_BUY } from '../../src/launch-methods/dev-buy/chain/clanker-dev-buy-deployment.ts'
import { DEV_BUY_COORDINATOR_SALT, devBuyCoordinatorInitCode } from '../../src/launch-methods/dev-buy/chain/dev-buy-coordinator-contract.ts'
import { OTC_SETTLEMENT_SALT, otcSettlementInitCode } from '../../src/launch-methods/pooled-otc/chain/otc-settlement-contract.ts'
import { VESTING_SALT, vestingInitCode } from '../../src/launch-methods/vesting/chain/vesting-contract.ts'
import { batchBuyerCreate2, serviceBatchBuyerArgs } from '../executor/batch-buyer-address.ts'
import { buyRouterCreate2 } from '../executor/ensure-buy-router.ts'
import { create2Address } from './ensure-create2-contract.ts'

export type OurContractName = 'PrebuyBuyRouter' | 'PrebuyBatchBuyer' | 'PrebuyVesting' | 'PrebuyOtcSettlement' | 'PrebuyDevBuyCoordinator'

/** One of this service's own contracts on one chain: where CREATE2 puts it, and what to send to put it there. */
export interface OurContract {
  name: OurContractName
  address: Address
  salt: Hex
  initCode: Hex
}

/**
 * This service's own contracts on a real chain, in deployment order: the buy router (every buy goes through it), the
 * batch buyer (one swap per block for every approved wallet, through the router: admin and sole initial operator the
 * bundler EOA, the arguments ensureBatchBuyer uses, so one address), the vesting contract and the pooled-OTC settlement (which names the vesting contract), and on a chain with Clanker's
 * published dev-buy modules (Base) the dev-buy coordinator. The same salts and constructor arguments as the daemon
 * resolves them with (ensure-buy-router.ts, launch-methods/otc-settlements.ts, launch-methods/dev-buy-setups.ts), so
 * what `prebuy contracts deploy` puts on chain is what the daemon then finds.
 */
export function ourContracts(chain: ChainConfig, service: { operator: Address; feeRecipient: Address }): OurContract[] {
  const contract = (name: OurContractName, salt: Hex, initCode: Hex): OurContract => ({ name, salt, initCode, address: create2Address(salt, initCode) })
  const router = buyRouterCreate2(chain.addresses.poolManager)
  const routerContract = contract('PrebuyBuyRouter', router.salt, router.initCode)
  const batch = batchBuyerCreate2(serviceBatchBuyerArgs(routerContract.address, service.operator))
  const vesting = contract('PrebuyVesting', VESTING_SALT, vestingInitCode())
  const out = [
    routerContract,
    contract('PrebuyBatchBuyer', batch.salt, batch.initCode),
    vesting,
    contract(
      'PrebuyOtcSettlement',
      OTC_SETTLEMENT_SALT,
      otcSettlementInitCode({
        entryPoint: chain.addresses.entryPoint,
        stablecoin: chain.addresses.stablecoin,
        operator: service.operator,
        feeRecipient: service.feeRecipient,
        vesting: vesting.address,
      }),
    ),
  ]
  // As resolveDevBuySetups decides on a real chain: dev buy exists where Clanker's published modules are (Base).
  if (chain.chainId === BASE_CLANKER_DEV_BUY.chainId) {
    out.push(
      contract(
        'PrebuyDevBuyCoordinator',
        DEV_BUY_COORDINATOR_SALT,
        devBuyCoordinatorInitCode({
          entryPoint: chain.addresses.entryPoint,
          stablecoin: chain.addresses.stablecoin,
          weth: chain.addresses.weth,
          ethUsdPool: chain.addresses.ethUsdPool,
          factory: BASE_CLANKER_DEV_BUY.factory,
          vesting: vesting.address,
          operator: service.operator,
          feeRecipient: service.feeRecipient,
        }),
      ),
    )
  }
  return out
}
