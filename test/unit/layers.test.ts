import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { layerOf, layerReport } from '../../scripts/import-graph.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

describe('the layers (docs/architecture.md, scripts/import-graph.ts LAYERS)', () => {
  it('at most 3 imports run back up the layers, none from the pure core', () => {
    const report = layerReport(root)
    expect(report.fromCore).toEqual([])
    expect(report.upward.length, report.upward.map((edge) => `${edge.from} -> ${edge.to}`).join('\n')).toBeLessThanOrEqual(3)
  })

  it('places every product file in a layer', () => {
    expect(layerOf('src/domain/records.ts')).toBe(0)
    expect(layerOf('src/chain/chain-keys.ts')).toBe(0)
    expect(layerOf('src/chain/clients.ts')).toBe(1)
    expect(layerOf('daemon/start-daemon.ts')).toBeGreaterThan(layerOf('src/services/order-service.ts')!)
    expect(layerOf('commands/review.ts')).toBeGreaterThan(layerOf('src/console/review/review-view.ts')!)
    // A launch method's folder spans the layers: its rules are core, its service a service, its worker the daemon's.
    expect(layerOf('src/launch-methods/dev-buy/domain/dev-buy-view.ts')).toBe(0)
    expect(layerOf('src/launch-methods/pooled-otc/chain/otc-chain.ts')).toBe(layerOf('src/launch-methods/pooled-buyers.ts'))
    expect(layerOf('src/launch-methods/pooled-otc/otc-service.ts')).toBe(layerOf('src/services/order-service.ts'))
    expect(layerOf('src/launch-methods/dev-buy/worker/dev-buy-worker.ts')).toBe(layerOf('daemon/start-daemon.ts'))
    expect(layerOf('src/launch-methods/dev-buy/wire-dev-buy.ts')).toBe(layerOf('daemon/start-daemon.ts'))
  })

  it('reports an import of a higher layer, a type import from the core included', () => {
    const tree = mkdtempSync(join(tmpdir(), 'prebuy-layers-'))
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(tree, path)), { recursive: true })
      writeFileSync(join(tree, path), text)
    }
    write('src/domain/replay.ts', "import type { Tick } from '../journal/journal-records.ts'\n")
    write('src/journal/journal-records.ts', "import { load } from '../domain/load.ts'\n")
    write('src/domain/load.ts', 'export const load = 1\n')
    write('daemon/files.ts', "import { DAEMON_FILE } from '../src/admin-client/daemon-files.ts'\n")
    write('src/admin-client/daemon-files.ts', "export const DAEMON_FILE = 'daemon.json'\n")
    const report = layerReport(tree)
    expect(report.upward.map(({ from, to }) => ({ from, to }))).toEqual(
      expect.arrayContaining([
        { from: 'src/domain/replay.ts', to: 'src/journal/journal-records.ts' },
        { from: 'daemon/files.ts', to: 'src/admin-client/daemon-files.ts' },
      ]),
    )
    expect(report.upward).toHaveLength(2)
    expect(report.fromCore).toEqual([{ from: 'src/domain/replay.ts', to: 'src/journal/journal-records.ts' }])
  })
})
