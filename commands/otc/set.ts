import { Args, Flags } from '@oclif/core'
import type { OtcResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { otcLines } from '../../src/admin-client/cli/otc-lines.ts'

export default class OtcSet extends OperatorCommand {
  static override description =
    "Set (or, until the deposit, replace) a pooled_otc project's offer on its owner's behalf: what PATCH /projects/{slug}/otc does with the owner's key"
  static override examples = [
    '<%= config.bin %> otc set moon --token 0x... --amount 10000000 --fdv 1000000 --settle-at 2026-12-01T12:00:00Z',
    {
      description: "Buyers' tokens locked 30 days after the settlement block, then vesting linearly over 180 days",
      command:
        '<%= config.bin %> otc set moon --token 0x... --amount 10000000 --fdv 1000000 --settle-at 2026-12-01T12:00:00Z --lock-seconds 2592000 --vesting-seconds 15552000',
    },
  ]
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = {
    token: Flags.string({ required: true, description: "the token sold (an ERC-20 on the project's chain)" }),
    amount: Flags.string({ required: true, description: 'tokens offered, in token units' }),
    fdv: Flags.string({ required: true, description: 'the OTC price as a fully diluted value, USD' }),
    'settle-at': Flags.string({ required: true, description: 'earliest settlement, ISO 8601 (in the future)' }),
    'lock-seconds': Flags.integer({
      description: "buyers' tokens are locked this long after the settlement block, seconds (0 to 4 years; default 0: no cliff)",
    }),
    'vesting-seconds': Flags.integer({
      description: 'then vest linearly over this many seconds (0 to 4 years; default 0: everything at the cliff; both 0: no lock)',
    }),
  }

  async run(): Promise<OtcResult> {
    const { args, flags } = await this.parse(OtcSet)
    const result = await (await this.adminClient(flags)).setOtc(args.slug, {
      tokenAddress: flags.token,
      tokenAmount: flags.amount,
      fdvUsdc: flags.fdv,
      settleAt: flags['settle-at'],
      ...(flags['lock-seconds'] === undefined ? {} : { lockSeconds: flags['lock-seconds'] }),
      ...(flags['vesting-seconds'] === undefined ? {} : { vestingSeconds: flags['vesting-seconds'] }),
    })
    for (const line of otcLines(result)) this.log(line)
    return result
  }
}
