import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { boundHeapGrowth } from '../../../../daemon/process/bound-heap-growth.ts'

const REPO = join(import.meta.dirname, '..', '..', '..', '..')

describe('bounding V8’s heap growth (bound-heap-growth.ts)', () => {
  it('leaves an operator’s own setting alone, on the command line or in NODE_OPTIONS', () => {
    expect(boundHeapGrowth({ NODE_OPTIONS: '--max-old-space-size=512 --heap-growing-percent=20' }, [])).toBe(false)
    expect(boundHeapGrowth({}, ['--heap_growing_percent=80'])).toBe(false)
  })

  it('keeps the committed old generation near the live size under churn (a child process, with and without)', () => {
    // ~120 MB kept alive, then ~1.5 GB of garbage: V8's own factor lets the old generation grow to several times the
    // live size. The old generation's committed size is what the growth factor governs, so it is what is compared: the
    // whole heap also holds the young generation, whose default size differs between Node lines (Node 24's took the
    // bounded heap to ~404 MB of ~650, a ratio a loaded CI run pushed over 0.6). Measured old space, without/with:
    // Node 20 ~490-530/~165 MB, Node 24 ~585/~215 MB.
    const script = (bound: boolean) => `
      ${bound ? `const { boundHeapGrowth } = await import(${JSON.stringify(join(REPO, 'daemon/process/bound-heap-growth.ts'))}); boundHeapGrowth({}, []);` : ''}
      const { getHeapSpaceStatistics } = await import('node:v8')
      const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size
      const live = []; for (let i = 0; i < 800_000; i++) live.push({ a: i, b: 'x' + i, c: [i] })
      let max = 0
      for (let r = 0; r < 30; r++) { const g = []; for (let i = 0; i < 250_000; i++) g.push({ a: i, b: 'y' + i, c: [i, i] }); max = Math.max(max, oldSpace()) }
      process.stdout.write(String(Math.round(max / 2 ** 20) + live.length * 0))`
    const maxHeapMb = (bound: boolean) =>
      Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(bound)], { cwd: REPO, encoding: 'utf8' }))
    const unbounded = maxHeapMb(false)
    const bounded = maxHeapMb(true)
    expect(bounded).toBeLessThan(unbounded * 0.6)
  }, 120_000)
})
