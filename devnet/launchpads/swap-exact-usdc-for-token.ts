import { decodeEventLog, getAddress, isAddressEqual, maxUint160, maxUint256, parseAbi, parseUnits, zeroAddress, type Address, type Hex, type Log } from 'viem'
import { PrebuyError } from '../../src/common/errors.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { fundAccount } from '../chain/faucet.ts'
import type { PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { encodeStablecoinToTokenSwap } from '../../src/launchpads/universal-router-swap.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { confirmDevnetTx, devnetPublicClient, impersonate, sendDevnetCall, submitDevnetCall } from './send-devnet-tx.ts'

const ERC20 = parseAbi(['function approve(address spender, uint256 amount) returns (bool)', 'function allowance(address, address) view returns (uint256)'])
const PERMIT2 = parseAbi(['function approve(address token, address spender, uint160 amount, uint48 expiration)'])
const UNIVERSAL_ROUTER = parseAbi(['function execute(bytes commands, bytes[] inputs, uint256 deadline) payable'])
const V3_POOL_FEE = 500

/** A fixed third-party trader for `prebuy devnet swap` (not an anvil dev account, so no nonce is shared). */
export const DEVNET_TRADER: Address = '0x7ade000000000000000000000000000000007ade'

export interface SwapExactUsdcForTokenOptions {
  chain: ChainConfig
  token: Address
  /** Decimal stablecoin amount ("250.5"); minted to the trader first. */
  usdc: string
  trader?: Address
  /** Found from the PoolManager's Initialize logs when omitted. */
  poolKey?: PoolKey
  minTokensOut?: bigint
  /** The trader already holds the stablecoin and approved the router (prepareDevnetTrader): send only the swap. */
  prepared?: boolean
  /** Send and return without waiting or mining (tests that put several transactions in one block). */
  submitOnly?: boolean
  /** Skip gas estimation (a swap that depends on a transaction in the same block). */
  gas?: bigint
  /** The v4 swap's hook data (a Clanker auction bid names its payer there). */
  hookData?: Hex
  fees?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
}

export interface SwapResult {
  txHash: Hex
  blockNumber: bigint
  /** The v4 pool's Swap event: fee charged (pips), amounts from the pool's side. */
  poolSwap: { fee: number; amount0: bigint; amount1: bigint; sqrtPriceX96: bigint; liquidity: bigint }
  tokensOut: bigint
}

/**
 * A third-party buy on devnet: mints stablecoin to the trader (impersonated), approves through Permit2, and swaps
 * stablecoin -> WETH -> token through the Universal Router, moving the token's price like any market buy.
 */
export async function swapExactUsdcForToken(options: SwapExactUsdcForTokenOptions & { submitOnly: true }): Promise<{ txHash: Hex }>
export async function swapExactUsdcForToken(options: SwapExactUsdcForTokenOptions & { submitOnly?: false }): Promise<SwapResult>
export async function swapExactUsdcForToken(options: SwapExactUsdcForTokenOptions): Promise<SwapResult | { txHash: Hex }> {
  const { chain } = options
  const trader = getAddress(options.trader ?? DEVNET_TRADER)
  const { stablecoin, weth, universalRouter } = chain.addresses
  const amountIn = parseUnits(options.usdc, 6)
  if (amountIn <= 0n) throw new PrebuyError('invalid_amount', 'The stablecoin amount must be positive.')
  const poolKey = options.poolKey ?? (await findTokenPoolKey(chain, options.token))

  if (options.prepared) await impersonate(chain, trader)
  else await prepareDevnetTrader(chain, trader, options.usdc)

  const { commands, inputs } = encodeStablecoinToTokenSwap({
    stablecoin,
    weth,
    v3Fee: V3_POOL_FEE,
    poolKey,
    token: getAddress(options.token),
    amountIn,
    minTokensOut: options.minTokensOut ?? 0n,
    ...(options.hookData ? { hookData: options.hookData } : {}),
  })
  const call = {
    address: universalRouter,
    abi: UNIVERSAL_ROUTER,
    functionName: 'execute',
    args: [commands, inputs, 2n ** 48n],
    gas: options.gas,
    ...(options.fees ? { fees: options.fees } : {}),
  }
  const hash = await submitDevnetCall(chain, trader, call)
  if (options.submitOnly) return { txHash: hash }
  const receipt = await confirmDevnetTx(chain, hash)
  const poolSwap = findPoolSwap(receipt.logs, chain.addresses.poolManager)
  if (!poolSwap) throw new PrebuyError('swap_not_found', 'The swap transaction has no v4 Swap event.')
  const tokenIs0 = isAddressEqual(poolKey.currency0, options.token)
  return { txHash: hash, blockNumber: receipt.blockNumber, poolSwap, tokensOut: tokenIs0 ? poolSwap.amount0 : poolSwap.amount1 }
}

/** Mints `usdc` (decimal) to the trader (impersonated) and approves the Universal Router through Permit2, once. */
export async function prepareDevnetTrader(chain: ChainConfig, trader: Address, usdc: string): Promise<void> {
  const { stablecoin, permit2, universalRouter } = chain.addresses
  await impersonate(chain, trader)
  await fundAccount(chain, trader, { stablecoin: usdc })
  const client = devnetPublicClient(chain)
  const allowance = await client.readContract({ address: stablecoin, abi: ERC20, functionName: 'allowance', args: [trader, permit2] })
  if (allowance < maxUint160) {
    await sendDevnetCall(chain, trader, { address: stablecoin, abi: ERC20, functionName: 'approve', args: [permit2, maxUint256] })
    await sendDevnetCall(chain, trader, {
      address: permit2,
      abi: PERMIT2,
      functionName: 'approve',
      args: [stablecoin, universalRouter, maxUint160, 2n ** 48n - 1n],
    })
  }
}

/** The v4 Swap event of a transaction (the first one). */
export function findPoolSwap(logs: readonly Log[], poolManager: Address): SwapResult['poolSwap'] | undefined {
  for (const log of logs) {
    if (!isAddressEqual(log.address, poolManager)) continue
    try {
      const { eventName, args } = decodeEventLog({ abi: POOL_MANAGER_EVENTS, data: log.data, topics: log.topics, strict: true })
      if (eventName === 'Swap')
        return { fee: args.fee, amount0: args.amount0, amount1: args.amount1, sqrtPriceX96: args.sqrtPriceX96, liquidity: args.liquidity }
    } catch {
      // not a Swap
    }
  }
  return undefined
}

/** The WETH or native-ETH pool of a token, from the PoolManager's Initialize logs (currencies are indexed). */
export async function findTokenPoolKey(chain: ChainConfig, token: Address): Promise<PoolKey> {
  const client = devnetPublicClient(chain)
  const event = POOL_MANAGER_EVENTS.find((e) => e.name === 'Initialize')!
  const { weth, poolManager } = chain.addresses
  const [low, high] = token.toLowerCase() < weth.toLowerCase() ? [token, weth] : [weth, token]
  const [wethPools, ethPools] = await Promise.all([
    client.getLogs({ address: poolManager, event, args: { currency0: low, currency1: high }, fromBlock: 0n }),
    // Native ETH (address 0) always sorts first.
    client.getLogs({ address: poolManager, event, args: { currency0: zeroAddress, currency1: token }, fromBlock: 0n }),
  ])
  const last = [...wethPools, ...ethPools].sort((a, b) => Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n))).at(-1)
  if (!last) throw new PrebuyError('pool_not_found', `No WETH or ETH pool found for token ${token} (this helper does not swap through ZORA).`)
  return {
    currency0: getAddress(last.args.currency0!),
    currency1: getAddress(last.args.currency1!),
    fee: last.args.fee!,
    tickSpacing: last.args.tickSpacing!,
    hooks: getAddress(last.args.hooks!),
  }
}
