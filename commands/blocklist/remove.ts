import { Flags } from '@oclif/core'
import type { BlockType, RemoveBlockResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { BLOCK_TYPES } from '../../src/domain/records.ts'

export default class BlocklistRemove extends OperatorCommand {
  static override description = 'Remove an entry from the blocklist'
  static override examples = ['<%= config.bin %> blocklist remove --type ip --value 203.0.113.7']
  static override flags = {
    type: Flags.string({ required: true, options: [...BLOCK_TYPES] }),
    value: Flags.string({ required: true }),
  }

  async run(): Promise<RemoveBlockResult> {
    const { flags } = await this.parse(BlocklistRemove)
    const result = await (await this.adminClient(flags)).removeBlock(flags.type as BlockType, flags.value)
    this.log(result.removed ? `Unblocked ${flags.type} ${flags.value}` : `${flags.type} ${flags.value} was not blocked`)
    return result
  }
}
