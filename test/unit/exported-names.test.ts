import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { namesDefinedTwice } from '../../scripts/exported-names.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * Names allowed in more than one file, each with its reason (docs/architecture.md "Each name once"). Empty: add a
 * name only with a reason a reviewer accepts, e.g. two launchpads' ABIs publishing the same event under Base's name.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map()

describe('each exported name is defined once (scripts/exported-names.ts)', () => {
  it('no exported name of the product or the devnet wing is defined in two files', () => {
    const twice = namesDefinedTwice(root).filter(({ name }) => !ALLOWED.has(name))
    expect(twice, twice.map(({ name, places }) => `${name}: ${places.join(', ')}`).join('\n')).toEqual([])
  })

  it('finds a name defined in two files, and not an overload, a value with its type, or a default export', () => {
    const tree = mkdtempSync(join(tmpdir(), 'prebuy-names-'))
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(tree, path)), { recursive: true })
      writeFileSync(join(tree, path), text)
    }
    write('src/api/schemas.ts', 'export const ProjectDetail = 1\nexport const ErrorBody = 1\nexport type ErrorBody = number\n')
    write('src/services/project-service.ts', 'export interface ProjectDetail {\n  slug: string\n}\n')
    write('src/swap.ts', 'export function swap(a: 1): 1\nexport function swap(a: 2): 2\nexport function swap(a: number) {\n  return a\n}\n')
    write('commands/deployments.ts', 'export default class Deployments {}\n')
    write('devnet/deployments.ts', 'export interface Deployments {}\n')
    expect(namesDefinedTwice(tree)).toEqual([{ name: 'ProjectDetail', places: ['src/api/schemas.ts:1', 'src/services/project-service.ts:1'] }])
  })
})
