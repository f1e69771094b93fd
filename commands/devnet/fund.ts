import { Flags } from '@oclif/core'
import type { DevnetFundResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { CHAIN_KEYS, type ChainKey } from '../../src/chain/chain-keys.ts'
import { formatUnits } from 'viem'
import { formatTable } from '../../src/admin-client/cli/format.ts'

export default class DevnetFund extends OperatorCommand {
  static override description = 'Devnet only: mint spend currency (USDC) and/or send ETH to an address (e.g. a serviceWalletAddress)'
  static override examples = [
    '<%= config.bin %> devnet fund --address 0xabc... --usdc 1000',
    '<%= config.bin %> devnet fund --address 0xabc... --usdc 50 --eth 1 --chain second_chain',
  ]
  static override flags = {
    address: Flags.string({ required: true, description: 'address to fund' }),
    usdc: Flags.string({ description: 'spend currency to mint, decimal (e.g. 1000.5)' }),
    eth: Flags.string({ description: 'ETH to send, decimal' }),
    chain: Flags.string({ options: [...CHAIN_KEYS], default: 'base' }),
  }

  async run(): Promise<DevnetFundResult> {
    const { flags } = await this.parse(DevnetFund)
    if (flags.usdc === undefined && flags.eth === undefined) this.error('give --usdc, --eth or both', { exit: 2 })
    const client = await this.adminClient(flags)
    const funded = await client.devnetFund({
      address: flags.address,
      chain: flags.chain as ChainKey,
      ...(flags.usdc === undefined ? {} : { usdc: flags.usdc }),
      ...(flags.eth === undefined ? {} : { eth: flags.eth }),
    })
    // --json keeps the atomic amounts; the table shows token units like the flags take them.
    const rows = funded.map((row) => ({ ...row, usdc: formatUnits(BigInt(row.usdc), 6), eth: formatUnits(BigInt(row.eth), 18) }))
    this.log(formatTable(rows, ['chain', 'address', 'usdc', 'eth']))
    return { funded }
  }
}
