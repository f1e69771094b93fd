import { Args, Flags } from '@oclif/core'
import type { ApproveKeyRequestResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class KeyRequestsApprove extends OperatorCommand {
  static override description = 'Approve an API key request and issue the key (with its smart wallet), shown once'
  static override examples = ['<%= config.bin %> key-requests approve 01J...', '<%= config.bin %> key-requests approve 01J... --label acme-bot']
  static override args = { id: Args.string({ required: true, description: 'key request id (from key-requests list)' }) }
  static override flags = { label: Flags.string({ description: 'label of the new key (default: from the project name)' }) }

  async run(): Promise<ApproveKeyRequestResult> {
    const { args, flags } = await this.parse(KeyRequestsApprove)
    const client = await this.adminClient(flags)
    const result = await client.approveKeyRequest(args.id, flags.label === undefined ? {} : { label: flags.label })
    this.log(`Approved key request ${args.id}`)
    this.log(`Key label:  ${result.key.label}`)
    this.log(`Wallet:     ${result.key.serviceWalletAddress}`)
    this.log(`API key:    ${result.key.apiKey}`)
    this.log("The key is shown once: deliver it through the requester's contact now; it cannot be recovered.")
    return result
  }
}
