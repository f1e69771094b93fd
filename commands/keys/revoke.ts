import { Args } from '@oclif/core'
import type { RevokeKeyResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class KeysRevoke extends OperatorCommand {
  static override description = 'Revoke an API key: every later request with it gets 401 (its wallet and orders stay)'
  static override examples = ['<%= config.bin %> keys revoke my-bot', '<%= config.bin %> keys revoke 01J...']
  static override args = { key: Args.string({ required: true, description: 'key id or label' }) }

  async run(): Promise<RevokeKeyResult> {
    const { args, flags } = await this.parse(KeysRevoke)
    const key = await (await this.adminClient(flags)).revokeKey(args.key)
    this.log(`Revoked key ${key.label} (${key.keyId})`)
    return { key }
  }
}
