#!/usr/bin/env node
// Writes oclif.manifest.json (the `oclif manifest` command is not installed). With the manifest, a CLI call imports
// only the command it runs instead of every command file: faster, and one broken command cannot break the others.
// Run it after adding, removing or changing the flags of a command: `node bin/generate-manifest.js`
// (test/unit/cli/manifest.test.ts fails while the committed manifest is stale).
import { writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'
import { Plugin } from '@oclif/core'

register()
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export async function buildManifest() {
  // The root plugin built directly: Config.load() would read the existing manifest instead of scanning commands/.
  const plugin = new Plugin({ root, isRoot: true, ignoreManifest: true, errorOnManifestCreate: true })
  await plugin.load()
  const manifest = plugin.manifest
  if (!manifest) throw new Error('could not build the root plugin manifest')
  // Commands are discovered concurrently; sort them so the file only changes when a command does.
  const commands = Object.fromEntries(Object.entries(manifest.commands).sort(([a], [b]) => a.localeCompare(b)))
  return `${JSON.stringify({ ...manifest, commands }, null, 2)}\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await buildManifest()
  const path = join(root, 'oclif.manifest.json')
  await writeFile(path, text)
  console.log(`wrote ${path} (${Object.keys(JSON.parse(text).commands).length} commands)`)
}
