import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * `npm ci` refuses a lockfile that does not list every optional dependency of every locked package ("Missing: X from
 * lock file"), including the platform binaries of other machines (anvil for macOS or linux-arm64, Biome's CLIs). An
 * `npm install` run where the registry does not serve those platforms silently drops them, so this test holds the line.
 */
interface LockEntry {
  version?: string
  optionalDependencies?: Record<string, string>
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> }
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as LockEntry

/** Node's lookup: the package's own node_modules, then each enclosing one up to the root. */
function resolves(from: string, name: string): LockEntry | undefined {
  let dir = from
  for (;;) {
    const hit = lock.packages[`${dir === '' ? '' : `${dir}/`}node_modules/${name}`]
    if (hit) return hit
    if (dir === '') return undefined
    const parent = dir.lastIndexOf('/node_modules/')
    dir = parent === -1 ? '' : dir.slice(0, parent)
  }
}

describe('package-lock.json', () => {
  it('lists every optional dependency of every locked package, for every platform', () => {
    const missing: string[] = []
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
        if (!resolves(path, name)) missing.push(`${name}@${range} (wanted by ${path || 'the root'})`)
      }
    }
    expect(missing).toEqual([])
  })

  it('matches package.json: the root entry names the same dependencies and ranges', () => {
    const root = lock.packages['']
    expect(root?.dependencies).toEqual(manifest.dependencies)
    expect(root?.devDependencies).toEqual(manifest.devDependencies)
  })

  it('locks the anvil binary for macOS, linux (x64 and arm64) and windows', () => {
    for (const name of ['anvil-darwin-arm64', 'anvil-darwin-amd64', 'anvil-linux-amd64', 'anvil-linux-arm64', 'anvil-win32-amd64']) {
      expect(lock.packages[`node_modules/@foundry-rs/${name}`]?.version, name).toBe(lock.packages['node_modules/@foundry-rs/anvil']?.version)
    }
  })
})
