import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** prebuy's version, from its package.json (read once; the CLI and the daemon run from the same checkout). */
export const PREBUY_VERSION: string = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version
