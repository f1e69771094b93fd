import { isAbsolute, join, resolve } from 'node:path'
import type { z } from 'zod'
import { ConfigError } from './config-error.ts'
import { configSchema, DEVNET_FEE_RECIPIENT, senderAccountsOf } from './config-schema.ts'
import type { PrebuyConfig } from './config.ts'
import { CONFIG_FILE_NAME, readConfigFile } from './read-config-file.ts'
import { resolvePassphrase } from './resolve-passphrase.ts'

/** Values given on the command line; strings are validated like every other source. */
export interface ConfigFlags {
  host?: string | undefined
  port?: string | number | undefined
  dataDir?: string | undefined
  adminPort?: string | number | undefined
}

export interface ConfigSources {
  flags?: ConfigFlags
  /** The process environment; only this layer reads it (library code takes explicit parameters). */
  env?: Record<string, string | undefined>
  /** Relative data dirs resolve against it. */
  cwd?: string
}

/** Environment variables the config reads; everything else comes from flags or config.json. */
export const CONFIG_ENV = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'DATA_DIR',
  adminPort: 'PREBUY_ADMIN_PORT',
  logLevel: 'LOG_LEVEL',
  passphrase: 'PREBUY_PASSPHRASE',
} as const

const FLAG_NAMES: Record<keyof ConfigFlags, string> = { host: '--host', port: '--port', dataDir: '--data-dir', adminPort: '--admin-port' }

type Layer = 'flag' | 'env' | 'file'

/** Numbers arrive as text from flags and env: convert only clean integers, so "80a" still fails with the field's message. */
const numeric = (value: string | number): string | number => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value)

/**
 * Builds the configuration with precedence flag > env > config file > default, validates it once, and fails with a
 * ConfigError whose message is one line naming the field and where the bad value came from.
 */
export async function loadConfig(sources: ConfigSources = {}): Promise<PrebuyConfig> {
  const flags = sources.flags ?? {}
  const env = sources.env ?? {}
  const cwd = sources.cwd ?? process.cwd()

  // The data dir is resolved first: it says where config.json is, so the file cannot set it.
  const dataDirRaw = flags.dataDir ?? env[CONFIG_ENV.dataDir] ?? './data'
  if (dataDirRaw.trim() === '') {
    throw new ConfigError('dataDir', 'expected a directory path', flags.dataDir !== undefined ? 'from --data-dir' : `from env ${CONFIG_ENV.dataDir}`)
  }
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw)
  const filePath = join(dataDir, CONFIG_FILE_NAME)
  const file = await readConfigFile(filePath)
  if ('dataDir' in file) {
    throw new ConfigError(
      'dataDir',
      `cannot be set in ${CONFIG_FILE_NAME}, which lives in the data dir; use --data-dir or ${CONFIG_ENV.dataDir}`,
      `from ${CONFIG_FILE_NAME}`,
    )
  }

  const merged: Record<string, unknown> = { ...file }
  const origin = new Map<string, string>()
  for (const key of Object.keys(file)) origin.set(key, `from ${CONFIG_FILE_NAME}`)
  const put = (key: string, value: unknown, layer: Layer, name: string) => {
    merged[key] = value
    origin.set(key, layer === 'flag' ? `from ${name}` : `from env ${name}`)
  }
  for (const key of ['host', 'port', 'adminPort', 'logLevel'] as const) {
    const envValue = env[CONFIG_ENV[key]]
    if (envValue !== undefined) put(key, key === 'port' || key === 'adminPort' ? numeric(envValue) : envValue, 'env', CONFIG_ENV[key])
  }
  for (const key of ['host', 'port', 'adminPort'] as const) {
    const flagValue = flags[key]
    if (flagValue !== undefined) put(key, key === 'host' ? flagValue : numeric(flagValue), 'flag', FLAG_NAMES[key])
  }
  merged.dataDir = dataDir

  const result = configSchema.safeParse(merged)
  if (!result.success) throw toConfigError(result.error, origin)
  const parsed = result.data

  const adminPort = parsed.adminPort ?? (parsed.port < 65535 ? parsed.port + 1 : parsed.port - 1)
  if (adminPort === parsed.port) {
    throw new ConfigError('adminPort', 'must differ from port', origin.get('adminPort') ?? 'default: port + 1')
  }
  const mode = parsed.chains.mode
  const { passphrase, source } = await resolvePassphrase({ envValue: env[CONFIG_ENV.passphrase], mode, dataDir })
  return {
    host: parsed.host,
    port: parsed.port,
    adminPort,
    dataDir,
    logLevel: parsed.logLevel,
    requestLogPerMinute: parsed.requestLogPerMinute,
    chains: parsed.chains,
    rateLimits: parsed.rateLimits,
    trustProxy: parsed.trustProxy,
    cors: parsed.cors,
    // The schema requires feeRecipient in rpc mode, so the fallback only ever applies to devnet.
    feeRecipient: parsed.feeRecipient ?? DEVNET_FEE_RECIPIENT,
    wallet: {
      // The canonical SimpleAccount v0.7 unless the operator chooses Kernel v3.1.
      accountKind: parsed.wallet.accountKind ?? 'simple',
      deployAhead: parsed.wallet.deployAhead,
      bundlerLowEth: parsed.wallet.bundlerLowEth,
      priorityFee: parsed.wallet.priorityFee,
      // Resolved here so everything downstream reads one number: the mode's default when unset.
      senderAccounts: senderAccountsOf(parsed),
    },
    ownerChanges: { noticeHours: parsed.ownerChanges.noticeHours },
    launches: {
      sharedDeployers: parsed.launches.sharedDeployers,
      ...(parsed.launches.zoraEthPool ? { zoraEthPool: parsed.launches.zoraEthPool } : {}),
    },
    withdrawals: parsed.withdrawals,
    passphrase,
    passphraseSource: source,
  }
}

function toConfigError(error: z.ZodError, origin: Map<string, string>): ConfigError {
  // Report the first problem only: one line, one fix at a time.
  const issue = error.issues[0]
  if (issue === undefined) return new ConfigError('config', 'invalid', 'unknown source')
  let path = issue.path.map(String)
  let message = issue.message
  if (issue.code === 'unrecognized_keys') {
    path = [...path, issue.keys[0] ?? '']
    message = 'unknown field'
  } else if (issue.code === 'invalid_union' && path.at(-1) !== 'mode' && 'discriminator' in issue) {
    path = [...path, String(issue.discriminator)]
  }
  // zod's generic text for a missing object or value; say it plainly.
  if (issue.code === 'invalid_type' && /received undefined$/.test(message)) message = 'required'
  const top = path[0] ?? ''
  return new ConfigError(path.join('.') || 'config', message, origin.get(top) ?? 'not set')
}
