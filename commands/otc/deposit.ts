import { Args } from '@oclif/core'
import type { OtcResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { otcLines } from '../../src/admin-client/cli/otc-lines.ts'

export default class OtcDeposit extends OperatorCommand {
  static override description =
    "Have the project owner's wallet deposit the offered tokens into the settlement contract (one wallet operation; the owner sends the tokens to that wallet first). Idempotent"
  static override examples = ['<%= config.bin %> otc deposit moon']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }

  async run(): Promise<OtcResult> {
    const { args, flags } = await this.parse(OtcDeposit)
    const result = await (await this.adminClient(flags)).depositOtc(args.slug)
    for (const line of otcLines(result)) this.log(line)
    return result
  }
}
