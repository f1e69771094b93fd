/**
 * Exported names defined in more than one file of the product and the devnet wing (issue 20: "each name is defined
 * once"; the rule is in docs/architecture.md "Each name once"). Read from the source text like import-graph.ts, so it
 * takes a second. test/unit/exported-names.test.ts keeps the list empty.
 *
 * A definition is `export const|let|var|function|class|interface|type|enum NAME`. Within one file TypeScript itself
 * allows a name twice only for overloads and a value with its type (zod's `const X` + `type X = z.infer<typeof X>`),
 * so the check is across files. Default exports are left out: an importer names them itself.
 *
 *   node --import tsx scripts/exported-names.ts               this tree: one line a name defined in several files
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PRODUCT_DIRS, WING } from './import-graph.ts'

const SOURCE = /\.(ts|tsx)$/
const DEFINITION = /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm

export interface NameDefinitions {
  name: string
  /** `file:line` of each definition, one per file. */
  places: string[]
}

function filesUnder(root: string, dir: string): string[] {
  const full = join(root, dir)
  if (!existsSync(full)) return []
  if (statSync(full).isFile()) return SOURCE.test(dir) ? [dir] : []
  return readdirSync(full)
    .sort()
    .flatMap((name) => (name === 'node_modules' || name === 'artifacts' ? [] : filesUnder(root, join(dir, name))))
}

/** Every exported name defined in two or more files under `dirs`, sorted by name. */
export function namesDefinedTwice(root: string, dirs: readonly string[] = [...PRODUCT_DIRS, ...WING]): NameDefinitions[] {
  const places = new Map<string, Map<string, number>>()
  for (const file of dirs.flatMap((dir) => filesUnder(root, dir))) {
    const text = readFileSync(join(root, file), 'utf8')
    for (const match of text.matchAll(DEFINITION)) {
      const name = match[1]!
      const files = places.get(name) ?? new Map<string, number>()
      if (!files.has(file)) files.set(file, text.slice(0, match.index).split('\n').length)
      places.set(name, files)
    }
  }
  return [...places]
    .filter(([, files]) => files.size > 1)
    .map(([name, files]) => ({ name, places: [...files].map(([file, line]) => `${file}:${line}`) }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

function main(): void {
  const twice = namesDefinedTwice(resolve(dirname(fileURLToPath(import.meta.url)), '..'))
  for (const { name, places } of twice) console.log(`${name}: ${places.join(', ')}`)
  console.log(`${twice.length} exported names defined in more than one file`)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
