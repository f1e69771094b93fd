import { Flags } from '@oclif/core'
import type { DeskSettings } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class SubmissionsClose extends OperatorCommand {
  static override description = 'Close the submission desk: POST /api-key-requests, /projects and /feedback answer 503 with Retry-After until reopened'
  static override examples = ['<%= config.bin %> submissions close', '<%= config.bin %> submissions close --retry-after 3600']
  static override flags = {
    'retry-after': Flags.integer({ min: 1, max: 86_400, description: 'seconds clients are told to wait (Retry-After)' }),
  }

  async run(): Promise<DeskSettings> {
    const { flags } = await this.parse(SubmissionsClose)
    const client = await this.adminClient(flags)
    const desk = await client.setDesk({ open: false, ...(flags['retry-after'] === undefined ? {} : { retryAfterSeconds: flags['retry-after'] }) })
    this.log(`Submission desk is closed (clients are told to retry after ${desk.retryAfterSeconds} s).`)
    return desk
  }
}
