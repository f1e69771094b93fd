import type { Hash } from 'viem'

interface IdKey {
  keyId: string
  slug: string
  createdAt: number
}

/**
 * Order ids (a keccak each) computed once and held compactly: 32 bytes per order in one growing byte array, found by
 * slug then keyId (strings the loaded records already hold, interned by the loader), with the order's createdAt beside
 * it (the id hashes all three). The cache it replaces kept a flat 66-character id string and a `keyId!slug!createdAt`
 * key string per order, ~180 bytes with the Map entry, ~18 MB of the load suite's heap at 100,000 orders; this is ~80
 * (docs/reliability.md, "Memory"). A hit builds the hex string afresh (a table lookup per byte: about a microsecond,
 * paid only for the orders a tick buys). Past `max` orders it starts afresh: a bound, not an eviction policy (an id is
 * recomputed on demand).
 */
export function createOrderIdCache(compute: (order: IdKey) => Hash, max = 500_000): (order: IdKey) => Hash {
  let bySlug = new Map<string, Map<string, number>>()
  let bytes = new Uint8Array(32 * 1_024)
  let createdAt = new Float64Array(1_024)
  let used = 0

  const hexAt = (slot: number): Hash =>
    // Node's hex encoder over the slot's 32 bytes (a table lookup and a string append per byte took ~1 µs an id: 5 ms
    // of a 5,000-buyer launch tick's batch record, 14 ms cold), then one flat string for the caller to keep ('0x' +
    // the hex is a two-part rope until read).
    Buffer.from(`0x${Buffer.from(bytes.buffer, bytes.byteOffset + slot * 32, 32).toString('hex')}`, 'latin1').toString('latin1') as Hash

  return (order) => {
    let keys = bySlug.get(order.slug)
    let slot = keys?.get(order.keyId)
    if (slot !== undefined && createdAt[slot] === order.createdAt) return hexAt(slot)
    const id = compute(order)
    if (slot === undefined) {
      if (used >= max) {
        bySlug = new Map()
        used = 0
        keys = undefined
      }
      slot = used++
      if (createdAt.length <= slot) {
        const grownAt = new Float64Array(createdAt.length * 2)
        grownAt.set(createdAt)
        createdAt = grownAt
        const grownBytes = new Uint8Array(bytes.length * 2)
        grownBytes.set(bytes)
        bytes = grownBytes
      }
      if (keys === undefined) {
        keys = new Map()
        bySlug.set(order.slug, keys)
      }
      keys.set(order.keyId, slot)
    }
    createdAt[slot] = order.createdAt
    bytes.set(Buffer.from(id.slice(2), 'hex'), slot * 32)
    return id
  }
}
