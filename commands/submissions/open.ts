import type { DeskSettings } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class SubmissionsOpen extends OperatorCommand {
  static override description = 'Open the submission desk: key requests, registrations and feedback are accepted again'
  static override examples = ['<%= config.bin %> submissions open']

  async run(): Promise<DeskSettings> {
    const { flags } = await this.parse(SubmissionsOpen)
    const desk = await (await this.adminClient(flags)).setDesk({ open: true })
    this.log('Submission desk is open.')
    return desk
  }
}
