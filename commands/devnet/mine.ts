import { Flags } from '@oclif/core'
import type { MineResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class DevnetMine extends OperatorCommand {
  static override description = 'Devnet only: mine blocks now on both chains'
  static override examples = ['<%= config.bin %> devnet mine', '<%= config.bin %> devnet mine --blocks 10']
  static override flags = { blocks: Flags.integer({ min: 1, max: 10_000, default: 1 }) }

  async run(): Promise<MineResult> {
    const { flags } = await this.parse(DevnetMine)
    const result = await (await this.adminClient(flags)).devnetMine(flags.blocks)
    this.log(
      `Mined ${result.blocks} block(s): ${Object.entries(result.blockNumbers)
        .map(([chain, n]) => `${chain} at ${n}`)
        .join(', ')}`,
    )
    return result
  }
}
