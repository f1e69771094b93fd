import { Flags } from '@oclif/core'
import type { DeployContractsResult } from '../../src/admin-api/contract.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { CHAIN_KEYS, type ChainKey } from '../../src/chain/chain-keys.ts'

export default class ContractsDeploy extends OperatorCommand {
  static override description =
    "Deploy this service's own contracts on a chain (buy router, batch buyer, vesting, pooled-OTC settlement and, on Base, the dev-buy coordinator) from the bundler account; what is already there is left alone"
  static override examples = ['<%= config.bin %> contracts deploy --chain base', '<%= config.bin %> contracts deploy --chain base --json']
  static override flags = {
    chain: Flags.string({ options: [...CHAIN_KEYS], required: true, description: 'chain to deploy on' }),
  }

  async run(): Promise<DeployContractsResult> {
    const { flags } = await this.parse(ContractsDeploy)
    const client = await this.adminClient(flags)
    const result = await client.deployContracts({ chain: flags.chain as ChainKey })
    this.log(`${result.chain}: sent by the bundler account ${result.deployer}`)
    this.log(formatTable(result.contracts, ['name', 'address', 'status']))
    const deployed = result.contracts.filter((c) => c.status === 'deployed').length
    this.log(
      deployed === 0 ? 'Nothing to deploy: every contract was already there.' : `Deployed ${deployed}; ${result.contracts.length - deployed} already there.`,
    )
    return result
  }
}
