import type { DaemonStatus } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class DaemonStatusCommand extends OperatorCommand {
  static override description = 'Show whether a daemon runs for the data dir, where it listens and its chains'
  static override examples = ['<%= config.bin %> daemon status', '<%= config.bin %> daemon status --data-dir /srv/prebuy --json']

  async run(): Promise<DaemonStatus> {
    const { flags } = await this.parse(DaemonStatusCommand)
    const status = await (await this.adminClient(flags)).status()
    this.log(`prebuy ${status.version}: daemon running (pid ${status.pid}) for ${status.dataDir}, up ${status.uptimeSeconds} s`)
    this.log(`Public API: ${status.url}/api/public/v1`)
    this.log(`Admin API:  ${status.adminUrl} (loopback, operator token)`)
    this.log(
      `Chains:     ${status.chains.mode} (${Object.entries(status.chains.chainIds)
        .map(([k, id]) => `${k} ${id}`)
        .join(', ')})`,
    )
    this.log(
      `Bundlers:   ${Object.entries(status.bundlers)
        .map(([chain, b]) => `${chain} ${b.balanceEth ?? '?'} ETH${b.level === 'ok' ? '' : ` (${b.level.toUpperCase()})`}`)
        .join(', ')}`,
    )
    this.log(
      `Indexer:    ${Object.entries(status.readiness.checks.chains)
        .map(([chain, c]) => `${chain} head ${c.head ?? '?'} indexed ${c.indexed ?? '-'} lag ${c.lagBlocks ?? '?'} (${c.status})`)
        .join(', ')}`,
    )
    this.log(`Ready:      ${status.readiness.ready ? 'yes' : `no: ${status.readiness.problems.join('; ')}`}`)
    const q = status.queues
    this.log(
      `Queues:     ${q.inFlightBuys} buys in flight · ${q.activeOrders} active orders · ${q.pendingReviews} submissions to review · ${q.candidatesAwaitingConfirmation} launches awaiting confirmation · ${q.quarantinedLaunches} quarantined`,
    )
    return status
  }
}
