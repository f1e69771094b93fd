import { Args, Flags } from '@oclif/core'
import type { RejectResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class RegistrationsReject extends OperatorCommand {
  static override description = 'Reject a project registration'
  static override examples = ['<%= config.bin %> registrations reject 01J... --note "launchpad not supported"']
  static override args = { id: Args.string({ required: true, description: 'registration id' }) }
  static override flags = { note: Flags.string({ description: 'reason, kept with the review item' }) }

  async run(): Promise<RejectResult> {
    const { args, flags } = await this.parse(RegistrationsReject)
    const client = await this.adminClient(flags)
    const review = await client.rejectRegistration(args.id, flags.note)
    this.log(`Rejected registration ${review.id}`)
    return { review }
  }
}
