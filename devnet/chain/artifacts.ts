import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'

export interface Artifact {
  abi: Abi
  bytecode: Hex
  deployedBytecode: Hex
}

/** npm artifacts of the contracts the devnet deploys: package, path inside it. */
const NPM_ARTIFACTS = {
  PoolManager: ['@uniswap/v4-core', 'out/PoolManager.sol/PoolManager.json'],
  StateView: ['@uniswap/v4-periphery', 'foundry-out/StateView.sol/StateView.json'],
  V4Quoter: ['@uniswap/v4-periphery', 'foundry-out/V4Quoter.sol/V4Quoter.json'],
  PositionManager: ['@uniswap/v4-periphery', 'foundry-out/PositionManager.sol/PositionManager.json'],
  UniversalRouter: ['@uniswap/universal-router', 'artifacts/contracts/UniversalRouter.sol/UniversalRouter.json'],
  UniswapV3Factory: ['@uniswap/v3-core', 'artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'],
  UniswapV3Pool: ['@uniswap/v3-core', 'artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'],
  EntryPoint: ['@account-abstraction/contracts', 'artifacts/EntryPoint.json'],
  SimpleAccountFactory: ['@account-abstraction/contracts', 'artifacts/SimpleAccountFactory.json'],
  SimpleAccount: ['@account-abstraction/contracts', 'artifacts/SimpleAccount.json'],
} as const satisfies Record<string, readonly [string, string]>

/** Contracts we compile ourselves (scripts/compile-contracts.ts) into devnet/contracts/artifacts. */
const OWN_ARTIFACTS = ['TestStablecoin', 'WETH9', 'Multicall3', 'V3LiquiditySeeder', 'Permit2', 'DevnetEcdsaValidator', 'DevnetKernelFactoryStaker'] as const

export type NpmArtifactName = keyof typeof NPM_ARTIFACTS
export type OwnArtifactName = (typeof OWN_ARTIFACTS)[number]
export type ArtifactName = NpmArtifactName | OwnArtifactName

const ownArtifactsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'contracts', 'artifacts')
const cache = new Map<ArtifactName, Artifact>()

/** Foundry artifacts nest bytecode as `{object}`, Hardhat ones and ours keep a plain hex string. */
const hexOf = (value: unknown): Hex => {
  const raw = typeof value === 'string' ? value : (value as { object: string }).object
  return (raw.startsWith('0x') ? raw : `0x${raw}`) as Hex
}

export function loadArtifact(name: ArtifactName): Artifact {
  const cached = cache.get(name)
  if (cached) return cached
  let file: string
  if (name in NPM_ARTIFACTS) {
    const [pkg, path] = NPM_ARTIFACTS[name as NpmArtifactName]
    const require = createRequire(import.meta.url)
    file = join(dirname(require.resolve(`${pkg}/package.json`)), path)
  } else {
    file = join(ownArtifactsDir, `${name}.json`)
  }
  const json = JSON.parse(readFileSync(file, 'utf8')) as { abi: Abi; bytecode: unknown; deployedBytecode: unknown }
  const artifact: Artifact = { abi: json.abi, bytecode: hexOf(json.bytecode), deployedBytecode: hexOf(json.deployedBytecode) }
  cache.set(name, artifact)
  return artifact
}
