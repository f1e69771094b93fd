/**
 * Rewrites every relative import that names a moved file to its new path, in src/, daemon/, commands/, test/,
 * devnet/, scripts/ and bin/ (static, dynamic and `vi.mock` specifiers). For a branch written before a move was merged:
 *
 *   node --import tsx scripts/rewrite-moved-imports.ts --from-git <commit>     every rename between <commit> and HEAD
 *   node --import tsx scripts/rewrite-moved-imports.ts old.ts new.ts [...]    the given pairs
 *
 * A specifier naming a file that is there is left alone, so running it twice changes nothing.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

const TOPS = ['src', 'daemon', 'commands', 'test', 'devnet', 'scripts', 'bin']
const SPECIFIER = /((?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|vi\.mock\(\s*|vi\.importActual\(\s*)['"])(\.{1,2}\/[^'"]+)(['"])/gm

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path)
    return /\.(ts|tsx|mts|js|mjs)$/.test(name) ? [normalize(path)] : []
  })
}

export function rewriteMovedImports(moves: ReadonlyMap<string, string>, root = '.'): string[] {
  const back = new Map([...moves].map(([from, to]) => [to, from]))
  const changed: string[] = []
  for (const file of TOPS.flatMap((top) => sourceFiles(join(root, top)).map((path) => relative(root, path)))) {
    const was = back.get(file) ?? file
    const text = readFileSync(join(root, file), 'utf8')
    const out = text.replace(SPECIFIER, (whole, head: string, specifier: string, tail: string) => {
      // Left alone when it names a file that is there; else the moved file's new place (from where this file is, or,
      // for a file that moved itself and still has its old specifiers, from where it was).
      const here = normalize(join(dirname(file), specifier))
      if (existsSync(join(root, here))) return whole
      const fromWas = normalize(join(dirname(was), specifier))
      const now = moves.get(here) ?? moves.get(fromWas) ?? fromWas
      if (now === here || !existsSync(join(root, now))) return whole
      const path = relative(dirname(file), now)
      return `${head}${path.startsWith('.') ? path : `./${path}`}${tail}`
    })
    if (out !== text) {
      writeFileSync(join(root, file), out)
      changed.push(file)
    }
  }
  return changed
}

function main(): void {
  const args = process.argv.slice(2)
  const pairs: Array<[string, string]> = []
  if (args[0] === '--from-git') {
    const diff = execFileSync('git', ['diff', '--name-status', '-M', `${args[1]}`, 'HEAD'], { encoding: 'utf8' })
    for (const line of diff.split('\n')) {
      const [status, from, to] = line.split('\t')
      if (status?.startsWith('R') && from && to) pairs.push([normalize(from), normalize(to)])
    }
  } else {
    for (let i = 0; i + 1 < args.length; i += 2) pairs.push([normalize(args[i]!), normalize(args[i + 1]!)])
  }
  const changed = rewriteMovedImports(new Map(pairs))
  console.log(`${pairs.length} moves; imports rewritten in ${changed.length} files`)
  for (const file of changed) console.log(`  ${file}`)
}

if (process.argv[1]?.endsWith('rewrite-moved-imports.ts')) main()
