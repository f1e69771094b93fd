import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devnetLaunchpadsPath, ensureDevnetLaunchpads } from '../../devnet/launchpads/devnet-launchpads.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import { devnetLaunchpadsExist } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { BASE_LAUNCHPADS } from '../../src/launchpads/create-adapters.ts'

let dataDir: string
let devnet: Devnet
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'prebuy-devnet-launchpads-'))
  devnet = await startDevnet({ dataDir, blockTime: 'manual' })
})
afterAll(async () => {
  await devnet?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('the devnet launchpads record (ensureDevnetLaunchpads)', () => {
  it('reuses recorded launchpads still on the chain; a record of an older version, or a damaged one, is redeployed', async () => {
    const chain = devnet.chains.base
    const deployer = devnet.accounts[8]!.account
    const first = await ensureDevnetLaunchpads(dataDir, chain, deployer)
    // The factories sit at their real Base addresses (the ones rpc mode indexes on Base); the rest at the deployer's.
    expect(first.clanker.factory).toBe(BASE_LAUNCHPADS.clanker.factory)
    expect(first.doppler.airlock).toBe(BASE_LAUNCHPADS.doppler.airlock)
    expect(first.zora.factory).toBe(BASE_LAUNCHPADS.zora.factory)
    expect(await ensureDevnetLaunchpads(dataDir, chain, deployer)).toMatchObject(first)

    // An older data dir's record (no version: its Clanker factory takes no real deployToken): its factories cannot
    // launch what the code asks of them.
    const recorded = JSON.parse(await readFile(devnetLaunchpadsPath(dataDir), 'utf8'))
    delete recorded.base.version
    await writeFile(devnetLaunchpadsPath(dataDir), JSON.stringify(recorded))
    const redeployed = await ensureDevnetLaunchpads(dataDir, chain, deployer)
    // Redeployed: new hooks and a new ZORA, the factories constructed again at their Base addresses.
    expect(redeployed.clanker.hook).not.toBe(first.clanker.hook)
    expect(redeployed.zora.route.zora).not.toBe(first.zora.route.zora)
    expect(redeployed.clanker.factory).toBe(BASE_LAUNCHPADS.clanker.factory)
    expect(await devnetLaunchpadsExist(chain, redeployed)).toBe(true)
    expect(JSON.parse(await readFile(devnetLaunchpadsPath(dataDir), 'utf8')).base.clanker.hook).toBe(redeployed.clanker.hook)

    // A damaged record (a field missing) of the current version: redeployed too, not a crash.
    const damaged = JSON.parse(await readFile(devnetLaunchpadsPath(dataDir), 'utf8'))
    delete damaged.base.zora.route
    await writeFile(devnetLaunchpadsPath(dataDir), JSON.stringify(damaged))
    const again = await ensureDevnetLaunchpads(dataDir, chain, deployer)
    expect(again.zora.hook).not.toBe(redeployed.zora.hook)
    expect(again.zora.factory).toBe(BASE_LAUNCHPADS.zora.factory)
    expect(await devnetLaunchpadsExist(chain, again)).toBe(true)
  })
})
