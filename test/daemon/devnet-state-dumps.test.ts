import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { type InProcessDaemon, startInProcessDaemon } from '../executor/in-process-daemon.ts'

const mtimeOf = async (file: string): Promise<number | undefined> => (await stat(file).catch(() => undefined))?.mtimeMs
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * `chains.stateDumpSeconds: 'on_stop'` reaches the devnet's anvils (config → start-daemon.ts → the devnet wing →
 * startDevnet → startAnvil): no periodic dump while the chain runs at 200 ms blocks. Each dump freezes anvil for tens of
 * ms (docs/devnet.md, "State persistence"); with the default (2 s) the state file is rewritten within a few seconds.
 */
describe("daemon: the devnet's periodic state dumps can be turned off (real daemon in-process, devnet)", () => {
  let started: InProcessDaemon | undefined

  beforeAll(async () => {
    started = await startInProcessDaemon({
      prefix: 'prebuy-devnet-dumps-',
      config: { chains: { mode: 'devnet', blockTime: 0.2, stateDumpSeconds: 'on_stop' } },
    })
  }, 180_000)
  afterAll(async () => {
    await started?.stop()
  })

  it("with 'on_stop' the state file is not rewritten while blocks come", async () => {
    const { daemon, dataDir } = started!
    const file = join(dataDir, 'devnet', 'base', 'state.json')
    const blockNumber = async () => Number(await jsonRpc<string>(daemon.chains.base.rpcUrl, 'eth_blockNumber'))
    const before = await mtimeOf(file)
    const fromBlock = await blockNumber()
    // Five seconds: the default interval (2 s, or nine times a dump's duration once dumps grow) rewrites it at least once.
    await sleep(5_000)
    expect(await blockNumber()).toBeGreaterThanOrEqual(fromBlock + 5)
    expect(await mtimeOf(file)).toBe(before)
  })
})
