import { Args, Flags } from '@oclif/core'
import type { ConfirmLaunchResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class LaunchesConfirm extends OperatorCommand {
  static override description =
    "Bind a project to a launch its rules held back (a shared deployer's launch awaiting confirmation, or a rejected one you vouch for): the project's orders then buy that token"
  static override examples = ['<%= config.bin %> launches confirm moon --token 0x1234...']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = { token: Flags.string({ required: true, description: 'the candidate launch’s token address (from launches candidates)' }) }

  async run(): Promise<ConfirmLaunchResult> {
    const { args, flags } = await this.parse(LaunchesConfirm)
    const candidate = await (await this.adminClient(flags)).confirmLaunch(args.slug, flags.token)
    this.log(`Confirmed ${candidate.token} as the launch of ${candidate.slug}: bound on the indexer's next block, then its orders buy it.`)
    return { candidate }
  }
}
