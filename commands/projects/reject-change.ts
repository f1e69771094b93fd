import { Args, Flags } from '@oclif/core'
import type { RejectChangeResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { OWNER_CHANGE_KINDS } from '../../src/domain/owner-changes.ts'

export default class ProjectsRejectChange extends OperatorCommand {
  static override description =
    "Reject a project owner's change of what the orders buy (or withdraw your confirmation before it takes effect): the terms in force stay; the reason is shown on the project's public change history"
  static override examples = ["<%= config.bin %> projects reject-change moon --reason 'the token was launched by an unknown account'"]
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = {
    reason: Flags.string({ required: true, description: 'why (public, on the project)' }),
    kind: Flags.string({ options: [...OWNER_CHANGE_KINDS], description: 'which change, when the project has two pending' }),
  }

  async run(): Promise<RejectChangeResult> {
    const { args, flags } = await this.parse(ProjectsRejectChange)
    const kind = flags.kind as (typeof OWNER_CHANGE_KINDS)[number] | undefined
    const result = await (await this.adminClient(flags)).rejectChange(args.slug, { reason: flags.reason, ...(kind === undefined ? {} : { kind }) })
    this.log(`${result.slug}: the change is rejected; the terms in force stay.`)
    return result
  }
}
