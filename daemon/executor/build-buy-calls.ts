import { encodeFunctionData, erc20Abi, keccak256, stringToHex } from 'viem'
import type { Address, Hash } from 'viem'
import type { StoredPoolKey } from '../../src/journal/journal-records.ts'
import type { AccountCall } from '../../src/wallets/wallet-service.ts'
import { PLATFORM_FEE_BPS } from '../../src/domain/execution/platform-fee.ts'
import { buyRouterAbi } from './buy-router-abi.ts'


/**
 * The router's idempotency key for an order: one buy per order, ever. Includes createdAt, so an order deleted and placed
 * again is a new order.
 */
export const executionOrderId = (order: { keyId: string; slug: string; createdAt: number }): Hash =>
  keccak256(stringToHex(`prebuy:${order.keyId}:${order.slug}:${order.createdAt}`))

export interface BuyCallInput {
  orderId: Hash
  buyRouter: Address
  stablecoin: Address
  weth: Address
  ethUsdPool: Address
  poolKey: StoredPoolKey
  token: Address
  spendAtoms: bigint
  minTokensOut: bigint
  feeRecipient: Address
}

/**
 * The two calls of one buy UserOperation: approve exactly the spend to the router, then one router call that swaps,
 * checks the minimum out on-chain and splits the fee. Approving the exact amount leaves no standing allowance.
 */
export function buildBuyCalls(input: BuyCallInput): AccountCall[] {
  return [
    {
      to: input.stablecoin,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [input.buyRouter, input.spendAtoms] }),
    },
    {
      to: input.buyRouter,
      data: encodeFunctionData({
        abi: buyRouterAbi,
        functionName: 'buy',
        args: [
          {
            orderId: input.orderId,
            stablecoin: input.stablecoin,
            weth: input.weth,
            ethUsdPool: input.ethUsdPool,
            poolKey: input.poolKey,
            token: input.token,
            amountIn: input.spendAtoms,
            minTokensOut: input.minTokensOut,
            feeRecipient: input.feeRecipient,
            feeBps: PLATFORM_FEE_BPS,
          },
        ],
      }),
    },
  ]
}
