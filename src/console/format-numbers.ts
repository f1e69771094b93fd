/** Compact figures for the console's screens (plain text: the same strings go to a pipe). */

const SUFFIXES: ReadonlyArray<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
]

/** A USD amount, compact: $950, $12.3k, $1.23M. */
export function usd(value: number): string {
  if (!Number.isFinite(value)) return '∞'
  const sign = value < 0 ? '-' : ''
  const abs = Math.abs(value)
  for (const [size, suffix] of SUFFIXES) {
    if (abs >= size) return `${sign}$${trim((abs / size).toPrecision(3))}${suffix}`
  }
  return `${sign}$${abs >= 100 ? Math.round(abs).toString() : trim(abs.toFixed(2))}`
}

/** Stablecoin atoms (6 decimals, a decimal string) as compact USD; null: infinite. */
export const usdAtoms = (atoms: string | null): string => (atoms === null ? '∞' : usd(Number(atoms) / 1e6))

/** A decimal USD string (an order's spend or limit) as compact USD. */
export const usdDecimal = (value: string): string => usd(Number(value))

/** A fraction (0.125) as a percentage (12.5%). */
export const percent = (fraction: number): string => `${trim((fraction * 100).toFixed(2))}%`

const trim = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text)

/** 0x1234…abcd */
export const shortHex = (hex: string, keep = 4): string => (hex.length <= 2 + keep * 2 + 1 ? hex : `${hex.slice(0, 2 + keep)}…${hex.slice(-keep)}`)

const BARS = '▁▂▃▄▅▆▇█'

/**
 * A sparkline of positive values on a log scale (a decaying fee moves the cap over orders of magnitude), resampled to
 * at most `width` points (the last value of each bucket); `·` for an infinite value.
 */
export function sparkline(values: ReadonlyArray<number | null>, width: number): string {
  if (values.length === 0) return ''
  const points: Array<number | null> = []
  const buckets = Math.min(width, values.length)
  for (let b = 0; b < buckets; b++) points.push(values[Math.floor(((b + 1) * values.length) / buckets) - 1] ?? null)
  const logs = points.map((v) => (v === null || !(v > 0) ? null : Math.log(v)))
  const finite = logs.filter((v): v is number => v !== null)
  const low = Math.min(...finite)
  const high = Math.max(...finite)
  return logs
    .map((v) => {
      if (v === null) return '·'
      if (high === low) return BARS[3]
      return BARS[Math.min(BARS.length - 1, Math.floor(((v - low) / (high - low)) * BARS.length))]
    })
    .join('')
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
