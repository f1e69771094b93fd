import { createKeccak, type IHasher } from 'hash-wasm'
import { type Hex, keccak256 } from 'viem'

/*
 * Keccak-256 of large inputs through hash-wasm's WebAssembly build (npm `hash-wasm`: no native build, the same
 * digest), ~20x faster than viem's pure-JS one (@noble/hashes): 0.15 ms against 3.1 ms for the 45 kB of a split batch's
 * signed collect (measured 2026-11-28, Node 20). The transaction signer hashes every collect it sends, on the event
 * loop, one after another at a launch (docs/execution.md §8): 8 collects were ~25 ms of keccak in the split bench's
 * CPU profile. The WebAssembly module is compiled once, at import; until it is ready (or if it cannot be) viem's
 * keccak is used, so the answer never depends on it.
 */
let hasher: IHasher | undefined
const ready: Promise<void> = createKeccak(256).then(
  (h) => {
    hasher = h
  },
  () => undefined,
)

/** Resolves once the WebAssembly hasher is ready (or could not be made); keccakBytes is fast from then on. */
export const keccakWasmReady = (): Promise<void> => ready

/** Whether keccakBytes hashes with WebAssembly now (false before it is ready, or if it could not be made). */
export const keccakWasmActive = (): boolean => hasher !== undefined

/** Keccak-256 of `bytes` as 0x-hex: hash-wasm's when ready, else viem's (the same digest). */
export function keccakBytes(bytes: Uint8Array): Hex {
  const h = hasher
  if (!h) return keccak256(bytes)
  // One shared hasher: init, update and digest run in one synchronous turn, so no other hash interleaves.
  h.init()
  h.update(bytes)
  return `0x${h.digest('hex')}`
}
