import { Args } from '@oclif/core'
import type { OtcResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { otcLines } from '../../src/admin-client/cli/otc-lines.ts'

export default class OtcCancel extends OperatorCommand {
  static override description =
    "Withdraw a pooled_otc project's offer before it settles, on the owner's behalf: a deposited one is cancelled on chain by the owner's wallet (the tokens return to it). Idempotent"
  static override examples = ['<%= config.bin %> otc cancel moon']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }

  async run(): Promise<OtcResult> {
    const { args, flags } = await this.parse(OtcCancel)
    const result = await (await this.adminClient(flags)).cancelOtc(args.slug)
    for (const line of otcLines(result)) this.log(line)
    return result
  }
}
