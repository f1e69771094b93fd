import { Flags } from '@oclif/core'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { isAlive, runningDaemonFile } from '../../src/admin-client/locate-daemon.ts'

export default class DaemonStop extends OperatorCommand {
  static override description =
    'Stop the daemon of the data dir gracefully (SIGTERM: it finishes in-flight requests and buys, closes the store and its devnet chains) and wait until it has exited'
  static override examples = ['<%= config.bin %> daemon stop', '<%= config.bin %> daemon stop --data-dir /srv/prebuy --timeout 60']
  static override flags = { timeout: Flags.integer({ description: 'seconds to wait for the exit', default: 60, min: 1 }) }

  async run(): Promise<{ pid: number; stopped: boolean }> {
    const { flags } = await this.parse(DaemonStop)
    const file = await runningDaemonFile(this.dataDir(flags))
    process.kill(file.pid, 'SIGTERM')
    const deadline = Date.now() + flags.timeout * 1000
    while (isAlive(file.pid)) {
      if (Date.now() > deadline) this.error(`the daemon (pid ${file.pid}) is still stopping after ${flags.timeout} s; check its log`, { exit: 1 })
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    this.log(`Daemon stopped (pid ${file.pid}).`)
    return { pid: file.pid, stopped: true }
  }
}
