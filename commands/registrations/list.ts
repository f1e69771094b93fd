import { Flags } from '@oclif/core'
import type { ListResponse, ReviewItem } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { REVIEW_COLUMNS, reviewRow } from '../../src/admin-client/cli/review-rows.ts'
import { REVIEW_STATUSES } from '../../src/domain/records.ts'

export default class RegistrationsList extends OperatorCommand {
  static override description = 'List project registrations submitted through POST /projects'
  static override examples = ['<%= config.bin %> registrations list', '<%= config.bin %> registrations list --status all --json']
  static override flags = {
    status: Flags.string({ options: [...REVIEW_STATUSES, 'all'], default: 'pending', description: 'which review status to list' }),
  }

  async run(): Promise<ListResponse<ReviewItem>> {
    const { flags } = await this.parse(RegistrationsList)
    const client = await this.adminClient(flags)
    const items = await client.listReviews('registration', flags.status === 'all' ? undefined : (flags.status as ReviewItem['status']))
    this.log(formatTable(items.map(reviewRow), REVIEW_COLUMNS.registration))
    return { items }
  }
}
