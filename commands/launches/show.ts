import { Args } from '@oclif/core'
import type { LaunchDetail } from '../../src/admin-api/contract.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { percent, usdAtoms } from '../../src/console/format-numbers.ts'

export default class LaunchesShow extends OperatorCommand {
  static override description =
    'One launch: token, pool, paired asset, launch transaction, fee schedule, the latest tick, orders by state and the candidates that touched the project'
  static override examples = ['<%= config.bin %> launches show moon', '<%= config.bin %> launches show moon --json']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }

  async run(): Promise<LaunchDetail> {
    const { args, flags } = await this.parse(LaunchesShow)
    const detail = await (await this.adminClient(flags)).getLaunch(args.slug)
    const { launch, summary } = detail
    this.log(`${launch.slug}: ${launch.name} (${launch.symbol}) on ${launch.chain} via ${launch.launchpad}`)
    this.log(`Token:    ${launch.token} (supply ${launch.totalSupply}, ${launch.decimals} decimals)`)
    this.log(`Pool:     ${launch.poolId} (fee ${launch.poolKey.fee}, tick spacing ${launch.poolKey.tickSpacing}, hooks ${launch.poolKey.hooks})`)
    this.log(`Paired:   ${launch.paired.kind} ${launch.paired.address}`)
    this.log(`Launched: block ${launch.blockNumber}, tx ${launch.txHash}, ${new Date(launch.launchedAt).toISOString()}`)
    const tick = summary.latestTick
    this.log(
      tick
        ? `Latest:   block ${tick.blockNumber} · FDV ${usdAtoms(tick.fdvUsdAtoms)} · fee ${percent(tick.totalFeeFraction)} · effective cap ${usdAtoms(tick.effectiveCapAtoms)}${tick.swapsAllowed ? '' : ' · swaps not allowed'}`
        : 'Latest:   no tick yet',
    )
    this.log(
      formatTable(
        Object.entries(summary.orders).map(([status, tally]) => ({ status, ...tally })),
        ['status', 'count', 'spendUsdc'],
      ),
    )
    if (detail.candidates.length > 0) {
      this.log('Candidates:')
      this.log(formatTable(detail.candidates, ['status', 'token', 'deployer', 'blockNumber', 'reason']))
    }
    return detail
  }
}
