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
    try {
      warmUp(h)
      hasher = h
    } catch {
      // A hasher that failed its first hash is not used: viem's keccak serves.
    }
  },
  () => undefined,
)

/**
 * One 64 KiB hash as soon as the module is compiled, so that the first collect a launch signs does not run in V8's
 * baseline WebAssembly code. V8 compiles a module's functions with Liftoff first and TurboFan only once a function has
 * used its tier-up budget (dynamic tiering, v8.dev/blog/wasm-dynamic-tiering); a call already running stays in Liftoff,
 * and a large input is one long call. Measured 2026-11-28 (Node 20, hash-wasm 4): the process's first 45 kB hash took
 * 2.5-2.7 ms, every later one 0.3-0.45 ms; after this warm-up (3.7 ms, once, at import, well before any launch) the
 * first 45 kB hash took 0.42 ms. A daemon signs only small transactions before its first launch, so without this the
 * launch's first collect, on the path from the launch log to the first send (issue 23 item 3), paid the 2 ms.
 */
function warmUp(h: IHasher): void {
  h.init()
  h.update(new Uint8Array(64 * 1024))
  h.digest('hex')
}

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
