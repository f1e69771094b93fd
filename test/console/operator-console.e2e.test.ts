import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, REPO_ROOT } from '../daemon/helpers.ts'
import { TmuxTerminal } from '../support/tmux.ts'
import { ConsoleHarness } from './console-harness.ts'
import type { WatchView } from '../../src/console/watch/watch-view.ts'
import type { ReplayCheck } from '../../src/console/replay/replay-check.ts'
import type { LaunchDetail, LaunchSummary, OperatorOrderView, OperatorProjectDetail } from '../../src/admin-api/contract.ts'
import { createJournal } from '../../src/journal/journal.ts'
import { openStore, put } from '../../src/store/open-store.ts'

/**
 * The operator console's screens in a real terminal (tmux) against a running daemon on devnet. A screen that never
 * shows what a step waits for fails with that step's name and the last screen (60 s per wait, 90 s for the
 * reconnection), well inside the suite's 5-minute test budget (vitest.config.ts).
 */
describe('operator console, end to end', () => {
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
    const creator = await h.projectWithOrders('rocket', 3, (i) => ({ maxSpendUsdc: String(100 + i * 10), maxFdvUsdc: i === 2 ? '1' : null }), 'RKT')
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

  it('executions replay --check passes on the recorded launch; the screen steps through it in a terminal', async () => {
    const check = await runCli<ReplayCheck>(h.dataDir, ['executions', 'replay', 'rocket', '--check'])
    expect(check.code, check.stdout + check.stderr).toBe(0)
    expect(check.json).toMatchObject({ slug: 'rocket', differing: [] })
    expect(check.json.checkable).toBe(check.json.ticks)
    expect(check.json.ticks).toBeGreaterThan(0)

    const screen = new TmuxTerminal(`node bin/run.js executions replay rocket --data-dir ${h.dataDir}`, { cwd: REPO_ROOT })
    try {
      await screen.waitFor('the first tick', (s) => s.includes(`tick 1/${check.json.ticks}`) && s.includes('today’s code agrees'))
      screen.press('End')
      const last = await screen.waitFor('the last tick', (s) => s.includes(`tick ${check.json.ticks}/${check.json.ticks}`))
      expect(last).toMatch(/effective cap \$[\d.]+k · policy spend-desc-then-limit-desc/)
      screen.press('Home')
      await screen.waitFor('the first tick again', (s) => s.includes(`tick 1/${check.json.ticks}`))
      // Find the tick that bought: its rows show each buy's outcome and transaction.
      let bought = ''
      for (let i = 0; i < check.json.ticks && !bought; i++) {
        const now = screen.screen()
        if (/submitted\s+\$\d+\s+filled in block \d+ 0x[0-9a-f]{4}…/.test(now)) bought = now
        else {
          screen.press('Right')
          await screen.waitFor(`tick ${i + 2}`, (s) => s.includes(`tick ${Math.min(i + 2, check.json.ticks)}/`))
        }
      }
      expect(bought).not.toBe('')
      // Ctrl-C quits as cleanly as q (the screens handle it themselves: exit status 0, terminal restored).
      screen.press('C-c')
      await screen.waitFor('the exit', () => screen.exited().dead)
      expect(screen.exited().status).toBe(0)
    } finally {
      screen.close()
    }
  })

  it('executions replay --check fails on a journal altered behind the daemon’s back, naming the tick and the order', async () => {
    await h.stop()
    const store = await openStore({ dataDir: h.dataDir })
    let altered = ''
    try {
      const journal = createJournal(store)
      for await (const [key, decision] of journal.sub.decisions.iterator({ gte: 'rocket!', lt: 'rocket!\xff' })) {
        const buy = decision.orders.find((o) => o.verdict === 'submitted')
        if (!buy || !decision.inputs) continue
        buy.verdict = 'limit_below_cap'
        altered = buy.keyId
        await store.batch([put(journal.sub.decisions, key, decision)])
        break
      }
    } finally {
      await store.close()
      await h.restart() // whatever happened: the later tests need the daemon
    }
    expect(altered).not.toBe('')
    const check = await runCli<ReplayCheck>(h.dataDir, ['executions', 'replay', 'rocket', '--check'])
    expect(check.code).toBe(1)
    expect(check.json?.differing, check.stdout + check.stderr).toHaveLength(1)
    expect(check.json.differing[0]!.differences).toEqual([`order ${altered}: verdict limit_below_cap, today submitted`])
    const human = await runCli(h.dataDir, ['executions', 'replay', 'rocket', '--check'], { human: true })
    expect(human.code).toBe(1)
    expect(human.stdout).toContain(`  order ${altered}: verdict limit_below_cap, today submitted`)
    const missing = await runCli(h.dataDir, ['executions', 'replay', 'nosuch', '--check'], { human: true })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('No project has this slug.')
    await h.admin.approveRegistration(await h.submitRegistration('Later'), { slug: 'later', creator: `0x${'1'.repeat(40)}`, launchpad: 'zora', chain: 'base' })
    const waiting = await runCli(h.dataDir, ['executions', 'replay', 'later'], { human: true })
    expect(waiting.code).toBe(1)
    expect(waiting.stderr).toContain('Project later has not launched: nothing was executed yet.')
  })

  it('review: the queue updates live; approving a registration in the form creates the project (GET /projects) and shows its key once', async () => {
    await h.submitRegistration('Saturn')
    const screen = new TmuxTerminal(`node bin/run.js review --data-dir ${h.dataDir}`, { cwd: REPO_ROOT })
    try {
      await screen.waitFor('the queue', (s) => s.includes('1 registration ') && s.includes('Saturn · @saturn'))
      await h.submitRegistration('Venus')
      await screen.waitFor('the new submission', (s) => s.includes('2 registrations') && s.includes('Venus · @venus'))
      screen.press('Down')
      screen.press('Enter')
      await screen.waitFor('the detail', (s) => s.includes('registration from Saturn') && s.includes('team@saturn.example') && s.includes('IP 127.0.0.1'))
      screen.press('a')
      await screen.waitFor('the form', (s) => /› slug\s+saturn/.test(s))
      screen.press('Tab')
      screen.type('0x12')
      await screen.waitFor('the field error', (s) => s.includes('0x12 expected a 0x-prefixed 20-byte hex address'))
      screen.type('34567890123456789012345678901234567890')
      screen.press('Enter')
      const shown = await screen.waitFor('the key', (s) => s.includes("Project saturn created. Its owner's API key:"))
      const apiKey = /prebuy_[A-Za-z0-9_-]+/.exec(shown)?.[0]
      expect(apiKey).toBeDefined()
      expect(shown).toContain('cannot be recovered')
      screen.press('Enter')
      await screen.waitFor('the queue again', (s) => s.includes('0 registrations') === false && s.includes('1 registration ') && !s.includes(apiKey!))
      // The key shown is the owner's working key: it lists the new project.
      const projects = await h.call('GET', '/projects', apiKey)
      expect(projects.status).toBe(200)
      expect(JSON.stringify(projects.body.data)).toContain('"saturn"')
      screen.press('q')
      await screen.waitFor('the exit', () => screen.exited().dead)
      expect(screen.exited().status).toBe(0)
    } finally {
      screen.close()
    }
    const queue = await runCli<{ counts: string; rows: Array<{ name: string }> }>(h.dataDir, ['review'])
    expect(queue.code, queue.stderr).toBe(0)
    expect(queue.json.counts).toBe('0 key requests · 1 registration · 0 feedback pending')
    expect(queue.json.rows.map((r) => r.name)).toEqual(['Venus'])
  })

  it("review: an owner's change of what the orders buy shows under the queue; X rejects it with the reason, C confirms the next", async () => {
    const approved = await h.admin.approveRegistration(await h.submitRegistration('Pluto'), {
      slug: 'pluto',
      creator: `0x${'2'.repeat(40)}`,
      launchpad: 'clanker',
      chain: 'base',
    })
    const ownerKey = approved.key.apiKey
    const proposed = await h.call('PATCH', '/projects/pluto/launch-binding', ownerKey, { expectedTokenAddress: `0x${'a7'.repeat(20)}` })
    expect(proposed.status).toBe(202)
    const screen = new TmuxTerminal(`node bin/run.js review --data-dir ${h.dataDir}`, { cwd: REPO_ROOT })
    try {
      await screen.waitFor(
        'the change',
        (s) => s.includes('Owner changes of what the orders buy (1)') && /pluto launch_binding: .*awaiting confirmation/.test(s.replace(/\s+/g, ' ')),
      )
      screen.type('X')
      await screen.waitFor('the reason prompt', (s) => s.includes('Reject the launch_binding change of pluto'))
      screen.type('not the project token')
      screen.press('Enter')
      await screen.waitFor('the rejection', (s) => s.includes('rejected the launch_binding change of pluto') && s.includes('No owner change waits.'))
      // The reason is public on the project.
      const detail = (await h.call('GET', '/projects/pluto', ownerKey)).body
      expect(detail.changes.history[0]).toMatchObject({ kind: 'launch_binding', outcome: 'rejected', reason: 'not the project token' })
      expect(detail.ownerStats.expectedTokenAddress).toBeNull()

      await h.call('PATCH', '/projects/pluto/launch-binding', ownerKey, { expectedTokenAddress: `0x${'b8'.repeat(20)}` })
      await screen.waitFor('the next change', (s) => s.includes('Owner changes of what the orders buy (1)'))
      screen.type('C')
      await screen.waitFor('the confirmation', (s) => s.includes('confirmed the launch_binding change of pluto: in force now'))
      screen.press('q')
      await screen.waitFor('the exit', () => screen.exited().dead)
    } finally {
      screen.close()
    }
    // No order predated it: in force at once, in the history.
    const after = (await h.call('GET', '/projects/pluto', ownerKey)).body
    expect(after.ownerStats.expectedTokenAddress?.toLowerCase()).toBe(`0x${'b8'.repeat(20)}`)
    expect(after.changes.history[0]).toMatchObject({ outcome: 'effective', by: 'owner' })
  })

  it('the one-shot commands: launches list/show, projects show/verify/edit, orders list, keys rotate and link-social', async () => {
    const launches = await runCli<{ items: LaunchSummary[] }>(h.dataDir, ['launches', 'list'])
    expect(launches.code, launches.stderr).toBe(0)
    const rocket = launches.json.items.find((l) => l.slug === 'rocket')!
    expect(rocket).toMatchObject({ symbol: 'RKT', chain: 'base', launchpad: 'clanker' })
    expect(rocket.orders.filled.count).toBe(2)
    expect(rocket.orders.active).toEqual({ count: 1, spendUsdc: '120' })
    expect(rocket.latestTick?.effectiveCapAtoms).toMatch(/^\d+$/)
    const shown = await runCli<LaunchDetail>(h.dataDir, ['launches', 'show', 'rocket'])
    expect(shown.json.launch.slug).toBe('rocket')
    expect(shown.json.summary.orders.filled.count).toBe(2)
    const humanShow = await runCli(h.dataDir, ['launches', 'show', 'rocket'], { human: true })
    expect(humanShow.stdout).toMatch(/^rocket: Rocket \(RKT\) on base via clanker$/m)
    expect(humanShow.stdout).toMatch(/^Latest: {3}block \d+ · FDV \$/m)
    const notLaunched = await runCli(h.dataDir, ['launches', 'show', 'later'], { human: true })
    expect(notLaunched.code).toBe(1)
    expect(notLaunched.stderr).toContain('Project later has not launched yet.')

    const project = await runCli<OperatorProjectDetail>(h.dataDir, ['projects', 'show', 'rocket'])
    expect(project.json.project.slug).toBe('rocket')
    expect(project.json.orders.filled.count).toBe(2)
    expect(project.json.launch?.symbol).toBe('RKT')
    const unverified = await runCli<{ project: { profile: { status: { isLaunchVerified: boolean } } } }>(h.dataDir, ['projects', 'verify', 'rocket', '--unset'])
    expect(unverified.json.project.profile.status.isLaunchVerified).toBe(false)
    await runCli(h.dataDir, ['projects', 'verify', 'rocket'])
    expect((await runCli<OperatorProjectDetail>(h.dataDir, ['projects', 'show', 'rocket'])).json.project.profile.status.isLaunchVerified).toBe(true)
    const edited = await runCli(h.dataDir, ['projects', 'edit', 'rocket', '--display-name', 'Rocket Two'])
    expect(edited.code, edited.stderr).toBe(0)
    expect((await runCli<OperatorProjectDetail>(h.dataDir, ['projects', 'show', 'rocket'])).json.project.profile.identity.displayName).toBe('Rocket Two')

    const orders = await runCli<{ items: OperatorOrderView[] }>(h.dataDir, ['orders', 'list', '--project', 'rocket'])
    expect(orders.json.items.map((o) => [o.label, o.status])).toEqual([
      ['rocket-buyer-0', 'filled'],
      ['rocket-buyer-1', 'filled'],
      ['rocket-buyer-2', 'active'],
    ])
    expect(orders.json.items[0]!.execution?.txHash).toMatch(/^0x/)
    const byKey = await runCli<{ items: OperatorOrderView[] }>(h.dataDir, ['orders', 'list', '--key', 'rocket-buyer-2'])
    expect(byKey.json.items.map((o) => o.slug)).toEqual(['rocket'])
    const neither = await runCli(h.dataDir, ['orders', 'list'], { human: true })
    expect(neither.code).toBe(2)
    expect(neither.stderr).toMatch(/Exactly one of the following must be provided: --key, --project/)

    // Rotation: same key id, label and wallet; the new secret works, the old one is refused at once.
    const before = (
      await runCli<{ items: Array<{ keyId: string; label: string; serviceWalletAddress: string }> }>(h.dataDir, ['keys', 'list'])
    ).json.items.find((k) => k.label === 'rocket-buyer-2')!
    const rotated = await runCli<{ key: { apiKey: string; keyId: string; label: string; serviceWalletAddress: string } }>(h.dataDir, [
      'keys',
      'rotate',
      'rocket-buyer-2',
    ])
    expect(rotated.code, rotated.stderr).toBe(0)
    expect(rotated.json.key).toMatchObject({ keyId: before.keyId, label: 'rocket-buyer-2', serviceWalletAddress: before.serviceWalletAddress })
    const withNew = await h.call('GET', '/orders', rotated.json.key.apiKey)
    expect(withNew.status).toBe(200)
    expect(withNew.body.data).toEqual([expect.objectContaining({ slug: 'rocket', status: 'active' })])
    const humanRotate = await runCli(h.dataDir, ['keys', 'rotate', 'rocket-buyer-2'], { human: true })
    expect(humanRotate.stdout).toContain('the old API key no longer works')
    expect((await h.call('GET', '/orders', rotated.json.key.apiKey)).status).toBe(401)

    const linked = await runCli<{ social: { followerCount: number } }>(h.dataDir, [
      'keys',
      'link-social',
      'rocket-buyer-1',
      '--username',
      'starwatcher',
      '--url',
      'https://social.example/starwatcher',
      '--followers',
      '4200',
    ])
    expect(linked.code, linked.stderr).toBe(0)
    expect(linked.json.social.followerCount).toBe(4200)
    // The owner's key (its plaintext was never kept): rotated to read the buyers as the owner.
    const ownerKey = (await runCli<{ key: { apiKey: string } }>(h.dataDir, ['keys', 'rotate', 'rocket'])).json.key.apiKey
    const buyers = await h.call('GET', '/projects/rocket/buyers', ownerKey)
    expect(buyers.status).toBe(200)
    expect(buyers.body.data[0]).toMatchObject({ socialUsername: 'starwatcher', followerCount: 4200 })
    const missingFlags = await runCli(h.dataDir, ['keys', 'link-social', 'rocket-buyer-1', '--username', 'x'], { human: true })
    expect(missingFlags.code).toBe(2)
    expect(missingFlags.stderr).toContain('give --username, --url and --followers (or --unlink)')
    const unlinked = await runCli<{ social: null }>(h.dataDir, ['keys', 'link-social', 'rocket-buyer-1', '--unlink'])
    expect(unlinked.json.social).toBeNull()
  })

  it('a wrong operator token: one clear line and exit 1, for one-shot commands and screens alike', async () => {
    const tokenFile = join(h.dataDir, 'operator-token')
    const token = await readFile(tokenFile, 'utf8')
    await writeFile(tokenFile, 'prebuy_op_wrong')
    try {
      const list = await runCli(h.dataDir, ['launches', 'list'], { human: true })
      expect(list.code).toBe(1)
      expect(list.stderr.trim().split('\n')).toEqual([expect.stringContaining('A valid operator token is required.')])
      const watch = await runCli(h.dataDir, ['launches', 'watch'], { human: true })
      expect(watch.code).toBe(1)
      // oclif wraps the error line at the terminal width.
      expect(watch.stderr.replace(/\s+/g, ' ')).toContain('Error: the daemon refused the event stream (401): A valid operator token is required.')
    } finally {
      await writeFile(tokenFile, token)
    }
  })

  it('keys rotate shows its steps in a terminal (listr2) and the new key once', async () => {
    const screen = new TmuxTerminal(`node bin/run.js keys rotate rocket-buyer-0 --data-dir ${h.dataDir}`, { cwd: REPO_ROOT })
    try {
      const done = await screen.waitFor('the exit', (s) => /\[exit \d+\]/.test(s))
      expect(screen.exited().status).toBe(0)
      expect(done).toMatch(/✔ Found key rocket-buyer-0 \(key_[0-9a-f]+, wallet 0x[0-9a-fA-F]{40}\)/)
      expect(done).toContain('✔ Issue the new secret and revoke the old one (one write)')
      expect(done).toMatch(/New API key: {2}prebuy_\S+/)
    } finally {
      screen.close()
    }
  })

  it("launches watch shows the block's batch (one swap, one price): clearing price per token and as FDV, buyers, total spent; replay --check reproduces it", async () => {
    const creator = await h.projectWithOrders('comet', 3, (i) => ({ maxSpendUsdc: String(40 + i * 10), maxFdvUsdc: null }), 'CMT')
    await h.waitForBatchApprovals('comet', 40n)
    const screen = new TmuxTerminal(`node bin/run.js launches watch comet --data-dir ${h.dataDir}`, { cwd: REPO_ROOT })
    try {
      await screen.waitFor('the waiting book', (s) => s.includes('comet · base · clanker · open_market · 3 orders'))
      await h.admin.devnetLaunch({ launchpad: 'clanker', creator, chain: 'base', name: 'Comet', symbol: 'CMT' })
      const shown = await screen.waitFor('the batch executed', (s) =>
        /block \d+ batch 0 · 3 buyers · \$150 spent · clearing \$[\d.]+ per token \(FDV \$[\d.]+k?\)/.test(s),
      )
      expect(shown).toMatch(/filled 3 \(\$150\)/)
    } finally {
      screen.close()
    }
    const json = await runCli<WatchView>(h.dataDir, ['launches', 'watch', 'comet'])
    expect(json.json.launched[0]!.batches[0]).toMatch(/^block \d+ batch 0 · 3 buyers · \$150 spent · clearing /)
    const check = await runCli<ReplayCheck>(h.dataDir, ['executions', 'replay', 'comet', '--check'])
    expect(check.code, check.stdout + check.stderr).toBe(0)
    expect(check.json.batches).toMatchObject({ count: 1, checkable: 1, allocationsChecked: 1, differing: [] })
  })

  it('a daemon that is not running: one clear line and exit 1', async () => {
    const result = await runCli(`${h.dataDir}-missing`, ['launches', 'watch'], { human: true })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('no daemon is running for data dir')
  })
})
