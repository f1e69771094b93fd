import type { Store } from './open-store.ts'

/**
 * A buyer's follower count as the buyer index orders it (order-index.ts buyerIndexKey): the linked social profile's,
 * 0 without one. Every order write reads it here, so the index key is computed one way.
 */
export async function followerCountOf(store: Store, keyId: string): Promise<number> {
  return (await store.sub.users.get(keyId))?.social?.followerCount ?? 0
}
