import type { PairedAsset } from '../domain/paired-asset.ts'
import type { Fraction } from './fraction.ts'
import { directionalProtocolFee, v4SwapFeePips } from './protocol-fee.ts'
import { routeFee } from './route-price.ts'

/**
 * Which way a buy crosses each bridge pool (zeroForOne, in hop order): walked back from the paired asset, the last
 * hop's output, each hop's input being its other currency (the first hop's input is then ETH or WETH).
 */
export function bridgeBuyDirections(paired: Pick<PairedAsset, 'address' | 'bridge'>): boolean[] {
  const hops = paired.bridge ?? []
  const directions: boolean[] = new Array(hops.length)
  let out = paired.address.toLowerCase()
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!
    const input = hop.currency0.toLowerCase() === out ? hop.currency1.toLowerCase() : hop.currency0.toLowerCase()
    directions[i] = input === hop.currency0.toLowerCase()
    out = input
  }
  return directions
}

/**
 * What each bridge pool charges a buy, pips: its LP fee (`bridgeFeePips` where priced apart, else the key's static
 * fee) with its v4 protocol fee for the buy's direction, as v4 charges them together (v4-core Pool.sol `swap`,
 * ProtocolFeeLibrary.calculateSwapFee: `p + lp - p * lp / 1e6`).
 */
export function bridgeSwapFeesPips(paired: Pick<PairedAsset, 'bridge' | 'bridgeFeePips' | 'bridgeProtocolFeePips'>): number[] {
  return (paired.bridge ?? []).map((hop, i) => v4SwapFeePips(paired.bridgeProtocolFeePips?.[i] ?? 0, paired.bridgeFeePips?.[i] ?? hop.fee))
}

/** The fee an exact-input buy pays across the bridge pools, LP and protocol fees: 1 - prod(1 - swapFee_i), exact. */
export const bridgeRouteFee = (paired: Pick<PairedAsset, 'bridge' | 'bridgeFeePips' | 'bridgeProtocolFeePips'>): Fraction =>
  routeFee(paired.bridge ?? [], bridgeSwapFeesPips(paired))

/**
 * The paired asset with each bridge pool's protocol fee for buys, from their slot0's packed `protocolFee` (by hop; read
 * at launch, or one pool's from a ProtocolFeeUpdated later). All zero leaves the field out.
 */
export function withBridgeProtocolFees(paired: PairedAsset, slot0ProtocolFees: readonly number[]): PairedAsset {
  const { bridgeProtocolFeePips: _previous, ...rest } = paired
  const directions = bridgeBuyDirections(paired)
  const fees = directions.map((zeroForOne, i) => directionalProtocolFee(slot0ProtocolFees[i] ?? 0, zeroForOne))
  return fees.some((fee) => fee !== 0) ? { ...rest, bridgeProtocolFeePips: fees } : rest
}

/** The paired asset after one bridge pool's protocol fee changed (`hopIndex`), the others as they were. */
export function withBridgeHopProtocolFee(paired: PairedAsset, hopIndex: number, slot0ProtocolFee: number): PairedAsset {
  const directions = bridgeBuyDirections(paired)
  const fees = directions.map((_, i) => paired.bridgeProtocolFeePips?.[i] ?? 0)
  fees[hopIndex] = directionalProtocolFee(slot0ProtocolFee, directions[hopIndex]!)
  const { bridgeProtocolFeePips: _previous, ...rest } = paired
  return fees.some((fee) => fee !== 0) ? { ...rest, bridgeProtocolFeePips: fees } : rest
}
