/**
 * Writes devnet/contracts/kernel/kernel-v3.1-bytecode.json: the creation bytecode of Kernel v0.3.1 (the account
 * implementation) and of its KernelFactory, copied verbatim from the `KERNEL_BYTECODE` and `KERNEL_FACTORY_BYTECODE`
 * constants of `src/deployment/precompiles/KernelPrecompiles.sol` in the npm package @rhinestone/modulekit 0.5.9
 * (../shared/facts/base-today.md, "Kernel v3.1"). That file is MIT-licensed (its SPDX header), as is Kernel itself
 * (zerodevapp/kernel), so the two hex strings are checked in with their source and the file's sha256, and the devnet
 * needs no dev dependency: modulekit's own dependencies are GitHub URLs (forge-std, solady, ...) an install would clone.
 *
 * Usage, to regenerate or audit the checked-in file:
 *   npm pack @rhinestone/modulekit@0.5.9 && tar xzf rhinestone-modulekit-0.5.9.tgz
 *   node --import tsx scripts/extract-kernel-bytecode.ts package/src/deployment/precompiles/KernelPrecompiles.sol
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const PACKAGE = '@rhinestone/modulekit@0.5.9'
const SOURCE_PATH = 'src/deployment/precompiles/KernelPrecompiles.sol'

const file = process.argv[2]
if (!file) {
  console.error('usage: extract-kernel-bytecode.ts <path to KernelPrecompiles.sol>')
  process.exit(2)
}
const source = readFileSync(file, 'utf8')
const constant = (name: string): string => {
  const match = new RegExp(`bytes public constant ${name} =\\s*hex"([0-9a-fA-F]+)"`).exec(source)
  if (!match?.[1]) throw new Error(`${name} not found in ${file}`)
  return `0x${match[1].toLowerCase()}`
}
const kernel = constant('KERNEL_BYTECODE')
// The implementation's constructor embeds its version string: refuse a file that is not Kernel v0.3.1.
if (!kernel.includes(Buffer.from('0.3.1').toString('hex'))) throw new Error('KERNEL_BYTECODE does not carry the version string 0.3.1')
const out = {
  source: `${PACKAGE} ${SOURCE_PATH}`,
  sourceSha256: createHash('sha256').update(source).digest('hex'),
  license: 'MIT (SPDX header of the source file; Kernel is MIT, github.com/zerodevapp/kernel)',
  note: 'Creation bytecode without constructor arguments: Kernel(IEntryPoint entrypoint), KernelFactory(address implementation).',
  kernel,
  kernelFactory: constant('KERNEL_FACTORY_BYTECODE'),
}
const target = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'devnet/contracts/kernel/kernel-v3.1-bytecode.json')
writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`)
console.log(`wrote ${target} (kernel ${(kernel.length - 2) / 2} bytes, factory ${(out.kernelFactory.length - 2) / 2} bytes)`)
