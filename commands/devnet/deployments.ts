import type { Deployments } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class DevnetDeployments extends OperatorCommand {
  static override description = 'Devnet only: chain ids, RPC URLs and every contract address the daemon deployed'
  static override examples = ['<%= config.bin %> devnet deployments --json']

  async run(): Promise<Deployments> {
    const { flags } = await this.parse(DevnetDeployments)
    const deployments = await (await this.adminClient(flags)).devnetDeployments()
    this.log(JSON.stringify(deployments, null, 2))
    return deployments
  }
}
