import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DEVNET_DOOR, wingReport } from '../../scripts/import-graph.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

describe('the devnet wing (docs/devnet.md)', () => {
  it('no product file imports devnet/; the daemon reaches it through its one door', () => {
    const report = wingReport(root)
    expect(report.violations).toEqual([])
    expect(report.door).toEqual([DEVNET_DOOR])
    // The wing is really read: it imports the product a lot, and itself.
    expect(report.wingFiles).toBeGreaterThan(20)
    expect(report.counts.wingToProduct).toBeGreaterThan(0)
  })

  it('reports a product file that imports the wing, statically or dynamically', () => {
    const tree = mkdtempSync(join(tmpdir(), 'prebuy-wing-'))
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(tree, path)), { recursive: true })
      writeFileSync(join(tree, path), text)
    }
    write('devnet/chain/faucet.ts', "import { PrebuyError } from '../../src/common/errors.ts'\n")
    write('src/common/errors.ts', 'export class PrebuyError extends Error {}\n')
    write('src/wallets/top-up.ts', "import {\n  fundAccount,\n} from '../../devnet/chain/faucet.ts'\n")
    write('daemon/start-daemon.ts', "const wing = await import('../devnet/start-devnet-wing.ts')\n")
    write(DEVNET_DOOR.from, "const wing = await import('../devnet/start-devnet-wing.ts')\n")
    const report = wingReport(tree)
    expect(report.violations).toHaveLength(2)
    expect(report.violations).toEqual(
      expect.arrayContaining([
        { from: 'src/wallets/top-up.ts', to: 'devnet/chain/faucet.ts' },
        { from: 'daemon/start-daemon.ts', to: 'devnet/start-devnet-wing.ts' },
      ]),
    )
    expect(report.door).toEqual([DEVNET_DOOR])
    expect(report.counts.wingToProduct).toBe(1)
  })
})
