import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'

/**
 * A real terminal for the console's end-to-end tests: a tmux session (on its own server socket, so tests never touch
 * anyone's sessions) running one command, driven by keystrokes and read back from its screen.
 */
export class TmuxTerminal {
  private readonly socket = `prebuy-test-${randomBytes(4).toString('hex')}`
  private readonly tmux = (...args: string[]) => execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' })

  constructor(command: string, options: { cwd: string; width?: number; height?: number; env?: Record<string, string> }) {
    // CI=true in every test terminal, locally as on our CI (whose CI=true once left the screens blank: Ink holds back
    // its frames in CI): a screen must draw live in a real terminal whatever CI says (bin/run.js).
    const env = Object.entries({ CI: 'true', ...options.env }).flatMap(([k, v]) => ['-e', `${k}=${v}`])
    // One tmux invocation: no user config; panes stay after their command exits (its last screen and exit status stay
    // readable), set before the session starts so even a command that exits at once is kept.
    execFileSync('tmux', [
      '-L',
      this.socket,
      '-f',
      '/dev/null',
      'start-server',
      ';',
      'set-option',
      '-g',
      'remain-on-exit',
      'on',
      ';',
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(options.width ?? 160),
      '-y',
      String(options.height ?? 50),
      '-c',
      options.cwd,
      ...env,
      // The exit status is printed by the shell: tmux 3.3 does not always report #{pane_dead_status}.
      `${command}; echo "[exit $?]"`,
    ])
  }

  /** What the terminal shows now. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'main')
  }

  /** Keys as tmux names them ('q', 'Down', 'Enter', 'C-c') or literal text with `literal`. */
  press(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys)
  }

  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text)
  }

  /** Whether the command has exited (its pane is dead), and with what status. */
  exited(): { dead: boolean; status: number | null } {
    const dead = this.tmux('display-message', '-p', '-t', 'main', '#{pane_dead}').trim() === '1'
    const status = /\[exit (\d+)\]/.exec(this.screen())
    return { dead, status: status ? Number(status[1]) : null }
  }

  /** Polls the screen until `check` passes (returns the screen) or the deadline ends (throws with the last screen). */
  async waitFor(what: string, check: (screen: string) => boolean, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    let last = ''
    while (Date.now() < deadline) {
      last = this.screen()
      if (check(last)) return last
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error(`terminal never showed ${what}; last screen:\n${last}`)
  }

  close(): void {
    try {
      this.tmux('kill-server')
    } catch {
      // already gone
    }
  }
}
