/**
 * The one time convention (issue 20; docs/architecture.md "One time convention"): an injected source of the time is
 * called `now` (type `Clock` from src/services/clock.ts, milliseconds since the epoch), as `Date.now` is and as the
 * daemon, its workers and the executor already call it; a value it returned is `nowMs` (or a name of what it is:
 * `at`, `createdAt`). Before this, the services and the HTTP layer said `clock` for the same thing.
 *
 * Re-runnable codemod, for after a merge brings code written the other way. It reads code only (comments, strings and
 * the text of template literals are left alone), and only in files that still say `clock` in code:
 *   1. a local value named `now` there (it would clash with the renamed clock) becomes `nowMs`: its declaration (typed
 *      or not, a parameter too), its uses and spreads; a shorthand `{ now }` becomes `{ now: nowMs }` so the key stays;
 *      `x.now` and keys `now:` are not locals and stay;
 *   2. every `clock` becomes `now` (declarations, parameters, deps properties, calls, `deps.clock`).
 * Run on a tree that follows the convention, it changes nothing. TypeScript 7 ships no compiler API, so this works on
 * tokens; `npx tsc --noEmit -p .` after it is the check (and names anything it could not do).
 *
 *   node --import tsx scripts/codemod-time-convention.ts            rewrite (then biome format), list the files it changed
 *   node --import tsx scripts/codemod-time-convention.ts --check    list what it would change; exit 1 if anything
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DIRS = ['src', 'daemon', 'commands', 'devnet', 'test', 'bin', 'scripts']
const SELF = 'scripts/codemod-time-convention.ts'

export interface Token {
  kind: 'code' | 'other'
  text: string
}

/** Splits TypeScript source into identifier-bearing code and everything else (comments, strings, template text). */
export function tokenize(source: string): Token[] {
  const out: Token[] = []
  const push = (kind: Token['kind'], text: string) => {
    if (text !== '') out.push({ kind, text })
  }
  let i = 0
  let code = ''
  // Template literals nest: each open `${` remembers the brace depth it returns to the template at.
  const templates: number[] = []
  let depth = 0
  const flush = () => {
    push('code', code)
    code = ''
  }
  const readTemplateText = () => {
    // From just after a backtick or a closing `}` of a substitution: text until `${` or the closing backtick.
    let text = ''
    while (i < source.length) {
      const c = source[i]!
      if (c === '\\') {
        text += source.slice(i, i + 2)
        i += 2
        continue
      }
      if (c === '`') {
        text += c
        i += 1
        push('other', text)
        return
      }
      if (c === '$' && source[i + 1] === '{') {
        text += '${'
        i += 2
        push('other', text)
        templates.push(depth)
        return
      }
      text += c
      i += 1
    }
    push('other', text)
  }
  while (i < source.length) {
    const c = source[i]!
    const next = source[i + 1]
    if (c === '/' && next === '/') {
      flush()
      const end = source.indexOf('\n', i)
      const stop = end === -1 ? source.length : end
      push('other', source.slice(i, stop))
      i = stop
    } else if (c === '/' && next === '*') {
      flush()
      const end = source.indexOf('*/', i + 2)
      const stop = end === -1 ? source.length : end + 2
      push('other', source.slice(i, stop))
      i = stop
    } else if (c === "'" || c === '"') {
      flush()
      let j = i + 1
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1
      push('other', source.slice(i, j + 1))
      i = j + 1
    } else if (c === '`') {
      flush()
      push('other', '`')
      i += 1
      readTemplateText()
    } else if (c === '}' && templates.length > 0 && templates[templates.length - 1] === depth) {
      flush()
      templates.pop()
      push('other', '}')
      i += 1
      readTemplateText()
    } else {
      if (c === '{') depth += 1
      if (c === '}') depth -= 1
      code += c
      i += 1
    }
  }
  flush()
  return out
}

const word = (name: string) => new RegExp(`(?<![\\w$.])${name}(?![\\w$])`, 'g')

/** Step 1 on one code token: local values named `now` become `nowMs` (keys, members and `x.now` stay). */
function renameNowValues(code: string): string {
  return (
    code
      // Declared with a type (`let now: number`, `(now: number) =>`, `(entry, now: number)`): the colon is not a key's.
      .replace(/(?<=\b(?:const|let|var)\s+)now(?![\w$])/g, 'nowMs')
      .replace(/(?<=\(\s*)now(?=\s*\??:)/g, 'nowMs')
      .replace(/(?<=,\s*)now(?=\s*\??:\s*(?:number|bigint)\b)/g, 'nowMs')
      // `{ now }` / `, now }` / `{ now,` shorthand (object or destructuring): keep the key, rename the binding.
      .replace(/(?<=[{,]\s*)now(?=\s*[,}])/g, 'now: nowMs')
      // Any other bare `now` that is not a key (`now:` / `now?:`) or a member (`x.now`, `x?.now`; a spread `...now` is not).
      .replace(/(?<![\w$])(?<![^.]\.)(?<!^\.)now(?![\w$])(?!\s*\??:)/g, 'nowMs')
  )
}

/** The file rewritten to the convention, or the same text when it already follows it. */
export function rewrite(source: string): string {
  const tokens = tokenize(source)
  if (!tokens.some((t) => t.kind === 'code' && word('clock').test(t.text))) return source
  return tokens.map((t) => (t.kind === 'code' ? renameNowValues(t.text).replace(/(?<![\w$])clock(?![\w$])/g, 'now') : t.text)).join('')
}

function filesUnder(dir: string): string[] {
  const full = join(root, dir)
  let entries: string[]
  try {
    entries = readdirSync(full)
  } catch {
    return []
  }
  return entries.flatMap((name) => {
    if (name === 'node_modules' || name === 'artifacts') return []
    const path = join(dir, name)
    if (statSync(join(root, path)).isDirectory()) return filesUnder(path)
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.generated.ts') && path !== SELF ? [path] : []
  })
}

function main(): void {
  const check = process.argv.includes('--check')
  const changed: string[] = []
  for (const file of DIRS.flatMap(filesUnder)) {
    const source = readFileSync(join(root, file), 'utf8')
    const after = rewrite(source)
    if (after === source) continue
    changed.push(file)
    if (!check) writeFileSync(join(root, file), after)
  }
  for (const file of changed) console.log(`${check ? 'would change' : 'changed'}: ${relative('.', join(root, file))}`)
  // Longer names can push a line over the width: the changed files formatted as the linter wants them.
  if (!check && changed.length > 0) execFileSync('npx', ['biome', 'format', '--write', ...changed], { cwd: root, stdio: 'ignore' })
  console.log(`${changed.length} files ${check ? 'to change' : 'changed'}`)
  if (check && changed.length > 0) process.exitCode = 1
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
