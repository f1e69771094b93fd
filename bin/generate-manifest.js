#!/usr/bin/env node
// Writes oclif.manifest.json (the `oclif manifest` command is not installed). With the manifest, a CLI call imports
// only the command it runs instead of every command file: faster, and one broken command cannot break the others.
// Run it after adding, removing or changing the flags of a command: `node bin/generate-manifest.js`
// (test/cli/manifest.test.ts fails while the committed manifest is stale).
import { writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'
import { Config } from '@oclif/core'

register()
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export async function buildManifest() {
  const config = await Config.load({ root, ignoreManifest: true, errorOnManifestCreate: true })
  const manifest = config.getPluginsList().find((plugin) => plugin.root === root || plugin.isRoot)?.manifest
  if (!manifest) throw new Error('could not build the root plugin manifest')
  return `${JSON.stringify(manifest, null, 2)}\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await buildManifest()
  const path = join(root, 'oclif.manifest.json')
  await writeFile(path, text)
  console.log(`wrote ${path} (${Object.keys(JSON.parse(text).commands).length} commands)`)
}
