import { Args, Flags } from '@oclif/core'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { runKeyScreen } from '../../src/console/key-screen.tsx'
import { checkDiffers, checkedAnything, checkReplays, checkText, replayAll, replayBatches, type ReplayCheck } from '../../src/console/replay/replay-check.ts'
import { replayScreen } from '../../src/console/replay/replay-console.tsx'
import { initialReplayState } from '../../src/console/replay/replay-state.ts'
import { replayText, replayView } from '../../src/console/replay/replay-view.ts'

/** Exit code of `--check` when no recorded tick holds its inputs: nothing was checked, which is not a pass. */
export const NOTHING_TO_CHECK_EXIT = 3

export default class ExecutionsReplay extends OperatorCommand {
  static override description =
    `Step through what the executor recorded for a launch, tick by tick: block, pool state, fees, effective cap, and each order's verdict, rank, spend, outcome and transaction.
Every tick is also decided again with today's pricing and prioritisation code over the recorded inputs; ticks where today's verdicts differ are flagged (a regression check after an upgrade).
Every batch (one swap, one price per block) is cleared again from its recorded candidates and pool answers (who is included by the priority rule, who is left out and why, the committed lowest limit), and its allocation recomputed from the swap's output against what each order was credited; a batch that differs is named with the order.
Keys: ←/→ one tick, space play/pause, Home/End first/last, n next difference, ↑/↓ scroll orders, q quit.
--check prints only the differences and exits 1 when there are any (0: none; ${NOTHING_TO_CHECK_EXIT}: no tick nor batch could be checked). Without a terminal it prints every tick, then the check.`
  static override examples = [
    '<%= config.bin %> executions replay rocket',
    '<%= config.bin %> executions replay rocket --check',
    '<%= config.bin %> executions replay rocket --check --json',
  ]
  static override args = { slug: Args.string({ required: true, description: 'the launched project' }) }
  static override flags = { check: Flags.boolean({ description: 'print the differences with today’s code and exit non-zero when there are any' }) }

  async run(): Promise<ReplayCheck | undefined> {
    const { args, flags } = await this.parse(ExecutionsReplay)
    const journal = await (await this.adminClient(flags)).executionJournal(args.slug)
    const replays = replayAll(journal)
    const check = checkReplays(args.slug, replays, replayBatches(journal))
    if (flags.check || this.jsonEnabled() || !process.stdout.isTTY) {
      if (!this.jsonEnabled()) {
        if (!flags.check) {
          const state = initialReplayState(journal, replays)
          for (let index = 0; index < replays.length; index++) this.log(`${replayText(replayView({ ...state, index })).join('\n')}\n`)
        }
        this.log(checkText(check).join('\n'))
      }
      const code = checkDiffers(check) ? 1 : !checkedAnything(check) ? NOTHING_TO_CHECK_EXIT : 0
      if (flags.check && code !== 0) {
        if (this.jsonEnabled()) this.logJson(check)
        this.exit(code)
      }
      return check
    }
    await runKeyScreen(replayScreen(journal, replays))
    return undefined
  }
}
