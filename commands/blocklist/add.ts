import { Flags } from '@oclif/core'
import type { AddBlockResult, BlockType } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { BLOCK_TYPES } from '../../src/domain/records.ts'

export default class BlocklistAdd extends OperatorCommand {
  static override description = 'Block an IP, email or contact: its key requests, registrations and feedback get 403'
  static override examples = [
    '<%= config.bin %> blocklist add --type ip --value 203.0.113.7',
    '<%= config.bin %> blocklist add --type email --value spam@example.com --note "spam"',
  ]
  static override flags = {
    type: Flags.string({ required: true, options: [...BLOCK_TYPES] }),
    value: Flags.string({ required: true, description: 'the IP, email or contact to block (matched case-insensitively)' }),
    note: Flags.string({ description: 'why' }),
  }

  async run(): Promise<AddBlockResult> {
    const { flags } = await this.parse(BlocklistAdd)
    const client = await this.adminClient(flags)
    const entry = await client.addBlock({ type: flags.type as BlockType, value: flags.value, ...(flags.note === undefined ? {} : { note: flags.note }) })
    this.log(`Blocked ${entry.type} ${entry.value}`)
    return { entry }
  }
}
