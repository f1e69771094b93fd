import { format } from 'node:util'
import { Command, Errors, Flags, type Interfaces, ux } from '@oclif/core'
import { terminalSafe, terminalSafeJson } from '../../common/terminal-safe.ts'
import { createAdminClient, AdminApiError, type AdminClient } from '../admin-client.ts'
import { DaemonNotFoundError, locateDaemon } from '../locate-daemon.ts'
import { StreamUnavailableError } from '../stream-unavailable-error.ts'
import { resolve } from 'node:path'

/**
 * Base of every command that talks to a running daemon. It finds the daemon from `--data-dir` (daemon.json and
 * operator-token), gives the command a typed admin client, and turns admin API errors into one clear line.
 * Commands return their result, so `--json` prints exactly what the admin API answered.
 */
export abstract class OperatorCommand extends Command {
  static override enableJsonFlag = true

  static override baseFlags = {
    'data-dir': Flags.string({
      description: 'data dir of the daemon to talk to',
      env: 'DATA_DIR',
      default: './data',
      helpGroup: 'GLOBAL',
    }),
  }

  /**
   * Everything a command prints goes through here or logJson: fields anyone can set (labels, project names, feedback)
   * must not reach the operator's terminal as control sequences (see terminal-safe.ts).
   */
  override log(message = '', ...args: unknown[]): void {
    super.log(terminalSafe(format(message, ...args)))
  }

  protected override logJson(json: unknown): void {
    ux.stdout(terminalSafeJson(JSON.stringify(json, null, 2)))
  }

  protected dataDir(flags: { 'data-dir': string }): string {
    return resolve(flags['data-dir'])
  }

  protected async adminClient(flags: { 'data-dir': string }): Promise<AdminClient> {
    const daemon = await locateDaemon(this.dataDir(flags))
    return createAdminClient({ adminUrl: daemon.adminUrl, operatorToken: daemon.operatorToken })
  }

  /** `--json` errors: just the message (and the admin API's status), not oclif's internals. */
  protected override toErrorJson(error: unknown): { error: { message: string; status?: number } } {
    const message = error instanceof Error ? error.message : String(error)
    return { error: { message, ...(error instanceof AdminApiError && error.status > 0 ? { status: error.status } : {}) } }
  }

  protected override async catch(error: Interfaces.CommandError): Promise<unknown> {
    // `this.exit(code)` after the command printed its own result (e.g. `--check --json`): exit with it, print nothing more.
    if (error instanceof Errors.ExitError) throw error
    if (error instanceof AdminApiError || error instanceof DaemonNotFoundError || error instanceof StreamUnavailableError) {
      // Drop the stack: the message already says what went wrong and what to do.
      if (this.jsonEnabled()) {
        this.logJson(this.toErrorJson(error))
        return this.exit(1)
      }
      const clean: Interfaces.CommandError = Object.assign(new Error(terminalSafe(error.message)), { exitCode: 1, oclif: { exit: 1 } })
      return super.catch(clean)
    }
    return super.catch(error)
  }
}
