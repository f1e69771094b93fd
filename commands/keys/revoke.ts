import { Args } from '@oclif/core'
import type { RevokeKeyResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class KeysRevoke extends OperatorCommand {
  static override description =
    'Revoke an API key: every later request with it gets 401, and its active orders are cancelled (an order already executing settles; the wallet and its funds stay)'
  static override examples = ['<%= config.bin %> keys revoke my-bot', '<%= config.bin %> keys revoke 01J...']
  static override args = { key: Args.string({ required: true, description: 'key id or label' }) }

  async run(): Promise<RevokeKeyResult> {
    const { args, flags } = await this.parse(KeysRevoke)
    const result = await (await this.adminClient(flags)).revokeKey(args.key)
    this.log(`Revoked key ${result.key.label} (${result.key.keyId}); cancelled ${result.cancelledOrders} active order(s)`)
    return result
  }
}
