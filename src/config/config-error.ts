/**
 * A configuration problem found at start-up. `message` is the single line printed before the daemon exits
 * ("config error: port: expected an integer from 1 to 65535 (from config.json)"); it never contains a secret value.
 */
export class ConfigError extends Error {
  constructor(field: string, problem: string, source: string) {
    super(`config error: ${field}: ${problem} (${source})`)
    this.name = 'ConfigError'
  }
}

export const isConfigError = (error: unknown): error is ConfigError => error instanceof ConfigError
