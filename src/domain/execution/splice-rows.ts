/**
 * Where a sorted book's rows go when a few rows leave and a few arrive, and the moves that put them there in place:
 * the rows between two edits keep their relative order and move by one common shift, so each such run is one
 * `copyWithin` (a memmove) per column, and the rows outside every edit's reach do not move at all. A PATCH that moves
 * an order from rank a to rank b moves only the rows between a and b.
 */
export interface RowSplice {
  /** Runs of surviving rows: old start, old end (exclusive), shift (new position = old position + shift), flat triples. */
  readonly runs: number[]
  /** New position of each arrival, in the order given. */
  readonly arrivalAt: Int32Array
  /** Rows after the splice. */
  readonly size: number
}

/**
 * The splice of a book of `size` rows: `removed`, old positions leaving (ascending); `before`, per arrival (in the
 * order they are to appear, non-decreasing), the old position it goes in front of (`size`: at the end). An arrival
 * in front of a leaving row lands where that row was.
 */
export function spliceRows(size: number, removed: readonly number[], before: readonly number[]): RowSplice {
  const runs: number[] = []
  const arrivalAt = new Int32Array(before.length)
  let r = 0
  let a = 0
  let shift = 0
  let start = 0
  for (;;) {
    const nextRemoved = r < removed.length ? removed[r]! : size
    const nextArrival = a < before.length ? before[a]! : size
    const at = Math.min(nextRemoved, nextArrival)
    if (at > start && shift !== 0) runs.push(start, at, shift)
    if (at > start) start = at
    if (r >= removed.length && a >= before.length) break
    if (nextArrival <= nextRemoved) {
      arrivalAt[a++] = at + shift
      shift++
    } else {
      r++
      shift--
      start = at + 1
    }
  }
  return { runs, arrivalAt, size: size - removed.length + before.length }
}

/**
 * Moves every column's surviving rows to their new positions (runs moving towards the front first, front to back, then
 * those moving back, back to front: no run overwrites rows not moved yet). The arrivals' rows are left to the caller.
 * Every column must have room for the new size.
 */
export function moveRows(columns: ReadonlyArray<Float64Array | Uint32Array | Uint8Array>, splice: RowSplice): void {
  const { runs } = splice
  for (let x = 0; x < runs.length; x += 3) {
    const shift = runs[x + 2]!
    if (shift < 0) for (const column of columns) column.copyWithin(runs[x]! + shift, runs[x]!, runs[x + 1]!)
  }
  for (let x = runs.length - 3; x >= 0; x -= 3) {
    const shift = runs[x + 2]!
    if (shift > 0) for (const column of columns) column.copyWithin(runs[x]! + shift, runs[x]!, runs[x + 1]!)
  }
}
