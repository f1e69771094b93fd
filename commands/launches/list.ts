import type { LaunchSummary, ListResponse } from '../../src/admin-api/contract.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { percent, usdAtoms } from '../../src/console/format-numbers.ts'

export default class LaunchesList extends OperatorCommand {
  static override description =
    'Launched projects, newest first: token, pool, launch block, the latest tick (FDV, fee, effective cap) and their orders by state'
  static override examples = ['<%= config.bin %> launches list', '<%= config.bin %> launches list --json']

  async run(): Promise<ListResponse<LaunchSummary>> {
    const { flags } = await this.parse(LaunchesList)
    const items = await (await this.adminClient(flags)).listLaunches()
    this.log(
      formatTable(
        items.map((l) => ({
          ...l,
          fdv: l.latestTick ? usdAtoms(l.latestTick.fdvUsdAtoms) : '-',
          fee: l.latestTick ? percent(l.latestTick.totalFeeFraction) : '-',
          cap: l.latestTick ? usdAtoms(l.latestTick.effectiveCapAtoms) : '-',
          filled: `${l.orders.filled.count} ($${l.orders.filled.spendUsdc})`,
          waiting: l.orders.active.count,
          failed: l.orders.failed.count,
        })),
        ['slug', 'symbol', 'chain', 'launchpad', 'token', 'blockNumber', 'fdv', 'fee', 'cap', 'waiting', 'filled', 'failed'],
      ),
    )
    return { items }
  }
}
