import type { PrebuyConfig } from './config.ts'

/** A printable view of the config for logs and `daemon status`: everything except secrets. */
export function describeConfig(config: PrebuyConfig): Omit<PrebuyConfig, 'passphrase'> {
  const { passphrase: _secret, ...rest } = config
  return rest
}
