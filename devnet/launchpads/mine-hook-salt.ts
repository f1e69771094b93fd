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

/** Tries between two yields to the event loop: a few milliseconds of hashing. */
const TRIES_PER_SLICE = 2_000

/** Salts found in this process, by deployer, init code hash and flags (both devnet chains mine the same hooks). */
const found = new Map<string, { salt: Hex; address: Address }>()

/**
 * Finds a CREATE2 salt for which `deployer` places `initCode` at an address whose low 14 bits are exactly `flags`.
 * About 16,000 tries on average; deterministic, so a redeploy finds the same salt.
 *
 * Asynchronous, yielding every few milliseconds, and remembered: mined in one stretch, the daemon's start-up hashed
 * for seconds under load with the event loop blocked while the other chain's deployment had a JSON-RPC call in flight,
 * whose timeout then fired although anvil had answered ("start-up failed: The operation was aborted due to timeout").
 */
export async function mineHookSalt(deployer: Address, initCode: Hex, flags: number, maxTries = 2_000_000): Promise<{ salt: Hex; address: Address }> {
  const codeHash = keccak256(initCode, 'bytes')
  const memo = `${deployer.toLowerCase()}:${bytesToHex(codeHash)}:${flags}`
  const known = found.get(memo)
  if (known) return known
  const buffer = new Uint8Array(1 + 20 + 32 + 32)
  buffer.set(concatBytes([new Uint8Array([0xff]), hexToBytes(deployer)]), 0)
  buffer.set(codeHash, 53)
  for (let i = 0; i < maxTries; i++) {
    if (i > 0 && i % TRIES_PER_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    const salt = numberToBytes(i, { size: 32 })
    buffer.set(salt, 21)
    const hash = keccak256(buffer, 'bytes')
    // The address is the last 20 bytes; its low 14 bits sit in the final two bytes.
    const low = ((hash[30]! << 8) | hash[31]!) & HOOK_FLAG_MASK
    if (low === flags) {
      const result = { salt: bytesToHex(salt), address: bytesToHex(hash.slice(12)) as Address }
      found.set(memo, result)
      return result
    }
  }
  throw new Error(`no hook salt found in ${maxTries} tries`)
}
