import { type Address, erc20Abi, keccak256, stringToHex } from 'viem'
import { buyRouterAbi } from '../../daemon/executor/buy-router-abi.ts'
import type { LaunchedToken } from '../../devnet/launchpads/launch-token.ts'
import type { FlowHarness } from './flow-harness.ts'

/**
 * FDV (stablecoin atoms) a buy of `spend` pays in a pool now: the router's own buy simulated (a quote by the real swap),
 * from the devnet's fifth account, rounded up: spend x totalSupply / tokens out.
 */
export async function fdvOf(h: FlowHarness, launched: LaunchedToken, spend: bigint): Promise<bigint> {
  const trader = h.devnet.accounts[4]!.account.address as Address
  const { result } = await h.client.simulateContract({
    account: trader,
    address: h.buyRouter,
    abi: buyRouterAbi,
    functionName: 'buy',
    args: [
      {
        orderId: keccak256(stringToHex(`probe-${spend}-${Math.random()}`)),
        stablecoin: h.chain.addresses.stablecoin,
        weth: h.chain.addresses.weth,
        ethUsdPool: h.chain.addresses.ethUsdPool,
        bridge: [],
        poolKey: launched.poolKey,
        token: launched.token,
        amountIn: spend,
        minTokensOut: 0n,
        feeRecipient: trader,
        feeBps: 0n,
      },
    ],
  })
  const out = (result as readonly [bigint, bigint])[0]
  const supply = await h.client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'totalSupply' })
  return (spend * supply + out - 1n) / out
}
