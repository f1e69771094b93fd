import type { ListResponse, ProjectRecord } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'

export default class ProjectsList extends OperatorCommand {
  static override description = 'List approved projects: slug, launchpad, chain, creator, owner key, launch'
  static override examples = ['<%= config.bin %> projects list', '<%= config.bin %> projects list --json']

  async run(): Promise<ListResponse<ProjectRecord>> {
    const { flags } = await this.parse(ProjectsList)
    const items = await (await this.adminClient(flags)).listProjects()
    this.log(
      formatTable(
        items.map((project) => ({
          slug: project.slug,
          name: project.profile.identity.displayName,
          launchpad: project.launchpad,
          chain: project.chain,
          method: project.launchMethod,
          creator: project.creatorAddress,
          owner: project.ownerKeyId,
          launched: project.launch ? `${project.launch.tokenAddress} at ${new Date(project.launch.launchedAt).toISOString()}` : '-',
        })),
        ['slug', 'name', 'launchpad', 'chain', 'method', 'creator', 'owner', 'launched'],
      ),
    )
    return { items }
  }
}
