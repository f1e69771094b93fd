import { Flags } from '@oclif/core'
import type { ListResponse, OperatorOrderView } from '../../src/admin-api/contract.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class OrdersList extends OperatorCommand {
  static override description = 'Orders of one project or of one key, oldest first, every status (deleted included), with what executed'
  static override examples = ['<%= config.bin %> orders list --project moon', '<%= config.bin %> orders list --key alice --json']
  static override flags = {
    project: Flags.string({ description: 'project slug', exactlyOne: ['project', 'key'] }),
    key: Flags.string({ description: 'key id or label', exactlyOne: ['project', 'key'] }),
  }

  async run(): Promise<ListResponse<OperatorOrderView>> {
    const { flags } = await this.parse(OrdersList)
    const items = await (await this.adminClient(flags)).listOrders(flags.project !== undefined ? { project: flags.project } : { key: flags.key! })
    this.log(
      formatTable(
        items.map((o) => ({ ...o, maxFdvUsdc: o.maxFdvUsdc ?? 'none', spent: o.execution?.spentUsdc ?? '-', tx: o.execution?.txHash ?? '-' })),
        ['slug', 'label', 'status', 'maxSpendUsdc', 'maxFdvUsdc', 'expiresInMs', 'spent', 'tx', 'createdAt'],
      ),
    )
    return { items }
  }
}
