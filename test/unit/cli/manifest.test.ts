import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ESM script without type declarations
import { buildManifest } from '../../../bin/generate-manifest.js'

const root = join(import.meta.dirname, '..', '..', '..')

describe('oclif.manifest.json', () => {
  it('matches the commands on disk (regenerate with: node bin/generate-manifest.js)', async () => {
    const committed = JSON.parse(await readFile(join(root, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, unknown> }
    const fresh = JSON.parse((await buildManifest()) as string) as { commands: Record<string, unknown> }
    expect(Object.keys(committed.commands).sort()).toEqual(Object.keys(fresh.commands).sort())
    expect(committed).toEqual(fresh)
  })

  it('lists every operator command the README documents', async () => {
    const committed = JSON.parse(await readFile(join(root, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, unknown> }
    expect(Object.keys(committed.commands)).toEqual(
      expect.arrayContaining([
        'daemon:start',
        'daemon:status',
        'registrations:list',
        'registrations:approve',
        'registrations:reject',
        'key-requests:list',
        'key-requests:approve',
        'key-requests:reject',
        'feedback:list',
        'keys:list',
        'projects:list',
        'projects:update',
        'keys:revoke',
        'submissions:open',
        'submissions:close',
        'blocklist:add',
        'blocklist:remove',
        'blocklist:list',
        'devnet:fund',
        'devnet:mine',
        'devnet:deployments',
        'devnet:launch',
        'devnet:swap',
      ]),
    )
  })
})
