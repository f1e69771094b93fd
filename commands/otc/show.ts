import { Args } from '@oclif/core'
import type { OtcResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { otcLines } from '../../src/admin-client/cli/otc-lines.ts'

export default class OtcShow extends OperatorCommand {
  static override description = "A pooled_otc project's offer: token, amount, FDV, settlement time, deposit and settlement"
  static override examples = ['<%= config.bin %> otc show moon', '<%= config.bin %> otc show moon --json']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }

  async run(): Promise<OtcResult> {
    const { args, flags } = await this.parse(OtcShow)
    const result = await (await this.adminClient(flags)).getOtc(args.slug)
    for (const line of otcLines(result)) this.log(line)
    return result
  }
}
