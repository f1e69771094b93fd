import { Low } from 'lowdb'
import { TextFile } from 'lowdb/node'
import { ConfigError } from './config-error.ts'

export const CONFIG_FILE_NAME = 'config.json'

/**
 * Reads `<data-dir>/config.json` through lowdb without ever creating or rewriting it (the operator owns that file).
 * A missing file is an empty config; a file that is not a JSON object is a config error.
 */
export async function readConfigFile(path: string): Promise<Record<string, unknown>> {
  // TextFile + our own parse, so a syntax error becomes one clear line instead of lowdb's JSON.parse stack.
  const db = new Low<string>(new TextFile(path), '')
  await db.read()
  // lowdb keeps the default ('') for a missing file; an empty file means the same thing.
  if (db.data.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(db.data)
  } catch (error) {
    throw new ConfigError(CONFIG_FILE_NAME, `not valid JSON: ${(error as Error).message}`, path)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(CONFIG_FILE_NAME, 'expected a JSON object', path)
  }
  return parsed as Record<string, unknown>
}
