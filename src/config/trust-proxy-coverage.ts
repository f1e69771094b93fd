import { isIP } from 'node:net'

/**
 * Which whole address space a trustProxy list would trust, if any. Believing X-Forwarded-For from every client of a
 * family lets any of them pick the address the per-IP limits and the blocklist see, as `true` would; a list of CIDRs
 * that together cover a family (`["0.0.0.0/1","128.0.0.0/1"]`, `0.0.0.0/0`, `::/0`) is the same thing written longer.
 * IPv4 entries count as their IPv4-mapped IPv6 range (`::ffff:a.b.c.d`), as the proxy-address matcher treats them.
 */
export type TrustedSpace = 'every IPv4 address' | 'every public IPv6 address' | 'every IPv6 address'

const V6_BITS = 128n
const MAPPED_V4 = { start: 0xffffn << 32n, end: (0xffffn << 32n) + (1n << 32n) - 1n }
/** 2000::/3, the global unicast block: every public IPv6 client. */
const GLOBAL_V6 = { start: 1n << 125n, end: (1n << 126n) - 1n }
const ALL_V6 = { start: 0n, end: (1n << V6_BITS) - 1n }

function v4ToBigint(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) + BigInt(Number(part)), 0n)
}

function v6ToBigint(address: string): bigint {
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) is two hex groups.
  const lastColon = address.lastIndexOf(':')
  const v4Tail = address.includes('.', lastColon) ? v4ToBigint(address.slice(lastColon + 1)) : undefined
  const text = v4Tail === undefined ? address : `${address.slice(0, lastColon + 1)}${(v4Tail >> 16n).toString(16)}:${(v4Tail & 0xffffn).toString(16)}`
  const parse = (part: string | undefined): bigint[] => (part ? part.split(':').map((group) => BigInt(Number.parseInt(group, 16))) : [])
  const [head, rest] = text.split('::')
  const left = parse(head)
  const right = parse(rest)
  const groups = rest === undefined ? left : [...left, ...Array<bigint>(8 - left.length - right.length).fill(0n), ...right]
  return groups.reduce((value, group) => (value << 16n) + group, 0n)
}

/** The entry as an inclusive range of IPv6 integers (IPv4 as its mapped range). */
function rangeOf(entry: string): { start: bigint; end: bigint } | undefined {
  const [address = '', prefixText] = entry.split('/')
  const family = isIP(address)
  if (family === 0) return undefined
  const v4 = family === 4
  const bits = v4 ? 32n : V6_BITS
  const prefix = prefixText === undefined ? bits : BigInt(Number(prefixText))
  if (!/^\d{1,3}$/.test(prefixText ?? '0') || prefix > bits) return undefined // refused by the entry's own check
  const base = v4 ? MAPPED_V4.start + v4ToBigint(address) : v6ToBigint(address)
  const size = 1n << (bits - prefix)
  const start = base - (base % size)
  return { start, end: start + size - 1n }
}

function covers(ranges: Array<{ start: bigint; end: bigint }>, target: { start: bigint; end: bigint }): boolean {
  let next = target.start
  for (const range of [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    if (range.start > next) break
    if (range.end >= next) next = range.end + 1n
    if (next > target.end) return true
  }
  return next > target.end
}

/** The whole space `entries` (addresses and CIDRs, already checked as such) trust, or undefined. */
export function trustedSpace(entries: readonly string[]): TrustedSpace | undefined {
  const ranges = entries.map(rangeOf).filter((range) => range !== undefined)
  if (covers(ranges, ALL_V6)) return 'every IPv6 address'
  if (covers(ranges, MAPPED_V4)) return 'every IPv4 address'
  if (covers(ranges, GLOBAL_V6)) return 'every public IPv6 address'
  return undefined
}
