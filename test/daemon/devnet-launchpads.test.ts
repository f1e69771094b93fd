import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devnetLaunchpadsPath, ensureDevnetLaunchpads } from '../../devnet/launchpads/devnet-launchpads.ts'
import { startDevnet, type Devnet } from '../../devnet/chain/start-devnet.ts'
import { devnetLaunchpadsExist } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'

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
    expect(await ensureDevnetLaunchpads(dataDir, chain, deployer)).toMatchObject(first)

    // An older data dir's record (no version: its Clanker factory takes no real deployToken): its factories cannot
    // launch what the code asks of them.
    const recorded = JSON.parse(await readFile(devnetLaunchpadsPath(dataDir), 'utf8'))
    delete recorded.base.version
    await writeFile(devnetLaunchpadsPath(dataDir), JSON.stringify(recorded))
    const redeployed = await ensureDevnetLaunchpads(dataDir, chain, deployer)
    expect(redeployed.clanker.factory).not.toBe(first.clanker.factory)
    expect(redeployed.zora.route.zora).not.toBe(first.zora.route.zora)
    expect(await devnetLaunchpadsExist(chain, redeployed)).toBe(true)
    expect(JSON.parse(await readFile(devnetLaunchpadsPath(dataDir), 'utf8')).base.clanker.factory).toBe(redeployed.clanker.factory)

    // A damaged record (a field missing) of the current version: redeployed too, not a crash.
    const damaged = JSON.parse(await readFile(devnetLaunchpadsPath(dataDir), 'utf8'))
    delete damaged.base.zora.route
    await writeFile(devnetLaunchpadsPath(dataDir), JSON.stringify(damaged))
    const again = await ensureDevnetLaunchpads(dataDir, chain, deployer)
    expect(again.zora.factory).not.toBe(redeployed.zora.factory)
    expect(await devnetLaunchpadsExist(chain, again)).toBe(true)
  })
})
