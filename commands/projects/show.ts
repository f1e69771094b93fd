import { Args } from '@oclif/core'
import type { OperatorProjectDetail } from '../../src/admin-api/contract.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class ProjectsShow extends OperatorCommand {
  static override description =
    'One project: its binding (deployer, expected token), launchpad, chain, method, owner, profile marks, launch and orders by state'
  static override examples = ['<%= config.bin %> projects show moon', '<%= config.bin %> projects show moon --json']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }

  async run(): Promise<OperatorProjectDetail> {
    const { args, flags } = await this.parse(ProjectsShow)
    const detail = await (await this.adminClient(flags)).getProject(args.slug)
    const { project } = detail
    this.log(`${project.slug}: ${project.profile.identity.displayName} (${project.launchpad} on ${project.chain}, ${project.launchMethod})`)
    this.log(`Deployer:        ${project.creatorAddress}`)
    this.log(`Expected token:  ${project.expectedTokenAddress ?? '-'}`)
    this.log(`Token symbol:    ${project.expectedSymbol ? `${project.expectedSymbol}${project.expectedName ? ` (${project.expectedName})` : ''}` : '-'}`)
    this.log(`Owner key:       ${project.ownerKeyId ?? '-'}`)
    const marks = project.profile.status
    this.log(
      `Marks:           profile ${marks.isProfileRegistered ? 'registered' : 'not registered'} · launch ${marks.isLaunchVerified ? 'verified' : 'not verified'} · sniper protection ${marks.hasSniperProtection ? 'yes' : 'no'}`,
    )
    this.log(
      detail.launch ? `Launched:        ${detail.launch.symbol} ${detail.launch.token} in block ${detail.launch.blockNumber}` : 'Launched:        not yet',
    )
    this.log(
      formatTable(
        Object.entries(detail.orders).map(([status, tally]) => ({ status, ...tally })),
        ['status', 'count', 'spendUsdc'],
      ),
    )
    return detail
  }
}
