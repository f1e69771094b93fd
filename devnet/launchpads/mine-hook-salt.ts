import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
 * Where found salts are kept between processes: every devnet start mines the same five hooks per chain (same deployer
 * nonce, same init code), about 16,000 keccaks each in JavaScript. That is a fraction of a second on an idle machine
 * but 55-65 s of a first start on the shared 2-core machine at load average ~30 (20,000 keccaks took 6.8 s there,
 * 2026-11-26), which pushed a first `npm start` past the tests' 120 s. A salt read back is checked (one keccak), so a
 * stale or damaged file only costs the mining again.
 */
export const HOOK_SALT_CACHE_FILE = join(tmpdir(), 'prebuy-devnet-hook-salts.json')
/** Entries kept in the cache file (each a few hundred bytes): far more than the hooks of any artifact version. */
const CACHE_ENTRIES = 500

/** The CREATE2 address `deployer` gives `initCode` (hash `codeHash`) with `salt`, and whether its low bits are `flags`. */
function create2(prefix: Uint8Array, codeHash: Uint8Array, salt: Uint8Array, flags: number): { match: boolean; address: Address } {
  const buffer = new Uint8Array(1 + 20 + 32 + 32)
  buffer.set(prefix, 0)
  buffer.set(salt, 21)
  buffer.set(codeHash, 53)
  const hash = keccak256(buffer, 'bytes')
  // The address is the last 20 bytes; its low 14 bits sit in the final two bytes.
  const low = ((hash[30]! << 8) | hash[31]!) & HOOK_FLAG_MASK
  return { match: low === flags, address: bytesToHex(hash.slice(12)) as Address }
}

function readCache(file: string): Record<string, Hex> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, Hex>) : {}
  } catch {
    return {}
  }
}

/** Best effort, whole or not at all (a temporary file and a rename): a cache that cannot be written is only slower. */
function writeCache(file: string, key: string, salt: Hex): void {
  try {
    const entries = Object.entries({ ...readCache(file), [key]: salt })
    const temporary = `${file}.tmp-${process.pid}`
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(entries.slice(-CACHE_ENTRIES))))
    renameSync(temporary, file)
  } catch {
    // A read-only or full temporary directory: the next start mines again.
  }
}

/** Tries between two yields to the event loop: a few milliseconds of hashing. */
const TRIES_PER_SLICE = 2_000

/**
 * Finds a CREATE2 salt for which `deployer` places `initCode` at an address whose low 14 bits are exactly `flags`.
 * About 16,000 tries on average; deterministic, so a redeploy finds the same salt. Found salts are kept in `cacheFile`
 * (HOOK_SALT_CACHE_FILE; `null`: none) and checked when read back.
 *
 * Asynchronous, yielding every few milliseconds: mined in one stretch, the daemon's start-up hashed for seconds under
 * load with the event loop blocked while the other chain's deployment had a JSON-RPC call in flight, whose timeout then
 * fired although anvil had answered ("start-up failed: The operation was aborted due to timeout").
 */
export async function mineHookSalt(
  deployer: Address,
  initCode: Hex,
  flags: number,
  maxTries = 2_000_000,
  cacheFile: string | null = HOOK_SALT_CACHE_FILE,
): Promise<{ salt: Hex; address: Address }> {
  const prefix = concatBytes([new Uint8Array([0xff]), hexToBytes(deployer)])
  const codeHash = keccak256(initCode, 'bytes')
  const key = `${deployer.toLowerCase()}:${bytesToHex(codeHash)}:${flags}`
  const cached = cacheFile ? readCache(cacheFile)[key] : undefined
  if (typeof cached === 'string' && /^0x[0-9a-f]{64}$/.test(cached)) {
    const found = create2(prefix, codeHash, hexToBytes(cached), flags)
    if (found.match) return { salt: cached, address: found.address }
  }
  for (let i = 0; i < maxTries; i++) {
    if (i > 0 && i % TRIES_PER_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    const salt = numberToBytes(i, { size: 32 })
    const found = create2(prefix, codeHash, salt, flags)
    if (found.match) {
      if (cacheFile) writeCache(cacheFile, key, bytesToHex(salt))
      return { salt: bytesToHex(salt), address: found.address }
    }
  }
  throw new Error(`no hook salt found in ${maxTries} tries`)
}
