import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Level } from 'level'
import { pathExists, readBackupFile } from './backup-file.ts'
import type { ParsedBackup } from './backup-format.ts'
import type { LineBounds } from './bounded-lines.ts'

export interface RestoreResult {
  dataDir: string
  entries: number
  files: string[]
  storeVersion: number
  backupCreatedAt: string
  /** What was in the data dir before, kept under a new name (`db.before-restore-<time>`, ...). */
  movedAside: string[]
}

/** Why a restore did not start; nothing in the data dir was changed. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RestoreRefusedError'
  }
}

type RawDb = Level<string, string>
const openRaw = async (path: string): Promise<RawDb> => {
  const db = new Level<string, string>(path, { keyEncoding: 'utf8', valueEncoding: 'utf8' })
  await db.open()
  return db
}

/** Whether the data dir's database holds anything; refuses a database another process has open (a live daemon). */
async function databaseInUse(dbPath: string): Promise<boolean> {
  if (!(await pathExists(dbPath))) return false
  let db: RawDb
  try {
    db = await openRaw(dbPath)
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    if ((error as { code?: string }).code === 'LEVEL_LOCKED' || /lock/i.test(cause?.message ?? '')) {
      throw new RestoreRefusedError(`the database at ${dbPath} is open in another process (a running daemon?): stop it first`)
    }
    throw error
  }
  try {
    for await (const _ of db.keys({ limit: 1 })) return true
    return false
  } finally {
    await db.close()
  }
}

/**
 * Restores a backup into a data dir whose daemon is stopped. The whole file is checked while it is written to a staging
 * database next to `db/`; only a complete, intact backup replaces anything. What the data dir held (its database, a
 * master secret or config.json that differ from the backup's) is refused unless `force`, and then moved aside under a
 * `.before-restore-<time>` name, never deleted. The daemon migrates an older store layout at its next start.
 */
export async function restoreBackup(options: {
  file: string
  dataDir: string
  force: boolean
  now?: () => Date
  /** The backup's line and total size bounds (the defaults; a test lowers them). */
  bounds?: LineBounds
}): Promise<RestoreResult> {
  const { dataDir, file } = options
  const dbPath = join(dataDir, 'db')
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  // A data dir made beforehand (mkdir's default 0755) would stay readable by everyone until the daemon's next start;
  // what a restore writes there is the wallets' encrypted secret and every buyer's records.
  await chmod(dataDir, 0o700)
  const occupied = await databaseInUse(dbPath)

  // Check the whole file while staging its entries (a database of our own: nothing of the data dir is touched yet).
  // The staging database is removed on every failure until it has replaced `db/`.
  const staging = join(dataDir, `db.restoring-${process.pid}`)
  await rm(staging, { recursive: true, force: true })
  let staged = false
  try {
    const parsed = await stage(file, staging, options.bounds)
    const result = await replaceWithStaged({ ...options, dataDir, dbPath, staging, occupied, parsed })
    staged = true
    return result
  } finally {
    if (!staged) await rm(staging, { recursive: true, force: true })
  }
}

/** Writes the backup's entries into a new database at `staging` while checking the whole file. */
async function stage(file: string, staging: string, bounds: LineBounds | undefined): Promise<ParsedBackup> {
  const stagingDb = await openRaw(staging)
  try {
    let batch = stagingDb.batch()
    const parsed = await readBackupFile(
      file,
      async (key, value) => {
        batch.put(key, value)
        if (batch.length >= 1_000) {
          await batch.write()
          batch = stagingDb.batch()
        }
      },
      bounds,
    )
    await batch.write()
    return parsed
  } finally {
    await stagingDb.close().catch(() => undefined)
  }
}

async function replaceWithStaged(options: {
  dataDir: string
  dbPath: string
  staging: string
  occupied: boolean
  parsed: ParsedBackup
  force: boolean
  now?: () => Date
}): Promise<RestoreResult> {
  const { dataDir, dbPath, staging, occupied, parsed } = options

  const conflicts: string[] = occupied ? ['db'] : []
  for (const backupFile of parsed.files) {
    const current = await readFile(join(dataDir, backupFile.path), 'utf8').catch(() => undefined)
    if (current !== undefined && current !== backupFile.content) conflicts.push(backupFile.path)
  }
  if (conflicts.length > 0 && !options.force) {
    throw new RestoreRefusedError(
      `the data dir ${dataDir} already holds ${conflicts.join(', ')}; restore into an empty data dir, or pass --force to move them aside (renamed, not deleted)`,
    )
  }

  const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-')
  const movedAside: string[] = []
  for (const path of conflicts) {
    const target = `${path}.before-restore-${stamp}`
    await rename(join(dataDir, path), join(dataDir, target))
    movedAside.push(target)
  }
  if (await pathExists(dbPath)) await rm(dbPath, { recursive: true, force: true }) // an empty database (checked above)
  await rename(staging, dbPath)
  for (const backupFile of parsed.files) {
    const path = join(dataDir, backupFile.path)
    await mkdir(dirname(path), { recursive: true, mode: 0o700 })
    await writeFile(path, backupFile.content, { mode: 0o600 })
    await chmod(path, 0o600)
  }
  return {
    dataDir,
    entries: parsed.entries,
    files: parsed.files.map((f) => f.path),
    storeVersion: parsed.header.storeVersion,
    backupCreatedAt: parsed.header.createdAt,
    movedAside,
  }
}
