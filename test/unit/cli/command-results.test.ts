import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMAND_RESULTS, COMMANDS_WITHOUT_RESULT, resultSchemaOf } from '../../../src/admin-api/command-results.ts'

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, { enableJsonFlag?: boolean; examples?: string[]; aliases?: string[] }>
}

describe('every command documents its --json result', () => {
  it('each command of the manifest has a result schema (or prints none), and no schema names a command that does not exist', () => {
    const ids = Object.keys(manifest.commands)
    const aliases = new Set(Object.values(manifest.commands).flatMap((c) => c.aliases ?? []))
    const documented = new Set([...Object.keys(COMMAND_RESULTS), ...COMMANDS_WITHOUT_RESULT])
    expect(ids.filter((id) => !documented.has(id) && !aliases.has(id))).toEqual([])
    expect([...documented].filter((id) => !ids.includes(id) && !aliases.has(id))).toEqual([])
  })

  it('each command has --help examples', () => {
    const without = Object.entries(manifest.commands)
      .filter(([, c]) => (c.examples ?? []).length === 0)
      .map(([id]) => id)
    expect(without).toEqual([])
  })

  it('finds a command’s schema from its argument list, flags and arguments after it', () => {
    expect(resultSchemaOf(['launches', 'watch', 'rocket', '--data-dir', '/tmp/x'])?.id).toBe('launches:watch')
    expect(resultSchemaOf(['keys', 'link-social', 'alice', '--username', 'a'])?.id).toBe('keys:link-social')
    expect(resultSchemaOf(['review'])?.id).toBe('review')
    expect(resultSchemaOf(['nothing', 'here'])).toBeUndefined()
  })

  it('a result that drifts from its schema is caught', () => {
    const schema = COMMAND_RESULTS['daemon:stop']
    expect(schema.safeParse({ pid: 1, stopped: true }).success).toBe(true)
    expect(schema.safeParse({ pid: 1, stopped: true, extra: 1 }).success).toBe(false)
    expect(schema.safeParse({ pid: '1', stopped: true }).success).toBe(false)
  })
})
