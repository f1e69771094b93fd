import { Flags } from '@oclif/core'
import type { ListResponse, ReviewItem } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { REVIEW_COLUMNS, reviewRow } from '../../src/admin-client/cli/review-rows.ts'
import { REVIEW_STATUSES } from '../../src/domain/records.ts'

export default class KeyRequestsList extends OperatorCommand {
  static override description = 'List API key requests submitted through POST /api-key-requests'
  static override examples = ['<%= config.bin %> key-requests list', '<%= config.bin %> key-requests list --status all --json']
  static override flags = {
    status: Flags.string({ options: [...REVIEW_STATUSES, 'all'], default: 'pending', description: 'which review status to list' }),
  }

  async run(): Promise<ListResponse<ReviewItem>> {
    const { flags } = await this.parse(KeyRequestsList)
    const client = await this.adminClient(flags)
    const items = await client.listReviews('key_request', flags.status === 'all' ? undefined : (flags.status as ReviewItem['status']))
    this.log(formatTable(items.map(reviewRow), REVIEW_COLUMNS.key_request))
    return { items }
  }
}
