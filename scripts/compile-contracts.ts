/**
 * Compiles the Solidity we write ourselves with solc-js, recursively except artifacts/, from two roots: the product's
 * (src/chain/contracts/) and the devnet wing's (devnet/contracts/: fixtures and launchpad imitations). It writes one
 * JSON artifact per contract to its root's artifacts/<Name>.json, where that side's loaders read it:
 * { contractName, sourceName, abi, bytecode, deployedBytecode }.
 *
 * Artifacts are checked in, so tests and `npm start` never compile. Run `npm run compile:contracts` after editing a
 * .sol file and commit the result. Extra sources compiled from npm packages (Permit2, which is not published as an
 * artifact) are listed in EXTRA_SOURCES; they serve the devnet only, so their artifacts go to the wing.
 *
 * Imports resolve like Foundry remappings: `@uniswap/v4-core/...`, `@uniswap/v4-periphery/...`, `permit2/...`,
 * `solmate/...`, `@openzeppelin/...` and `@account-abstraction/...` map into node_modules.
 */
import { readFileSync, readdirSync, statSync, writeFileSync, existsSync, mkdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** Solidity roots; each root's contracts get their artifacts in its own artifacts/ (the product never reads the wing's). */
const productContractsDir = join(root, 'src/chain/contracts')
const devnetContractsDir = join(root, 'devnet/contracts')
const contractRoots = [productContractsDir, devnetContractsDir]
const artifactsDirOf = (sourceName: string): string =>
  join(sourceName.startsWith(`${relative(root, productContractsDir)}/`) ? productContractsDir : devnetContractsDir, 'artifacts')
const modules = join(root, 'node_modules')

/** Sources from npm packages compiled alongside ours: import path -> why. */
const EXTRA_SOURCES: Record<string, string> = {
  'permit2/src/Permit2.sol': 'Permit2 has no npm artifact; compiled from the copy inside @uniswap/v4-periphery',
}

const REMAPPINGS: Array<[prefix: string, target: string]> = [
  ['permit2/', join(modules, '@uniswap/v4-periphery/lib/permit2/')],
  ['solmate/', join(modules, '@uniswap/v4-core/lib/solmate/')],
  ['forge-std/', join(modules, '@uniswap/v4-core/lib/forge-std/src/')],
  ['@openzeppelin/contracts/', join(modules, '@uniswap/v4-core/lib/openzeppelin-contracts/contracts/')],
  ['openzeppelin-contracts/', join(modules, '@uniswap/v4-core/lib/openzeppelin-contracts/')],
  ['@uniswap/', join(modules, '@uniswap/')],
  ['@account-abstraction/', join(modules, '@account-abstraction/')],
]

/**
 * Sources from npm pin exact compiler versions (Permit2: `pragma solidity 0.8.17;`). solc-js ships one compiler, so an
 * exact pin is relaxed to a lower bound; the code itself is unchanged.
 */
const relaxPragma = (source: string): string => source.replace(/pragma solidity (\d+\.\d+\.\d+);/g, 'pragma solidity >=$1;')

function resolveImport(path: string): string | undefined {
  for (const [prefix, target] of REMAPPINGS) {
    if (path.startsWith(prefix)) {
      const file = join(target, path.slice(prefix.length))
      if (existsSync(file)) return file
    }
  }
  const local = join(root, path)
  return existsSync(local) ? local : undefined
}

function solFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return name === 'artifacts' ? [] : solFiles(full)
    return name.endsWith('.sol') ? [full] : []
  })
}

function compile(): void {
  const sources: Record<string, { content: string }> = {}
  for (const file of contractRoots.flatMap(solFiles)) sources[relative(root, file)] = { content: readFileSync(file, 'utf8') }
  for (const path of Object.keys(EXTRA_SOURCES)) {
    const file = resolveImport(path)
    if (!file) throw new Error(`extra source not found: ${path}`)
    sources[path] = { content: relaxPragma(readFileSync(file, 'utf8')) }
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      // v4-core needs transient storage (cancun) and via-IR keeps the larger hooks under the stack limit.
      evmVersion: 'cancun',
      viaIR: true,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const findImports = (path: string) => {
    const file = resolveImport(path)
    return file ? { contents: relaxPragma(readFileSync(file, 'utf8')) } : { error: `not found: ${path}` }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: Array<{ severity: string; formattedMessage: string }>
    contracts: Record<string, Record<string, { abi: unknown; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) {
    for (const e of errors) console.error(e.formattedMessage)
    process.exit(1)
  }
  const wanted = new Set(Object.keys(sources))
  let written = 0
  for (const [sourceName, contracts] of Object.entries(output.contracts)) {
    if (!wanted.has(sourceName)) continue
    for (const [contractName, c] of Object.entries(contracts)) {
      if (!c.evm.bytecode.object) continue // interfaces and abstract contracts
      const artifact = {
        contractName,
        sourceName,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      }
      const artifactsDir = artifactsDirOf(sourceName)
      mkdirSync(artifactsDir, { recursive: true })
      writeFileSync(join(artifactsDir, `${contractName}.json`), `${JSON.stringify(artifact)}\n`)
      written++
    }
  }
  const dirs = contractRoots.map((dir) => relative(root, join(dir, 'artifacts'))).join(' and ')
  console.log(`compiled ${Object.keys(sources).length} sources, wrote ${written} artifacts to ${dirs}`)
}

compile()
