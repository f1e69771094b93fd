import type { KeySummary, ListResponse } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'

export default class KeysList extends OperatorCommand {
  static override description = 'List API keys (labels, wallets, owned projects; never the keys themselves)'
  static override examples = ['<%= config.bin %> keys list', '<%= config.bin %> keys list --json']

  async run(): Promise<ListResponse<KeySummary>> {
    const { flags } = await this.parse(KeysList)
    const items = await (await this.adminClient(flags)).listKeys()
    this.log(
      formatTable(
        items.map((key) => ({ ...key, projects: key.ownedProjectSlugs.join(',') || '-', state: key.revokedAt === null ? 'active' : 'revoked' })),
        ['keyId', 'label', 'state', 'serviceWalletAddress', 'projects', 'createdAt'],
      ),
    )
    return { items }
  }
}
