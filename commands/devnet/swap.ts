import { Flags } from '@oclif/core'
import type { DevnetSwapResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { CHAIN_KEYS, type ChainKey } from '../../src/chain/chain-keys.ts'

export default class DevnetSwap extends OperatorCommand {
  static override description = 'Devnet only: a third party buys a launched token with stablecoin, moving its price'
  static override examples = ['<%= config.bin %> devnet swap --token 0xabc... --usdc 5000']
  static override flags = {
    token: Flags.string({ required: true, description: 'launched token address' }),
    usdc: Flags.string({ required: true, description: 'stablecoin to spend, decimal (minted to the trader first)' }),
    chain: Flags.string({ options: [...CHAIN_KEYS], default: 'base' }),
  }

  async run(): Promise<DevnetSwapResult> {
    const { flags } = await this.parse(DevnetSwap)
    const result = await (await this.adminClient(flags)).devnetSwap({ token: flags.token, usdc: flags.usdc, chain: flags.chain as ChainKey })
    this.log(`Bought ${result.tokensOut} (atomic) of ${result.token} for ${result.usdc} USDC in block ${result.blockNumber}, pool fee ${result.feePips} pips`)
    return result
  }
}
