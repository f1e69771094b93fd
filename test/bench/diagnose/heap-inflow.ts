/**
 * Sums a sampling heap profile (sample-heap.mjs) by allocating frame and by the innermost frame of the project's own
 * code (daemon/, src/), largest first: `npx tsx test/bench/diagnose/heap-inflow.ts <profile> [rows]`.
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/** The parts of a V8 sampling heap profile (the inspector's HeapProfiler.SamplingHeapProfile) read here. */
export interface SamplingHeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  selfSize: number
  children: SamplingHeapProfileNode[]
}

export interface HeapInflow {
  totalBytes: number
  /** Bytes by allocating frame, largest first. */
  bySite: Array<[frame: string, bytes: number]>
  /** Bytes by the innermost frame of the project's own code (daemon/, src/) on the allocating stack, largest first. */
  byOwnFrame: Array<[frame: string, bytes: number]>
}

/** The repository's root as a file URL (this file is test/bench/diagnose/heap-inflow.ts). */
const REPO_ROOT_URL = new URL('../../../', import.meta.url).href

/**
 * The profile's sampled bytes by frame and by own frame. Our own code is what lies under `root`'s `daemon/` or `src/`
 * (a repository checked out under a folder called `src` is no exception); frames under `root` are shown relative to it.
 */
export function heapInflow(profile: { head: SamplingHeapProfileNode }, root: string = REPO_ROOT_URL): HeapInflow {
  const bySite = new Map<string, number>()
  const byOwn = new Map<string, number>()
  let total = 0
  const base = root.endsWith('/') ? root : `${root}/`
  const relative = (url: string) => (url.startsWith(base) ? url.slice(base.length) : url)
  const ours = (url: string) => /^(daemon|src)\//.test(relative(url)) && url.startsWith(base)
  const frameOf = (callFrame: SamplingHeapProfileNode['callFrame']) =>
    `${callFrame.functionName || '(anonymous)'} ${relative(callFrame.url)}:${callFrame.lineNumber + 1}:${callFrame.columnNumber + 1}`
  const walk = (node: SamplingHeapProfileNode, own: string): void => {
    const frame = frameOf(node.callFrame)
    const ownHere = ours(node.callFrame.url) ? frame : own
    if (node.selfSize > 0) {
      total += node.selfSize
      bySite.set(frame, (bySite.get(frame) ?? 0) + node.selfSize)
      byOwn.set(ownHere, (byOwn.get(ownHere) ?? 0) + node.selfSize)
    }
    for (const child of node.children) walk(child, ownHere)
  }
  walk(profile.head, '(no own frame)')
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1])
  return { totalBytes: total, bySite: sorted(bySite), byOwnFrame: sorted(byOwn) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, rowsArg] = process.argv.slice(2)
  if (!file) throw new Error('usage: npx tsx test/bench/diagnose/heap-inflow.ts <profile> [rows]')
  const rows = Number(rowsArg ?? 25)
  const { totalBytes, bySite, byOwnFrame } = heapInflow(JSON.parse(readFileSync(file, 'utf8')))
  const mb = (bytes: number) => (bytes / 1e6).toFixed(2).padStart(7)
  console.log(`${mb(totalBytes)} MB sampled`)
  console.log('-- by allocating frame')
  for (const [frame, bytes] of bySite.slice(0, rows)) console.log(mb(bytes), frame)
  console.log("-- by the innermost frame of the project's code")
  for (const [frame, bytes] of byOwnFrame.slice(0, rows)) console.log(mb(bytes), frame)
}
