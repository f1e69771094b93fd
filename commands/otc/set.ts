import { Args, Flags } from '@oclif/core'
import type { OtcResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { otcLines } from '../../src/admin-client/cli/otc-lines.ts'

export default class OtcSet extends OperatorCommand {
  static override description =
    "Set (or, until the deposit, replace) a pooled_otc project's offer on its owner's behalf: what PATCH /projects/{slug}/otc does with the owner's key"
  static override examples = ['<%= config.bin %> otc set moon --token 0x... --amount 10000000 --fdv 1000000 --settle-at 2026-12-01T12:00:00Z']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = {
    token: Flags.string({ required: true, description: "the token sold (an ERC-20 on the project's chain)" }),
    amount: Flags.string({ required: true, description: 'tokens offered, in token units' }),
    fdv: Flags.string({ required: true, description: 'the OTC price as a fully diluted value, USD' }),
    'settle-at': Flags.string({ required: true, description: 'earliest settlement, ISO 8601 (in the future)' }),
  }

  async run(): Promise<OtcResult> {
    const { args, flags } = await this.parse(OtcSet)
    const result = await (await this.adminClient(flags)).setOtc(args.slug, {
      tokenAddress: flags.token,
      tokenAmount: flags.amount,
      fdvUsdc: flags.fdv,
      settleAt: flags['settle-at'],
    })
    for (const line of otcLines(result)) this.log(line)
    return result
  }
}
