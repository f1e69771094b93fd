import { parseDecimal } from '../domain/decimal.ts'
import { FDV_DECIMALS, USDC_DECIMALS } from '../domain/order-bounds.ts'
import type { OrderRecord } from '../domain/records.ts'
import type { Store } from '../store/open-store.ts'

/** A buyer as the pooled launch methods plan with it: the order's key, its wallet (by user index) and its limits. */
export interface PooledBuyer {
  id: string
  userIndex: number
  /** Stablecoin atoms. */
  maxSpend: bigint
  /** Micro-USD FDV limit; null: none. */
  limitFdv: bigint | null
}

/** The buyers behind orders (the OTC settlement, the dev buy and its simulation), skipping orders whose key is gone or revoked. */
export async function pooledBuyers(store: Store, orders: readonly OrderRecord[]): Promise<PooledBuyer[]> {
  const out: PooledBuyer[] = []
  for (const order of orders) {
    const key = await store.sub.keys.get(order.keyId)
    if (!key || key.revokedAt !== null) continue
    out.push({
      id: order.keyId,
      userIndex: key.userIndex,
      maxSpend: parseDecimal(order.maxSpendUsdc, USDC_DECIMALS)!,
      limitFdv: order.maxFdvUsdc === null ? null : parseDecimal(order.maxFdvUsdc, FDV_DECIMALS)!,
    })
  }
  return out
}
