import { bytesToHex, concatBytes, hexToBytes, keccak256, numberToBytes, type Address, type Hex } from 'viem'

/** A v4 hook address encodes its permissions in its lowest 14 bits (Hooks.sol). */
export const HOOK_FLAG_MASK = 0x3fff
export const BEFORE_SWAP_FLAG = 1 << 7
export const BEFORE_SWAP_RETURNS_DELTA_FLAG = 1 << 3
export const BEFORE_INITIALIZE_FLAG = 1 << 13
export const AFTER_ADD_LIQUIDITY_FLAG = 1 << 10
export const AFTER_REMOVE_LIQUIDITY_FLAG = 1 << 8
export const AFTER_SWAP_FLAG = 1 << 6
export const AFTER_SWAP_RETURNS_DELTA_FLAG = 1 << 2

/**
 * Finds a CREATE2 salt for which `deployer` places `initCode` at an address whose low 14 bits are exactly `flags`.
 * About 16,000 tries on average (a fraction of a second); deterministic, so a redeploy finds the same salt.
 */
export function mineHookSalt(deployer: Address, initCode: Hex, flags: number, maxTries = 2_000_000): { salt: Hex; address: Address } {
  // Both devnet chains deploy the same hooks from the same deployer and nonce with the same arguments (the canonical
  // addresses are the same on both), so the second chain's search is the first's: remembered, it costs nothing. The
  // search is synchronous (seconds on a busy machine): run twice back to back it held the event loop long enough that
  // the other chain's JSON-RPC call in flight timed out at start-up.
  const key = `${deployer.toLowerCase()}:${keccak256(initCode)}:${flags}`
  const known = found.get(key)
  if (known) return known
  const result = searchHookSalt(deployer, initCode, flags, maxTries)
  found.set(key, result)
  return result
}

const found = new Map<string, { salt: Hex; address: Address }>()

function searchHookSalt(deployer: Address, initCode: Hex, flags: number, maxTries: number): { salt: Hex; address: Address } {
  const prefix = concatBytes([new Uint8Array([0xff]), hexToBytes(deployer)])
  const codeHash = keccak256(initCode, 'bytes')
  const buffer = new Uint8Array(1 + 20 + 32 + 32)
  buffer.set(prefix, 0)
  buffer.set(codeHash, 53)
  for (let i = 0; i < maxTries; i++) {
    const salt = numberToBytes(i, { size: 32 })
    buffer.set(salt, 21)
    const hash = keccak256(buffer, 'bytes')
    // The address is the last 20 bytes; its low 14 bits sit in the final two bytes.
    const low = ((hash[30]! << 8) | hash[31]!) & HOOK_FLAG_MASK
    if (low === flags) return { salt: bytesToHex(salt), address: bytesToHex(hash.slice(12)) as Address }
  }
  throw new Error(`no hook salt found in ${maxTries} tries`)
}
