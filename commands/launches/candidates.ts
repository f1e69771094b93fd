import { Flags } from '@oclif/core'
import type { LaunchCandidatesResult } from '../../src/admin-api/contract.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { CHAIN_KEYS, type ChainKey } from '../../src/chain/chain-keys.ts'

export default class LaunchesCandidates extends OperatorCommand {
  static override description =
    'Launches that touched a registered project without binding it (rejected, awaiting your confirmation, confirmed, quarantined, unsupported), and launch logs that could not be decoded yet'
  static override examples = ['<%= config.bin %> launches candidates', '<%= config.bin %> launches candidates --slug moon --json']
  static override flags = {
    slug: Flags.string({ description: 'only this project' }),
    chain: Flags.string({ options: [...CHAIN_KEYS] }),
  }

  async run(): Promise<LaunchCandidatesResult> {
    const { flags } = await this.parse(LaunchesCandidates)
    const result = await (await this.adminClient(flags)).launchCandidates({
      ...(flags.slug === undefined ? {} : { slug: flags.slug }),
      ...(flags.chain === undefined ? {} : { chain: flags.chain as ChainKey }),
    })
    const rows = result.candidates.map((c) => ({ ...c, symbol: c.symbol ?? '', rule: c.rule ?? '', deployerNotes: (c.deployerNotes ?? []).join('; ') }))
    this.log(formatTable(rows, ['slug', 'status', 'rule', 'token', 'symbol', 'deployer', 'deployerNotes', 'chain', 'blockNumber', 'reason']))
    if (result.quarantinedLogs.length > 0) {
      this.log('')
      this.log('Launch logs not decoded yet (retried with backoff):')
      this.log(formatTable(result.quarantinedLogs, ['chain', 'blockNumber', 'txHash', 'logIndex', 'attempts', 'retryAtBlock', 'error']))
    }
    return result
  }
}
