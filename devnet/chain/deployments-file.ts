import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { PrebuyError } from '../../src/common/errors.ts'
import type { ChainAddresses, ChainKey } from '../../src/chain/chain-keys.ts'
import { chainAddressesSchema } from '../../src/chain/real-chains.ts'

/** Bumped when the set of fixtures changes, so an older file is redeployed rather than half-used. */
export const DEPLOYMENTS_VERSION = 1

export interface ChainDeployment {
  chainId: number
  addresses: ChainAddresses
}

export interface DevnetDeployments {
  version: number
  chains: Partial<Record<ChainKey, ChainDeployment>>
}

const chainDeploymentSchema = z.object({ chainId: z.number().int().positive(), addresses: chainAddressesSchema })
const deploymentsSchema = z.object({
  version: z.number().int(),
  chains: z.object({ base: chainDeploymentSchema.optional(), second_chain: chainDeploymentSchema.optional() }),
})

export const devnetDir = (dataDir: string): string => join(dataDir, 'devnet')
export const deploymentsPath = (dataDir: string): string => join(devnetDir(dataDir), 'deployments.json')

/** The devnet's recorded deployments, or undefined when the devnet has never been started in this data dir. */
export async function readDeployments(dataDir: string): Promise<DevnetDeployments | undefined> {
  const file = deploymentsPath(dataDir)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const parsed = deploymentsSchema.safeParse(JSON.parse(text))
  if (!parsed.success) {
    throw new PrebuyError('devnet_deployments_invalid', `The devnet deployments file is not valid: ${parsed.error.issues[0]?.message ?? 'unknown'}.`, {
      details: { file },
    })
  }
  return parsed.data
}

/** Written to a temporary file and renamed, so a crash never leaves a half-written deployments file. */
export async function writeDeployments(dataDir: string, deployments: DevnetDeployments): Promise<void> {
  const file = deploymentsPath(dataDir)
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(deployments, null, 2)}\n`)
  await rename(temporary, file)
}
