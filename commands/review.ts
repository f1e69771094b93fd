import { OperatorCommand } from '../src/admin-client/cli/operator-command.ts'
import { followDaemon } from '../src/console/follow-daemon.ts'
import { runReviewScreen } from '../src/console/review/review-console.tsx'
import { initialReviewState, reduceReview } from '../src/console/review/review-state.ts'
import { type ReviewView, reviewText, reviewView } from '../src/console/review/review-view.ts'
import { takeSnapshot } from '../src/console/take-snapshot.ts'

export default class Review extends OperatorCommand {
  static override description =
    `The review queue: pending key requests, registrations and feedback, newest first, with counts per kind; it updates live as submissions arrive.
Keys: ↑/↓ (j/k) move, Enter opens the full submission (every field, the requester's IP and whether it is blocked, earlier submissions from the same contact or IP), a approves (a short form validated as you type; an issued key is shown once), r rejects with a reason, b blocks the requester (IP, contact, email), / filters, q or Ctrl-C quits.
Below the queue: owners' changes of what the orders buy (launch binding, OTC offer) waiting for you or their notice period; C confirms the first one, X rejects it with a reason, g reloads them (also prebuy projects changes / confirm-change / reject-change).
Without a terminal (a pipe) or with --json it prints the queue once and exits.`
  static override examples = ['<%= config.bin %> review', '<%= config.bin %> review --json | jq .counts']

  async run(): Promise<ReviewView | undefined> {
    const { flags } = await this.parse(Review)
    const client = await this.adminClient(flags)
    const follow = followDaemon(this.dataDir(flags), 'reviews')
    if (this.jsonEnabled() || !process.stdout.isTTY) {
      const state = await takeSnapshot(initialReviewState(), (s, signals) => reduceReview(s, { type: 'signals', signals }), follow)
      // The owners' changes are read once (the reviews stream does not carry them).
      const view = reviewView({ ...state, outbox: [], changes: await client.pendingChanges() })
      if (!this.jsonEnabled()) this.log(reviewText(view).join('\n'))
      return view
    }
    await runReviewScreen(client, follow)
    return undefined
  }
}
