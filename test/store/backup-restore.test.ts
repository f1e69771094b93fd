import { createWriteStream } from 'node:fs'
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { BackupFormatError, createBackupWriter } from '../../src/store/backup/backup-format.ts'
import { readBackupFile, writeBackupFile } from '../../src/store/backup/backup-file.ts'
import { backupStream } from '../../src/store/backup/backup-stream.ts'
import { RestoreRefusedError, restoreBackup } from '../../src/store/backup/restore-backup.ts'
import { openStore, put, type Store } from '../../src/store/open-store.ts'
import { approvedProject, bearer, createHarness, createKey, PREFIX } from '../api/harness.ts'

const dirs: string[] = []
const tempDir = async (label: string) => {
  const dir = await mkdtemp(join(tmpdir(), `prebuy-${label}-`))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function allEntries(store: Store): Promise<Array<[string, string]>> {
  const entries: Array<[string, string]> = []
  for await (const entry of store.snapshotEntries()) entries.push(entry)
  return entries
}

const MASTER = '{"version":1,"ciphertext":"abc"}'

describe('backup and restore', () => {
  it('a backup restored into an empty data dir holds exactly the same database and the master secret and config', async () => {
    const h = await createHarness({ dataDir: await tempDir('source') })
    try {
      await approvedProject(h, 'alpha')
      const { apiKey } = await createKey(h, 'buyer')
      const placed = await h.app.inject({
        method: 'POST',
        url: `${PREFIX}/orders`,
        headers: bearer(apiKey),
        payload: { items: [{ slug: 'alpha', maxSpendUsdc: '100', maxFdvUsdc: '400000', expiresInMs: 3_600_000 }] },
      })
      expect(placed.statusCode).toBeLessThan(300)
      await mkdir(join(h.dataDir, 'secrets'), { recursive: true })
      await writeFile(join(h.dataDir, 'secrets', 'master-secret.json'), MASTER)
      await writeFile(join(h.dataDir, 'config.json'), '{"port": 9000}')
      const file = join(await tempDir('out'), 'backup.jsonl.gz')
      const written = await writeBackupFile(backupStream(h.store, h.dataDir), file, { overwrite: false })
      expect(written.files.map((f) => f.path)).toEqual(['secrets/master-secret.json', 'config.json'])
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      const original = await allEntries(h.store)
      expect(written.entries).toBe(original.length)
      expect(original.some(([key]) => key.startsWith('!orders!'))).toBe(true)

      // A second backup to the same name is refused unless asked to overwrite.
      await expect(writeBackupFile(backupStream(h.store, h.dataDir), file, { overwrite: false })).rejects.toThrow(/already exists/)

      const target = join(await tempDir('target'), 'data')
      const result = await restoreBackup({ file, dataDir: target, force: false })
      expect(result).toMatchObject({ entries: original.length, files: ['secrets/master-secret.json', 'config.json'], movedAside: [] })
      expect(await readFile(join(target, 'secrets', 'master-secret.json'), 'utf8')).toBe(MASTER)
      expect((await stat(join(target, 'secrets', 'master-secret.json'))).mode & 0o777).toBe(0o600)
      const restored = await openStore({ dataDir: target })
      try {
        expect(await allEntries(restored)).toEqual(original)
        expect(await restored.sub.orders.get(`${(await h.services.keys.listKeys()).find((k) => k.label === 'buyer')!.id}!alpha`)).toMatchObject({
          status: 'active',
        })
      } finally {
        await restored.close()
      }
      expect((await readdir(target)).sort()).toEqual(['config.json', 'db', 'secrets'])
    } finally {
      await h.destroy()
    }
  })

  it('is one snapshot: writes landing while the backup is read are wholly in it or wholly out of it', async () => {
    const dataDir = await tempDir('busy')
    const store = await openStore({ dataDir })
    const left = store.sublevel<number>('test.left')
    const right = store.sublevel<number>('test.right')
    for (let i = 0; i < 2_000; i++) await store.batch([put(left, String(i).padStart(6, '0'), i), put(right, String(i).padStart(6, '0'), i)])
    let writing = true
    let written = 2_000
    const writer = (async () => {
      // Every batch moves both sides together: a torn backup would show a left without its right.
      while (writing) {
        const i = written++
        await store.batch([put(left, String(i).padStart(6, '0'), i), put(right, String(i).padStart(6, '0'), i), put(left, 'total', i)])
      }
    })()
    const file = join(await tempDir('busy-out'), 'b.gz')
    const stream = backupStream(store, dataDir)
    const backup = writeBackupFile(stream, file, { overwrite: false })
    const { entries } = await backup
    writing = false
    await writer
    expect(written).toBeGreaterThan(2_000) // the writer ran while the backup was read
    await store.close()

    const values = new Map<string, string>()
    await readBackupFile(file, (key, value) => void values.set(key, value))
    expect(entries).toBe(values.size)
    const lefts = [...values.keys()].filter((k) => k.startsWith('!test.left!') && !k.endsWith('total'))
    const rights = [...values.keys()].filter((k) => k.startsWith('!test.right!'))
    expect(lefts.length).toBeGreaterThanOrEqual(2_000)
    expect(lefts.map((k) => k.slice('!test.left!'.length))).toEqual(rights.map((k) => k.slice('!test.right!'.length)))
    if (lefts.length > 2_000) expect(Number(values.get('!test.left!total'))).toBe(lefts.length - 1)
  })

  it('refuses an occupied data dir or a different master secret unless forced, then moves them aside, never deletes', async () => {
    const source = await tempDir('src')
    const store = await openStore({ dataDir: source })
    await store.batch([put(store.sub.meta, 'nextUserIndex', 7)])
    await mkdir(join(source, 'secrets'))
    await writeFile(join(source, 'secrets', 'master-secret.json'), MASTER)
    const file = join(await tempDir('occ-out'), 'b.gz')
    await writeBackupFile(backupStream(store, source), file, { overwrite: false })
    await store.close()

    const target = await tempDir('occupied')
    const existing = await openStore({ dataDir: target })
    await existing.batch([put(existing.sub.meta, 'nextUserIndex', 99)])
    // A live store (a running daemon holds the LevelDB lock) is refused outright.
    await expect(restoreBackup({ file, dataDir: target, force: true })).rejects.toThrow(RestoreRefusedError)
    await existing.close()
    await mkdir(join(target, 'secrets'))
    await writeFile(join(target, 'secrets', 'master-secret.json'), '{"other": true}')

    const refused = await restoreBackup({ file, dataDir: target, force: false }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(RestoreRefusedError)
    expect((refused as Error).message).toContain('db, secrets/master-secret.json')
    // Nothing changed, no staging database left behind.
    expect((await readdir(target)).sort()).toEqual(['db', 'secrets'])
    const untouched = await openStore({ dataDir: target })
    expect(await untouched.sub.meta.get('nextUserIndex')).toBe(99)
    await untouched.close()

    const forced = await restoreBackup({ file, dataDir: target, force: true, now: () => new Date('2026-11-25T01:02:03.004Z') })
    expect(forced.movedAside).toEqual(['db.before-restore-2026-11-25T01-02-03-004Z', 'secrets/master-secret.json.before-restore-2026-11-25T01-02-03-004Z'])
    expect(await readFile(join(target, 'secrets', 'master-secret.json.before-restore-2026-11-25T01-02-03-004Z'), 'utf8')).toBe('{"other": true}')
    const restored = await openStore({ dataDir: target })
    expect(await restored.sub.meta.get('nextUserIndex')).toBe(7)
    await restored.close()
    // The database that was there is intact under its new name.
    const { Level } = await import('level')
    const kept = new Level<string, string>(join(target, 'db.before-restore-2026-11-25T01-02-03-004Z'), { valueEncoding: 'json' })
    expect(await kept.sublevel<string, number>('meta', { valueEncoding: 'json' }).get('nextUserIndex')).toBe(99)
    await kept.close()
  })

  it('a cut-off backup file changes nothing', async () => {
    const source = await tempDir('cut-src')
    const store = await openStore({ dataDir: source })
    for (let i = 0; i < 500; i++) await store.batch([put(store.sublevel<string>('test.bulk'), String(i), 'x'.repeat(200))])
    const file = join(await tempDir('cut-out'), 'b.gz')
    await writeBackupFile(backupStream(store, source), file, { overwrite: false })
    await store.close()
    await truncate(file, Math.floor((await stat(file)).size / 2))

    const target = await tempDir('cut-target')
    const error = await restoreBackup({ file, dataDir: target, force: true }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BackupFormatError)
    expect(await readdir(target)).toEqual([])
  })

  it('refuses a line above the bound (a small gzip inflating to one huge line) and leaves no staging database', async () => {
    // 100 MB of one line, gzipped to about 100 KB: above the 64 MiB line bound, the real default.
    const file = join(await tempDir('huge-out'), 'huge.gz')
    const header = `${JSON.stringify({ format: 'prebuy-backup', version: 1, createdAt: new Date().toISOString(), storeVersion: 1 })}\n`
    async function* huge(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${header}{"entry":["k","`)
      const block = Buffer.alloc(1024 * 1024, 0x61)
      for (let i = 0; i < 100; i++) yield block
      yield Buffer.from('"]}\n')
    }
    await pipeline(Readable.from(huge()), createGzip({ level: 1 }), createWriteStream(file))
    expect((await stat(file)).size).toBeLessThan(2 * 1024 * 1024)
    const target = await tempDir('huge-target')
    const error = await restoreBackup({ file, dataDir: target, force: true }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BackupFormatError)
    expect((error as Error).message).toMatch(/line 2 is longer than 64 MiB/)
    expect(await readdir(target)).toEqual([])
  })

  it('refuses a backup above the total bound', async () => {
    const source = await tempDir('total-src')
    const store = await openStore({ dataDir: source })
    for (let i = 0; i < 50; i++) await store.batch([put(store.sublevel<string>('test.bulk'), String(i), 'x'.repeat(200))])
    const file = join(await tempDir('total-out'), 'b.gz')
    await writeBackupFile(backupStream(store, source), file, { overwrite: false })
    await store.close()
    const target = await tempDir('total-target')
    const error = await restoreBackup({ file, dataDir: target, force: true, bounds: { maxLineBytes: 1024, maxTotalBytes: 4096 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BackupFormatError)
    expect((error as Error).message).toMatch(/inflates to more than/)
    expect(await readdir(target)).toEqual([])
  })

  it('refuses a backup holding a value the database cannot decode, before anything is restored', async () => {
    const file = join(await tempDir('bad-value-out'), 'b.gz')
    const writer = createBackupWriter({ createdAt: new Date().toISOString(), storeVersion: 1 })
    const text = writer.header() + writer.entry('!orders!a', '{"status":"active"}') + writer.entry('!orders!b', '{not json') + writer.finish()
    await pipeline(Readable.from([Buffer.from(text)]), createGzip(), createWriteStream(file))
    const target = await tempDir('bad-value-target')
    const error = await restoreBackup({ file, dataDir: target, force: true }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BackupFormatError)
    expect((error as Error).message).toMatch(/line 3: the value of "!orders!b" is not JSON/)
    expect(await readdir(target)).toEqual([])
  })

  it('makes a data dir made beforehand private', async () => {
    const source = await tempDir('private-src')
    const store = await openStore({ dataDir: source })
    await store.batch([put(store.sublevel<string>('test.bulk'), '1', 'x')])
    const file = join(await tempDir('private-out'), 'b.gz')
    await writeBackupFile(backupStream(store, source), file, { overwrite: false })
    await store.close()
    const target = join(await tempDir('private-target'), 'data')
    await mkdir(target, { mode: 0o755 })
    await chmod(target, 0o755)
    await restoreBackup({ file, dataDir: target, force: false })
    expect((await stat(target)).mode & 0o777).toBe(0o700)
  })

  it('never writes through a file or a symlink placed at the partial name', async () => {
    const source = await tempDir('partial-src')
    const store = await openStore({ dataDir: source })
    await store.batch([put(store.sublevel<string>('test.bulk'), '1', 'x')])
    const out = await tempDir('partial-out')
    const file = join(out, 'b.gz')
    const victim = join(out, 'victim.txt')
    await writeFile(victim, 'keep me')
    await symlink(victim, `${file}.partial-${process.pid}`)
    try {
      const error = await writeBackupFile(backupStream(store, source), file, { overwrite: false }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(BackupFormatError)
      expect((error as Error).message).toMatch(/already exists/)
      expect(await readFile(victim, 'utf8')).toBe('keep me')
      expect((await lstat(`${file}.partial-${process.pid}`)).isSymbolicLink()).toBe(true)
      await rm(`${file}.partial-${process.pid}`)
      const written = await writeBackupFile(backupStream(store, source), file, { overwrite: false })
      expect(written.entries).toBeGreaterThan(0)
      expect((await stat(file)).mode & 0o777).toBe(0o600)
    } finally {
      await store.close()
    }
  })
})
