import { type Address, isAddressEqual, zeroAddress } from 'viem'
import { feeFractionFromPips } from './fee-fraction.ts'
import { type Fraction, multiply, ONE, oneMinus } from './fraction.ts'
import { rawPriceOf } from './sqrt-price.ts'

/** A v4 pool of a route, as far as pricing it goes. */
export interface RouteHop {
  currency0: Address
  currency1: Address
  /** The pool's static LP fee, pips (a route pool never has the dynamic-fee flag: routeProblem refuses it). */
  fee: number
}

/** v4's dynamic-fee flag in a pool key's fee field: such a pool's fee is set by its hook per swap. */
export const DYNAMIC_FEE_FLAG = 0x800000

/**
 * The assets a route's hops go through, from WETH or native ETH (the router's first v4 input: whichever of the two the
 * first pool holds) to its end. Throws on a route that does not chain (a programming or configuration error: routes are
 * checked by routeProblem when configured).
 */
export function routeAssets(hops: readonly RouteHop[], weth: Address): Address[] {
  const first = hops[0]
  if (!first) return []
  const start = isAddressEqual(first.currency0, zeroAddress) ? zeroAddress : weth
  const assets: Address[] = [start]
  for (const hop of hops) {
    const assetIn = assets[assets.length - 1]!
    if (isAddressEqual(hop.currency0, assetIn)) assets.push(hop.currency1)
    else if (isAddressEqual(hop.currency1, assetIn)) assets.push(hop.currency0)
    else throw new Error(`route hop ${hop.currency0}/${hop.currency1} does not hold ${assetIn}`)
  }
  return assets
}

/**
 * Why a route cannot be used (undefined: it can): it must start at WETH or native ETH, chain, and end at `end`; a pool
 * with a dynamic fee needs the fee it is priced at (`feePips`, by hop).
 */
export function routeProblem(hops: readonly RouteHop[], weth: Address, end: Address, feePips?: readonly number[]): string | undefined {
  if (hops.length === 0) return 'the route has no pool'
  const first = hops[0]!
  if (!isAddressEqual(first.currency0, zeroAddress) && !isAddressEqual(first.currency0, weth) && !isAddressEqual(first.currency1, weth)) {
    return 'the first pool must pair native ETH or WETH'
  }
  if (hops.some((hop, i) => hop.fee & DYNAMIC_FEE_FLAG && feePips?.[i] === undefined)) {
    return 'a route pool has a dynamic fee (its hook sets it per swap): it cannot be priced in advance'
  }
  let assets: Address[]
  try {
    assets = routeAssets(hops, weth)
  } catch (error) {
    return (error as Error).message
  }
  return isAddressEqual(assets[assets.length - 1]!, end) ? undefined : `the route ends at ${assets[assets.length - 1]}, not ${end}`
}

/**
 * Smallest units of the route's first asset (wei) per smallest unit of its last, from each pool's sqrtPriceX96 (mid
 * prices, in hop order): the product of each hop's output priced in its input.
 */
export function priceThroughRoute(hops: readonly RouteHop[], sqrtPricesX96: readonly bigint[], weth: Address): Fraction {
  const assets = routeAssets(hops, weth)
  let price = ONE
  hops.forEach((hop, i) => {
    const out = assets[i + 1]!
    price = multiply(price, rawPriceOf(sqrtPricesX96[i]!, isAddressEqual(hop.currency0, out)))
  })
  return price
}

/** The fee an exact-input swap pays across the route's pools: 1 - prod(1 - fee_i), exact; `feePips` overrides by hop. */
export const routeFee = (hops: readonly RouteHop[], feePips?: readonly number[]): Fraction =>
  oneMinus(hops.reduce((kept, hop, i) => multiply(kept, oneMinus(feeFractionFromPips(feePips?.[i] ?? hop.fee))), ONE))

/** Two fees paid one after the other on the same amount: 1 - (1 - a)(1 - b). */
export const compoundFees = (a: Fraction, b: Fraction): Fraction => oneMinus(multiply(oneMinus(a), oneMinus(b)))
