import { Args } from '@oclif/core'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { followDaemon } from '../../src/console/follow-daemon.ts'
import { runStreamScreen } from '../../src/console/stream-screen.tsx'
import { takeSnapshot } from '../../src/console/take-snapshot.ts'
import { watchScreen } from '../../src/console/watch/watch-console.tsx'
import { reduceWatch, initialWatchState } from '../../src/console/watch/watch-state.ts'
import { type WatchView, watchText, watchView } from '../../src/console/watch/watch-view.ts'
import { slugSchema } from '../../src/domain/slug.ts'

export default class LaunchesWatch extends OperatorCommand {
  static override description =
    `Live dashboard of launches: per launched project the pool, spot FDV, fee now and next block, effective cap and its sparkline, orders by state with spend, swaps, executor actions and launch-to-fill latency; held-back launch candidates; projects waiting to launch with their order books.
Fed by the daemon's event stream (GET /admin/v1/events); reconnects by itself if the daemon restarts. Keys: ↑/↓ (j/k) choose a launch, q or Ctrl-C quit.
Without a terminal (a pipe) or with --json it prints the dashboard once and exits.`
  static override examples = [
    '<%= config.bin %> launches watch',
    '<%= config.bin %> launches watch rocket',
    '<%= config.bin %> launches watch --json | jq .launched',
  ]
  static override args = { slug: Args.string({ description: 'watch one project only' }) }

  async run(): Promise<WatchView | undefined> {
    const { args, flags } = await this.parse(LaunchesWatch)
    if (args.slug !== undefined && !slugSchema.safeParse(args.slug).success) this.error(`invalid slug: ${args.slug}`, { exit: 2 })
    const dataDir = this.dataDir(flags)
    const follow = followDaemon(dataDir, 'launches', args.slug)
    if (this.jsonEnabled() || !process.stdout.isTTY) {
      await this.adminClient(flags) // a missing daemon or token: the usual one-line error
      const state = await takeSnapshot(initialWatchState(args.slug ?? null), (s, signals) => reduceWatch(s, { type: 'signals', signals }), follow)
      const view = watchView(state)
      if (!this.jsonEnabled()) this.log(watchText(view, { all: true }).join('\n'))
      return view
    }
    await this.adminClient(flags)
    await runStreamScreen(watchScreen(args.slug ?? null), follow)
    return undefined
  }
}
