/**
 * The import graph between the product and the devnet wing, read from the source text (no compiler run, so it takes
 * a second). Product = src/, daemon/, commands/, bin/, scripts/; wing = devnet/; tests are neither (they may use both).
 * The rule (docs/devnet.md): the devnet imports the product, never the reverse, except through the one door
 * (daemon/start-embedded-devnet.ts, loaded only in devnet mode). test/unit/devnet-wing.test.ts keeps it enforced.
 *
 *   node --import tsx scripts/import-graph.ts                        this tree
 *   node --import tsx scripts/import-graph.ts --root DIR --wing a,b  another tree (e.g. an older commit's, whose
 *                                                                    devnet files were spread over src/ and daemon/)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PRODUCT_DIRS = ['src', 'daemon', 'commands', 'bin', 'scripts'] as const
export const WING = ['devnet'] as const
/** The one product file allowed to name the wing, and the one wing file it may load. */
export const DEVNET_DOOR = { from: 'daemon/start-embedded-devnet.ts', to: 'devnet/start-devnet-wing.ts' } as const

export interface ImportEdge {
  from: string
  to: string
}

export interface WingReport {
  productFiles: number
  wingFiles: number
  /** product -> product, wing -> product, wing -> wing */
  counts: { productToProduct: number; wingToProduct: number; wingToWing: number }
  /** Product files importing the wing, the door excepted: must be empty. */
  violations: ImportEdge[]
  /** The door's imports of the wing (exactly one when the wing is in place). */
  door: ImportEdge[]
}

const SOURCE = /\.(ts|tsx|js|mjs)$/
const SPECIFIERS = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /^\s*import\s+['"]([^'"]+)['"]/gm]

function filesUnder(root: string, dir: string): string[] {
  const full = join(root, dir)
  if (!existsSync(full)) return []
  if (statSync(full).isFile()) return SOURCE.test(dir) ? [dir] : []
  return readdirSync(full).flatMap((name) => (name === 'node_modules' || name === 'artifacts' ? [] : filesUnder(root, join(dir, name))))
}

/** Every relative import of a file, as a path from the root (JSON and other non-source targets included). */
export function importsOf(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const out = new Set<string>()
  for (const pattern of SPECIFIERS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1]!
      if (specifier.startsWith('.')) out.add(normalize(join(dirname(file), specifier)))
    }
  }
  return [...out]
}

const inside = (path: string, prefixes: readonly string[]): boolean => prefixes.some((p) => path === p || path.startsWith(`${p}/`))

export function wingReport(root: string, wing: readonly string[] = WING, product: readonly string[] = PRODUCT_DIRS): WingReport {
  const productFiles = product.flatMap((dir) => filesUnder(root, dir)).filter((file) => !inside(file, wing))
  const wingFiles = wing.flatMap((dir) => filesUnder(root, dir))
  const counts = { productToProduct: 0, wingToProduct: 0, wingToWing: 0 }
  const violations: ImportEdge[] = []
  const door: ImportEdge[] = []
  for (const from of productFiles) {
    for (const to of importsOf(root, from)) {
      if (!inside(to, wing)) counts.productToProduct++
      else if (from === DEVNET_DOOR.from && to === DEVNET_DOOR.to) door.push({ from, to })
      else violations.push({ from, to })
    }
  }
  for (const from of wingFiles) {
    for (const to of importsOf(root, from)) {
      if (inside(to, wing)) counts.wingToWing++
      else counts.wingToProduct++
    }
  }
  return { productFiles: productFiles.length, wingFiles: wingFiles.length, counts, violations, door }
}

/**
 * The product's layers, lowest first (docs/architecture.md): a file may import its own layer and the ones below. An
 * import of a higher layer "runs back up"; the pure core (layer 0) imports nothing above it. The longest matching
 * prefix names a file's layer (`*` stands for one folder name: a launch method's). Issue 20: at most 3 such imports, none from the core (test/unit/layers.test.ts).
 */
