import { Args, Flags } from '@oclif/core'
import type { ConfirmChangeResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { OWNER_CHANGE_KINDS } from '../../src/domain/owner-changes.ts'

export default class ProjectsConfirmChange extends OperatorCommand {
  static override description =
    "Confirm a project owner's change of what the orders buy (see projects changes): in force at once when no order placed before the proposal is live, else after the notice period (ownerChanges.noticeHours) from now; check the token is the project's first"
  static override examples = ['<%= config.bin %> projects confirm-change moon', '<%= config.bin %> projects confirm-change moon --kind otc_offer']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = {
    kind: Flags.string({ options: [...OWNER_CHANGE_KINDS], description: 'which change, when the project has two pending' }),
  }

  async run(): Promise<ConfirmChangeResult> {
    const { args, flags } = await this.parse(ProjectsConfirmChange)
    const kind = flags.kind as (typeof OWNER_CHANGE_KINDS)[number] | undefined
    const result = await (await this.adminClient(flags)).confirmChange(args.slug, kind === undefined ? {} : { kind })
    this.log(
      result.outcome === 'in_force'
        ? `${result.slug}: the change is in force now (no order placed before it is live).`
        : `${result.slug}: confirmed; in force at ${result.pendingChange?.effectiveAt} (notice to the buyers whose orders predate it).`,
    )
    return result
  }
}
