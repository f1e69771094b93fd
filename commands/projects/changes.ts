import type { ListResponse, PendingChangeItemView } from '../../src/admin-api/contract.ts'
import { describeTerms } from '../../src/admin-client/cli/describe-terms.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class ProjectsChanges extends OperatorCommand {
  static override description =
    "List owners' changes of what the orders buy (launch binding, OTC offer) waiting for your confirmation or for their notice period: nothing changes until you confirm (projects confirm-change) or reject (projects reject-change)"
  static override examples = ['<%= config.bin %> projects changes', '<%= config.bin %> projects changes --json']

  async run(): Promise<ListResponse<PendingChangeItemView>> {
    const { flags } = await this.parse(ProjectsChanges)
    const items = await (await this.adminClient(flags)).pendingChanges()
    this.log(
      formatTable(
        items.map((item) => ({
          slug: item.slug,
          kind: item.change.kind,
          status: item.change.status === 'confirmed' ? `confirmed, in force ${item.change.effectiveAt}` : 'awaiting confirmation',
          proposed: item.change.proposedAt,
          'older orders': String(item.ordersBefore),
          from: describeTerms(item.inForce),
          to: describeTerms(item.change.proposed),
        })),
        ['slug', 'kind', 'status', 'proposed', 'older orders', 'from', 'to'],
      ),
    )
    return { items }
  }
}
