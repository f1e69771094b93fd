import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, REPO_ROOT } from '../daemon/helpers.ts'
import { TmuxTerminal } from '../support/tmux.ts'
import { ConsoleHarness } from './console-harness.ts'
import type { WatchView } from '../../src/console/watch/watch-view.ts'

/** `prebuy launches watch` in a real terminal (tmux) against a running daemon on devnet. */
describe('launches watch, end to end', () => {
  let h: ConsoleHarness
  let terminal: TmuxTerminal | undefined
  beforeAll(async () => {
    h = await ConsoleHarness.start('console-watch')
  })
  afterAll(async () => {
    terminal?.close()
    await h?.remove()
  })

  it('shows the waiting book, a devnet launch filling its orders, survives a daemon restart and quits on q', async () => {
    const creator = await h.projectWithOrders('rocket', 3, (i) => ({ maxSpendUsdc: String(100 + i * 10), maxFdvUsdc: i === 2 ? '1' : null }))
    terminal = new TmuxTerminal(`node bin/run.js launches watch --data-dir ${h.dataDir}`, { cwd: REPO_ROOT })
    await terminal.waitFor('the waiting book', (s) => s.includes('Waiting to launch') && s.includes('rocket · base · clanker · open_market · 3 orders · $330'))

    await h.admin.devnetLaunch({ launchpad: 'clanker', creator, chain: 'base', name: 'Rocket', symbol: 'RKT' })
    const filled = await terminal.waitFor('two fills', (s) => /filled 2 \(\$2\d\d(\.\d+)?\)/.test(s) && s.includes('waiting for the price 1 ($120)'))
    expect(filled).toMatch(/rocket · RKT · base · clanker · token 0x[0-9a-f]{4}…[0-9a-f]{4} · pool 0x[0-9a-f]{4}…[0-9a-f]{4}/i)
    expect(filled).toMatch(/spot FDV \$[\d.]+k · fee now [\d.]+% · next block [\d.]+% · effective cap \$[\d.]+k/)
    expect(filled).toMatch(/block \d+ mined 2 buys tx 0x/)
    expect(filled).toMatch(/block \d+ sent 2 buys/)
    expect(filled).toMatch(/latency median \d+ blocks? \/ [\d.]+ s · max \d+ blocks? \/ [\d.]+ s \(2 fills\)/)
    expect(filled).toContain('cap since launch ')

    await h.stop()
    await terminal.waitFor('the daemon gone', (s) => s.includes('daemon unreachable'))
    await h.restart()
    const back = await terminal.waitFor('the reconnection', (s) => s.includes('launches watch · live') && /filled 2 \(/.test(s), 90_000)
    expect(back).toContain('waiting for the price 1 ($120)')

    terminal.press('q')
    await terminal.waitFor('the exit', () => terminal!.exited().dead)
    expect(terminal.exited().status).toBe(0)
  })

  it('--json prints the dashboard once, as the view model', async () => {
    const result = await runCli<WatchView>(h.dataDir, ['launches', 'watch', 'rocket'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json.title).toBe('prebuy · launches watch rocket')
    expect(result.json.launched.map((p) => p.slug)).toEqual(['rocket'])
    expect(result.json.launched[0]!.orders.find((o) => o.label === 'filled')!.count).toBe(2)
    const human = await runCli(h.dataDir, ['launches', 'watch'], { human: true })
    expect(human.stdout).toContain('prebuy · launches watch · live')
    expect(human.stdout).toMatch(/orders {2}waiting for the price 1 \(\$120\) · eligible 0 · executing 0 · filled 2/)
  })

  it('a daemon that is not running: one clear line and exit 1', async () => {
    const result = await runCli(`${h.dataDir}-missing`, ['launches', 'watch'], { human: true })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('no daemon is running for data dir')
  })
})