export const LAYERS: readonly (readonly string[])[] = [
  // 0 the pure core: rules and math, no I/O (the chain keys and block-time arithmetic are plain data and sums)
  ['src/common', 'src/domain', 'src/pricing', 'src/chain/chain-keys.ts', 'src/chain/block-seconds.ts', 'src/launch-methods/*/domain'],
  // 1 what reads the chain and keeps records: chain clients, the store, the block follower
  ['src/chain', 'src/store', 'src/sync'],
  // 2 the chain's parties: launchpad adapters, wallets and the bundler
  ['src/launchpads', 'src/wallets'],
  // 3 the execution journal (its records name launches and pools)
  ['src/journal'],
  // 4 the launch methods' chain side (src/launch-methods/<method>/chain, and what the methods share)
  ['src/launch-methods'],
  // 5 the configuration (it names launchpads, wallet policies and fees)
  ['src/config'],
  // 6 the services: what the API and the admin API do, on the store (a launch method's service lives in its folder)
  ['src/services', 'src/launch-methods/*/*-service.ts', 'src/launch-methods/owned-project-of-method.ts'],
  // 7 the API contracts (zod schemas, the admin route table): what the services answer, as the wire shows it
  ['src/api', 'src/admin-api'],
  // 8 the daemon: the process, its listeners and workers (a launch method's worker lives in its folder,
  // and its wiring entry, wire-<method>.ts, which the composition root calls)
  ['daemon', 'src/launch-methods/*/worker', 'src/launch-methods/worker', 'src/launch-methods/*/wire-*.ts'],
  // 9 the operator's client, then its console
  ['src/admin-client'],
  ['src/console'],
  // 11 the CLI and the scripts
  ['commands', 'bin', 'scripts'],
]

const prefixPattern = (prefix: string): RegExp => new RegExp(`^${prefix.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}(/|$)`)

export function layerOf(file: string): number | undefined {
  let best: { layer: number; length: number } | undefined
  LAYERS.forEach((prefixes, layer) => {
    for (const prefix of prefixes) {
      if (prefixPattern(prefix).test(file) && (!best || prefix.length > best.length)) best = { layer, length: prefix.length }
    }
  })
  return best?.layer
}

export interface LayerReport {
  /** Product imports of a higher layer than the importing file's. */
  upward: Array<ImportEdge & { fromLayer: number; toLayer: number }>
  /** Of those, the ones from the pure core. */
  fromCore: ImportEdge[]
}

export function layerReport(root: string, wing: readonly string[] = WING, product: readonly string[] = PRODUCT_DIRS): LayerReport {
  const files = product.flatMap((dir) => filesUnder(root, dir)).filter((file) => !inside(file, wing))
  const upward: LayerReport['upward'] = []
  for (const from of files) {
    const fromLayer = layerOf(from)
    if (fromLayer === undefined) continue
    for (const to of importsOf(root, from)) {
      const toLayer = layerOf(to)
      if (toLayer !== undefined && toLayer > fromLayer) upward.push({ from, to, fromLayer, toLayer })
    }
  }
  return { upward, fromCore: upward.filter((edge) => edge.fromLayer === 0).map(({ from, to }) => ({ from, to })) }
}

function main(): void {
  const args = process.argv.slice(2)
  const option = (name: string): string | undefined => {
    const i = args.indexOf(name)
    return i === -1 ? undefined : args[i + 1]
  }
  const root = resolve(option('--root') ?? join(dirname(fileURLToPath(import.meta.url)), '..'))
  const wing = option('--wing')?.split(',') ?? [...WING]
  const report = wingReport(root, wing)
  console.log(`import graph of ${relative(process.cwd(), root) || '.'}: product = ${PRODUCT_DIRS.join('/ ')}/, devnet wing = ${wing.join(', ')}`)
  console.log(`  files: ${report.productFiles} product, ${report.wingFiles} wing`)
  console.log(
    `  imports: product -> product ${report.counts.productToProduct}, wing -> product ${report.counts.wingToProduct}, wing -> wing ${report.counts.wingToWing}`,
  )
  for (const edge of report.door) console.log(`  the door (devnet mode only): ${edge.from} -> ${edge.to}`)
  console.log(`product files importing the devnet wing: ${report.violations.length === 0 ? 'none' : report.violations.length}`)
  for (const edge of report.violations) console.log(`  ${edge.from} -> ${edge.to}`)
  const layers = layerReport(root, wing)
  console.log(`imports running back up the layers: ${layers.upward.length} (from the pure core: ${layers.fromCore.length})`)
  for (const edge of layers.upward) console.log(`  ${edge.from} (${edge.fromLayer}) -> ${edge.to} (${edge.toLayer})`)
  process.exitCode = report.violations.length === 0 ? 0 : 1
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
