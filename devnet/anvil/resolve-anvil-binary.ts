import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { PrebuyError } from '../../src/common/errors.ts'

const PLATFORMS: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'darwin', win32: 'win32' }
const ARCHES: Partial<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' }

/**
 * Finds the anvil executable shipped by the npm package `@foundry-rs/anvil-<platform>-<arch>` (an optional
 * dependency of `@foundry-rs/anvil`). Resolved through Node's module resolution rather than a path guess so it works
 * from any working directory and with hoisted or nested node_modules.
 */
export function resolveAnvilBinary(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const os = PLATFORMS[platform]
  const cpu = ARCHES[arch]
  const packageName = os && cpu ? `@foundry-rs/anvil-${os}-${cpu}` : undefined
  if (!packageName) {
    throw new PrebuyError('anvil_unsupported_platform', `The devnet needs anvil, which has no npm build for ${platform}/${arch}.`)
  }
  const require = createRequire(import.meta.url)
  let packageDir: string
  try {
    packageDir = dirname(require.resolve(`${packageName}/package.json`))
  } catch (cause) {
    throw new PrebuyError(
      'anvil_not_installed',
      `The devnet needs anvil from the npm package ${packageName}, which is not installed. Run \`npm install\` (optional dependencies must not be omitted).`,
      { cause },
    )
  }
  const binary = join(packageDir, 'bin', platform === 'win32' ? 'anvil.exe' : 'anvil')
  if (!existsSync(binary)) {
    throw new PrebuyError('anvil_not_installed', `The npm package ${packageName} has no anvil binary at bin/; reinstall it.`)
  }
  return binary
}
