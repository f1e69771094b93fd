import { Args, Flags } from '@oclif/core'
import type { ProjectRecord } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class ProjectsVerify extends OperatorCommand {
  static override description =
    "Set (or with --unset clear) a project's verified-launch mark (status.isLaunchVerified on its public profile): you checked its launch plan and binding"
  static override examples = ['<%= config.bin %> projects verify moon', '<%= config.bin %> projects verify moon --unset']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = { unset: Flags.boolean({ description: 'clear the mark instead' }) }

  async run(): Promise<{ project: ProjectRecord }> {
    const { args, flags } = await this.parse(ProjectsVerify)
    const project = await (await this.adminClient(flags)).updateProfile(args.slug, { status: { isLaunchVerified: !flags.unset } })
    this.log(`${project.slug}: launch ${project.profile.status.isLaunchVerified ? 'verified' : 'not verified'}`)
    return { project }
  }
}
