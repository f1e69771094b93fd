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
    const disabled = status.chains.disabled.length > 0 ? `; disabled: ${status.chains.disabled.join(', ')}` : ''
    this.log(
      `Chains:     ${status.chains.mode} (${Object.entries(status.chains.chainIds)
        .map(([k, id]) => `${k} ${id}`)
        .join(', ')}${disabled})`,
    )
    const balance = (b: { address: string; balanceEth: string | null; level: string }) =>
      `${b.address} ${b.balanceEth ?? '?'} ETH${b.level === 'ok' ? '' : ` (${b.level.toUpperCase()})`}`
    this.log(
      `Bundlers:   ${Object.entries(status.bundlers)
        .map(([chain, b]) => `${chain} ${balance(b)}`)
        .join(', ')}`,
    )
    // Every sender account (wallet.senderAccounts): each pays the gas of what it sends, each is funded on its own.
    for (const [chain, b] of Object.entries(status.bundlers)) {
      if (b.senders.length > 1) this.log(`Senders:    ${chain} ${b.senders.map((s, i) => `#${i} ${balance(s)}`).join(', ')}`)
    }
    for (const [chain, contracts] of Object.entries(status.contracts)) {
      const missing = contracts.filter((c) => c.deployed !== true)
      this.log(
        missing.length === 0
          ? `Contracts:  ${chain} all deployed (${contracts.map((c) => c.name).join(', ')})`
          : `Contracts:  ${chain} MISSING ${missing.map((c) => `${c.name} ${c.address}${c.deployed === null ? ' (not read)' : ''}`).join(', ')}: fund the bundler and run \`prebuy contracts deploy --chain ${chain}\``,
      )
    }
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
