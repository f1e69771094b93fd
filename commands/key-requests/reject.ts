import { Args, Flags } from '@oclif/core'
import type { RejectResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class KeyRequestsReject extends OperatorCommand {
  static override description = 'Reject an API key request'
  static override examples = ['<%= config.bin %> key-requests reject 01J... --note "not enough information"']
  static override args = { id: Args.string({ required: true, description: 'key request id' }) }
  static override flags = { note: Flags.string({ description: 'reason, kept with the review item' }) }

  async run(): Promise<RejectResult> {
    const { args, flags } = await this.parse(KeyRequestsReject)
    const client = await this.adminClient(flags)
    const review = await client.rejectKeyRequest(args.id, flags.note)
    this.log(`Rejected key request ${review.id}`)
    return { review }
  }
}
