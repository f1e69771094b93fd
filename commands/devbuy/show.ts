import { Args } from '@oclif/core'
import type { DevBuyResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { devBuyLines } from '../../src/admin-client/cli/dev-buy-lines.ts'

export default class DevBuyShow extends OperatorCommand {
  static override description = "A dev_buy project's launch: the token's parameters, whether the launch was asked for, and its outcome"
  static override examples = ['<%= config.bin %> devbuy show moon', '<%= config.bin %> devbuy show moon --json']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }

  async run(): Promise<DevBuyResult> {
    const { args, flags } = await this.parse(DevBuyShow)
    const result = await (await this.adminClient(flags)).getDevBuy(args.slug)
    for (const line of devBuyLines(result)) this.log(line)
    return result
  }
}
