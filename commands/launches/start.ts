import { Args } from '@oclif/core'
import type { DevBuyResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { devBuyLines } from '../../src/admin-client/cli/dev-buy-lines.ts'

export default class LaunchesStart extends OperatorCommand {
  static override description =
    "Launch a dev_buy project's token now, on its owner's behalf: the daemon deploys it with one block-zero buy for the orders that can take part, split pro rata (what POST /projects/{slug}/dev-buy/launch does). Follow it with `prebuy devbuy show`."
  static override examples = ['<%= config.bin %> launches start moon', '<%= config.bin %> launches start moon --json']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }

  async run(): Promise<DevBuyResult> {
    const { args, flags } = await this.parse(LaunchesStart)
    const result = await (await this.adminClient(flags)).launchDevBuy(args.slug)
    for (const line of devBuyLines(result)) this.log(line)
    return result
  }
}
