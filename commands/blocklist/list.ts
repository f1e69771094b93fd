import type { BlockEntry, ListResponse } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'

export default class BlocklistList extends OperatorCommand {
  static override description = 'List blocked IPs, emails and contacts'
  static override examples = ['<%= config.bin %> blocklist list']

  async run(): Promise<ListResponse<BlockEntry>> {
    const { flags } = await this.parse(BlocklistList)
    const items = await (await this.adminClient(flags)).listBlocklist()
    this.log(formatTable(items as unknown as Array<Record<string, unknown>>, ['type', 'value', 'createdAt', 'note']))
    return { items }
  }
}
