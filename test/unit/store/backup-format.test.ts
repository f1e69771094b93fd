import { describe, expect, it } from 'vitest'
import { BackupFormatError, createBackupWriter, readBackupLines } from '../../../src/store/backup/backup-format.ts'

async function* linesOf(text: string): AsyncGenerator<string> {
  for (const line of text.split('\n')) yield line
}

function backupText(entries: Array<[string, string]>, files = [{ path: 'config.json', content: '{"port": 1}' }]): string {
  const writer = createBackupWriter({ createdAt: '2026-11-25T00:00:00.000Z', storeVersion: 3 })
  return writer.header() + files.map((f) => writer.file(f)).join('') + entries.map(([k, v]) => writer.entry(k, v)).join('') + writer.finish()
}

const ENTRIES: Array<[string, string]> = [
  ['!orders!key_1!alpha', '{"status":"active"}'],
  ['!keys!key_1', '{"label":"line\\nbreak \\u001b[2J"}'],
]

describe('backup format', () => {
  it('reads back what was written: header, files, every entry in order', async () => {
    const seen: Array<[string, string]> = []
    const parsed = await readBackupLines(linesOf(backupText(ENTRIES)), (k, v) => void seen.push([k, v]))
    expect(parsed).toEqual({
      header: { format: 'prebuy-backup', version: 1, createdAt: '2026-11-25T00:00:00.000Z', storeVersion: 3 },
      files: [{ path: 'config.json', content: '{"port": 1}' }],
      entries: 2,
    })
    expect(seen).toEqual(ENTRIES)
  })

  const refused: Array<[string, (text: string) => string, RegExp]> = [
    ['cut off before its end marker', (t) => t.split('\n').slice(0, 3).join('\n'), /incomplete \(no end marker\)/],
    ['an entry altered', (t) => t.replace('active', 'filled'), /checksum/],
    [
      'an entry dropped',
      (t) =>
        t
          .split('\n')
          .filter((l) => !l.includes('alpha'))
          .join('\n'),
      /2 where|incomplete: 1 entries/,
    ],
    ['not a backup', () => '{"hello": 1}\n', /not a prebuy backup/],
    ['empty', () => '', /empty/],
    ['not JSON', (t) => t.replace('{"entry"', '{entry'), /not JSON/],
    ['data after the end', (t) => `${t}{"entry":["a","b"]}\n`, /after the end/],
    ['a newer format', (t) => t.replace('"version":1', '"version":2'), /format version 2/],
    ['a file outside the allowed ones', (t) => t.replace('"path":"config.json"', '"path":"../../etc/passwd"'), /may not carry/],
    ['an entry that is not a string pair', (t) => t.replace('["!keys!key_1",', '[1,'), /not a database entry/],
  ]
  it.each(refused)('refuses a backup %s', async (_name, mutate, message) => {
    const error = await readBackupLines(linesOf(mutate(backupText(ENTRIES)))).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BackupFormatError)
    expect((error as Error).message).toMatch(message)
  })

  it('the writer refuses to carry any other file', () => {
    const writer = createBackupWriter({ createdAt: 'x', storeVersion: 1 })
    expect(() => writer.file({ path: 'db/CURRENT', content: '' })).toThrow(BackupFormatError)
  })
})
