import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  getAddress,
  http,
  maxUint256,
  parseAbi,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type AnvilInstance } from '../../devnet/anvil/start-anvil.ts'
import { type LiquidityPosition, simulateExactInputSwap } from '../../src/pricing/v4/simulate-swap.ts'
import { getSqrtPriceAtTick, maxUsableTick, minUsableTick, MAX_SQRT_PRICE, MIN_SQRT_PRICE } from '../../src/pricing/v4/tick-math.ts'
import { seededRandom } from '../support/seeded-random.ts'

/**
 * The swap simulation against the real thing: Uniswap's own PoolManager and its test routers (npm artifacts of
 * `@uniswap/v4-core`) on anvil, pools with several overlapping positions, swaps both ways from a few wei to sizes that
 * cross every position and many 256-tick bitmap words. Every amount, price, tick and liquidity must be equal.
 */
const require = createRequire(import.meta.url)
const artifact = (name: string): { abi: Abi; bytecode: Hex } => {
  const json = JSON.parse(readFileSync(require.resolve(`@uniswap/v4-core/out/${name}.sol/${name}.json`), 'utf8'))
  return { abi: json.abi, bytecode: json.bytecode.object }
}
const DEPLOYER = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

const POOL_KEY = '(address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks)'
const ROUTERS = parseAbi([
  `function modifyLiquidity(${POOL_KEY} key, (int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt) params, bytes hookData) payable returns (int256)`,
  `function swap(${POOL_KEY} key, (bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96) params, (bool takeClaims, bool settleUsingBurn) testSettings, bytes hookData) payable returns (int256)`,
  `function initialize(${POOL_KEY} key, uint160 sqrtPriceX96) returns (int24)`,
  'function approve(address spender, uint256 amount) returns (bool)',
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
])

describe('simulateExactInputSwap against a real v4 PoolManager', () => {
  let anvil: AnvilInstance
  let publicClient: PublicClient
  let wallet: WalletClient
  let manager: Address
  let modifyRouter: Address
  let swapRouter: Address
  let currency0: Address
  let currency1: Address

  const deploy = async (name: string, args: unknown[]): Promise<Address> => {
    const { abi, bytecode } = artifact(name)
    const hash = await wallet.deployContract({ abi, bytecode, args, account: DEPLOYER, chain: null })
    return getAddress((await publicClient.waitForTransactionReceipt({ hash })).contractAddress!)
  }
  const send = async (address: Address, functionName: string, args: unknown[]) => {
    const hash = await wallet.writeContract({ address, abi: ROUTERS, functionName, args, account: DEPLOYER, chain: null } as never)
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    return receipt
  }

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337, name: 'v4-swap-simulation' })
    publicClient = createPublicClient({ transport: http(anvil.rpcUrl) })
    wallet = createWalletClient({ transport: http(anvil.rpcUrl) })
    manager = await deploy('PoolManager', [DEPLOYER.address])
    modifyRouter = await deploy('PoolModifyLiquidityTest', [manager])
    swapRouter = await deploy('PoolSwapTest', [manager])
    const a = await deploy('TestERC20', [2n ** 250n])
    const b = await deploy('TestERC20', [2n ** 250n])
    ;[currency0, currency1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
    for (const token of [currency0, currency1]) for (const spender of [modifyRouter, swapRouter]) await send(token, 'approve', [spender, maxUint256])
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  const cases = [
    { name: 'tick spacing 1 (a bitmap word every 256 ticks), 0.3% fee', fee: 3000, tickSpacing: 1, startTick: -1234, seed: 1 },
    { name: 'tick spacing 60, 1% fee, a Clanker-like far tick', fee: 10_000, tickSpacing: 60, startTick: -230_400, seed: 2 },
    { name: 'tick spacing 200 (Clanker), 0.05% fee, positive tick', fee: 500, tickSpacing: 200, startTick: 69_000, seed: 3 },
  ]

  for (const c of cases) {
    it(`equals the chain swap for swap: ${c.name}`, async () => {
      const random = seededRandom(c.seed)
      const key = { currency0, currency1, fee: c.fee, tickSpacing: c.tickSpacing, hooks: '0x0000000000000000000000000000000000000000' as Address }
      const sqrtStart = getSqrtPriceAtTick(c.startTick)
      await send(manager, 'initialize', [key, sqrtStart])

      // Overlapping positions around the start, one spanning everything usable, one out of range on each side.
      const spacing = c.tickSpacing
      const around = (ticks: number) => Math.round((c.startTick + ticks) / spacing) * spacing
      const positions: LiquidityPosition[] = [
        { tickLower: minUsableTick(spacing), tickUpper: maxUsableTick(spacing), liquidity: 10n ** 15n },
        { tickLower: around(-3000), tickUpper: around(2500), liquidity: 10n ** 18n },
        { tickLower: around(-600), tickUpper: around(900), liquidity: 3n * 10n ** 18n },
        { tickLower: around(1200), tickUpper: around(40_000), liquidity: 10n ** 17n + 12345n },
        { tickLower: around(-50_000), tickUpper: around(-4000), liquidity: 7n * 10n ** 16n },
        { tickLower: around(-600), tickUpper: around(2500), liquidity: 2n * 10n ** 17n }, // shares ticks with others
      ]
      for (const p of positions) await send(modifyRouter, 'modifyLiquidity', [key, { ...p, liquidityDelta: p.liquidity, salt: `0x${'0'.repeat(64)}` }, '0x'])

      let state = { sqrtPriceX96: sqrtStart, tick: c.startTick, tickSpacing: spacing, positions }
      for (let i = 0; i < 14; i++) {
        const zeroForOne = random() < 0.5
        // From a few wei to 10^21: the large ones cross every position and dozens of words.
        const amountIn = BigInt(Math.floor(10 ** (1 + random() * 20)))
        const withLimit = i % 5 === 4
        const limit = withLimit
          ? zeroForOne
            ? (state.sqrtPriceX96 * 97n) / 100n
            : (state.sqrtPriceX96 * 103n) / 100n
          : zeroForOne
            ? MIN_SQRT_PRICE + 1n
            : MAX_SQRT_PRICE - 1n
        const simulated = simulateExactInputSwap(state, { zeroForOne, amountIn, lpFeePips: c.fee, sqrtPriceLimitX96: limit })

        const receipt = await send(swapRouter, 'swap', [
          key,
          { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96: limit },
          { takeClaims: false, settleUsingBurn: false },
          '0x',
        ])
        const log = receipt.logs.find((l) => getAddress(l.address) === manager && l.topics.length === 3)!
        const swap = decodeEventLog({ abi: ROUTERS, eventName: 'Swap', data: log.data, topics: log.topics }).args
        const [paid, received] = zeroForOne ? [swap.amount0, swap.amount1] : [swap.amount1, swap.amount0]
        expect({ step: i, amountIn: -paid, amountOut: received, sqrtPriceX96: swap.sqrtPriceX96, tick: swap.tick, liquidity: swap.liquidity }).toEqual({
          step: i,
          amountIn: simulated.amountIn,
          amountOut: simulated.amountOut,
          sqrtPriceX96: simulated.sqrtPriceX96,
          tick: simulated.tick,
          liquidity: simulated.liquidity,
        })
        // Without a limit the whole input is used (the full-range position leaves no empty stretch to run off the end).
        if (!withLimit) expect(simulated.amountIn).toBe(amountIn)
        state = { ...state, sqrtPriceX96: swap.sqrtPriceX96, tick: swap.tick }
      }
    })
  }
})
