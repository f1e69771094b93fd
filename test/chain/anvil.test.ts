import { execFileSync, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPublicClient, webSocket } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { mineUntilReceipt, minesByItself, pauseAutomine } from '../../devnet/anvil/mining-mode.ts'
import { resolveAnvilBinary } from '../../devnet/anvil/resolve-anvil-binary.ts'
import { PERSISTED_STATES, startAnvil, type AnvilInstance } from '../../devnet/anvil/start-anvil.ts'
import { readStateHead } from '../../devnet/anvil/state-files.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'

const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Live anvil processes whose parent is this test process. */
const anvilChildren = (): number[] =>
  execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm === 'anvil')
    .map(([pid]) => Number(pid))

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return condition()
}

const blockNumber = async (anvil: AnvilInstance): Promise<number> => Number(await jsonRpc<string>(anvil.rpcUrl, 'eth_blockNumber'))

describe('resolveAnvilBinary', () => {
  it('finds the binary of the installed npm package', () => {
    expect(resolveAnvilBinary()).toMatch(/@foundry-rs\/anvil-[a-z0-9]+-[a-z0-9]+\/bin\/anvil(\.exe)?$/)
  })

  it('explains when there is no anvil build for the platform', () => {
    expect(() => resolveAnvilBinary('aix', 'ppc64')).toThrow(expect.objectContaining({ code: 'anvil_unsupported_platform' }))
  })

  it('explains when the platform package is not installed', () => {
    expect(() => resolveAnvilBinary('win32', 'arm64')).toThrow(expect.objectContaining({ code: 'anvil_not_installed' }))
  })
})

describe('startAnvil', () => {
  let dir: string
  const started: AnvilInstance[] = []
  const start = async (...args: Parameters<typeof startAnvil>): Promise<AnvilInstance> => {
    const anvil = await startAnvil(...args)
    started.push(anvil)
    return anvil
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'prebuy-anvil-'))
  })

  afterAll(async () => {
    await Promise.all(started.map((anvil) => anvil.stop()))
    await rm(dir, { recursive: true, force: true })
  })

  it('refuses an invalid block time before spawning anything', async () => {
    await expect(startAnvil({ chainId: 1, mining: 0.05 })).rejects.toMatchObject({ code: 'invalid_block_time' })
    await expect(startAnvil({ chainId: 1, mining: 0.2005 })).rejects.toMatchObject({ code: 'invalid_block_time' })
    await expect(startAnvil({ chainId: 1, mining: -2 })).rejects.toBeInstanceOf(PrebuyError)
  })

  it('serves HTTP and WebSocket on one loopback port with the requested chain id', async () => {
    const anvil = await start({ chainId: 424242, mining: 'manual' })
    expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`)
    const client = createPublicClient({ transport: webSocket(anvil.wsUrl) })
    try {
      expect(await client.getChainId()).toBe(424242)
    } finally {
      await client.transport.getRpcClient().then((rpc) => rpc.close())
    }
    const block = (await jsonRpc<{ gasLimit: string }>(anvil.rpcUrl, 'eth_getBlockByNumber', ['latest', false])).gasLimit
    expect(BigInt(block)).toBeGreaterThanOrEqual(100_000_000n)
  })

  it('mines on an interval, by hand, or per transaction', async () => {
    const anvil = await start({ chainId: 31337, mining: 1 })
    const first = await blockNumber(anvil)
    expect(await waitUntil(async () => (await blockNumber(anvil)) >= first + 2, 10_000)).toBe(true)

    await anvil.setMiningMode('manual')
    const still = await blockNumber(anvil)
    await new Promise((resolve) => setTimeout(resolve, 1_300))
    expect(await blockNumber(anvil)).toBe(still)
    await jsonRpc(anvil.rpcUrl, 'anvil_mine', ['0x3'])
    expect(await blockNumber(anvil)).toBe(still + 3)

    await anvil.setMiningMode('auto')
    const hash = await jsonRpc<string>(anvil.rpcUrl, 'eth_sendTransaction', [
      { from: DEV_ACCOUNT, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' },
    ])
    // anvil answers eth_sendTransaction once the transaction is in its pool and mines the block right after, not
    // before answering: wait for the receipt instead of reading the head at once (that read lost the race under load).
    const receipt = () => jsonRpc<{ blockNumber: string } | null>(anvil.rpcUrl, 'eth_getTransactionReceipt', [hash])
    expect(await waitUntil(async () => (await receipt()) !== null, 10_000)).toBe(true)
    // One transaction, one block: mined in the block right after the hand-mined ones, and nothing mined besides.
    expect(Number((await receipt())?.blockNumber)).toBe(still + 4)
    expect(await blockNumber(anvil)).toBe(still + 4)
    expect(anvil.miningMode).toBe('auto')
  })

  it('pauses automine for a burst from one account: nothing mined while it arrives, all mined by hand, automine back on', async () => {
    const anvil = await start({ chainId: 31337, mining: 'auto' })
    const before = await blockNumber(anvil)
    const pause = await pauseAutomine(anvil.rpcUrl)
    expect(pause.paused).toBe(true)
    const hashes: string[] = []
    for (let i = 0; i < 5; i++) {
      hashes.push(
        await jsonRpc<string>(anvil.rpcUrl, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }]),
      )
    }
    expect(await blockNumber(anvil)).toBe(before)
    await mineUntilReceipt(anvil.rpcUrl, hashes.at(-1) as `0x${string}`)
    for (const hash of hashes) expect(await jsonRpc(anvil.rpcUrl, 'eth_getTransactionReceipt', [hash])).not.toBeNull()
    expect(await blockNumber(anvil)).toBe(before + 1)
    await pause.resume()
    expect(await jsonRpc<boolean>(anvil.rpcUrl, 'anvil_getAutomine')).toBe(true)
    // A chain that does not automine is left as it is (an interval cannot be restored over RPC).
    await anvil.setMiningMode('manual')
    expect((await pauseAutomine(anvil.rpcUrl)).paused).toBe(false)
    expect(await jsonRpc<boolean>(anvil.rpcUrl, 'anvil_getAutomine')).toBe(false)
  })

  it('mines every 200 ms as Base does, consecutive blocks sharing a whole-second timestamp, and switches back to it', async () => {
    const anvil = await start({ chainId: 8453, stateFile: join(dir, 'fast', 'state.json'), mining: 0.2 })
    const timestamps = new Map<number, number>()
    const readHead = async (): Promise<void> => {
      const head = await jsonRpc<{ number: string; timestamp: string }>(anvil.rpcUrl, 'eth_getBlockByNumber', ['latest', false])
      timestamps.set(Number(head.number), Number(head.timestamp))
    }
    await readHead()
    const first = Math.min(...timestamps.keys())
    // Ten blocks, at most 10 s on a loaded machine (2 s blocks would need 20 s).
    expect(await waitUntil(async () => (await blockNumber(anvil)) >= first + 10, 10_000)).toBe(true)
    for (let n = first; n <= first + 10; n++) {
      const block = await jsonRpc<{ timestamp: string }>(anvil.rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
      timestamps.set(n, Number(block.timestamp))
    }
    const ordered = [...timestamps.entries()].sort(([a], [b]) => a - b).map(([, t]) => t)
    // Whole seconds that never go back, and at least two consecutive blocks in one second (Base: about five).
    for (let i = 1; i < ordered.length; i++) expect(ordered[i]! - ordered[i - 1]!).toBeGreaterThanOrEqual(0)
    expect(ordered.some((t, i) => i > 0 && t === ordered[i - 1])).toBe(true)
    // Over RPC a sub-second interval reads as mining by hand (whole seconds only); the devnet helpers that mine when
    // nothing else will ask the supervisor instead, so they add no block of their own.
    expect(await jsonRpc<boolean>(anvil.rpcUrl, 'anvil_getAutomine')).toBe(false)
    expect(await jsonRpc<number>(anvil.rpcUrl, 'anvil_getIntervalMining')).toBe(0)
    expect(await minesByItself(anvil.rpcUrl)).toBe(true)

    await anvil.setMiningMode('manual')
    expect(await minesByItself(anvil.rpcUrl)).toBe(false)
    const still = await blockNumber(anvil)
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(await blockNumber(anvil)).toBe(still)
    // Back to 200 ms: anvil restarts on the same port with its chain (no RPC sets a sub-second interval).
    const oldPid = anvil.pid
    await anvil.setMiningMode(0.2)
    expect(anvil.pid).not.toBe(oldPid)
    expect(anvil.miningMode).toBe(0.2)
    expect(await minesByItself(anvil.rpcUrl)).toBe(true)
    expect(anvil.restarts).toBe(0)
    expect(await blockNumber(anvil)).toBeGreaterThanOrEqual(still)
    expect(await waitUntil(async () => (await blockNumber(anvil)) >= still + 3, 10_000)).toBe(true)
  })

  it('restarts a killed anvil on the same port from its state file and re-applies the mining mode', async () => {
    const anvil = await start({ chainId: 31337, stateFile: join(dir, 'restart', 'state.json'), stateIntervalSeconds: 1, mining: 'auto' })
    const hash = await jsonRpc<string>(anvil.rpcUrl, 'eth_sendTransaction', [
      { from: DEV_ACCOUNT, to: '0x000000000000000000000000000000000000dEaD', value: '0x2' },
    ])
    expect(await waitUntil(async () => (await jsonRpc(anvil.rpcUrl, 'eth_getTransactionReceipt', [hash])) !== null, 10_000)).toBe(true)
    await anvil.dumpState()
    const oldPid = anvil.pid!
    const restarted = anvil.waitForRestart()
    process.kill(oldPid, 'SIGKILL')
    await restarted
    expect(anvil.restarts).toBe(1)
    expect(anvil.pid).not.toBe(oldPid)
    expect(isAlive(oldPid)).toBe(false)
    expect(Number(await jsonRpc<string>(anvil.rpcUrl, 'eth_chainId'))).toBe(31337)
    expect(Number(await jsonRpc<string>(anvil.rpcUrl, 'eth_getTransactionCount', [DEV_ACCOUNT, 'latest']))).toBe(1)
    expect(await jsonRpc<boolean>(anvil.rpcUrl, 'anvil_getAutomine')).toBe(true)
  })

  it("dumps its state periodically by default, and with 'on_stop' only when asked and at a graceful stop", async () => {
    const exists = async (file: string) => (await readFile(file).catch(() => undefined)) !== undefined
    // Periodic (1 s): the file appears without anyone asking.
    const periodicFile = join(dir, 'periodic', 'state.json')
    const periodic = await start({ chainId: 31337, stateFile: periodicFile, stateIntervalSeconds: 1, mining: 'manual' })
    expect(await waitUntil(() => exists(periodicFile), 30_000)).toBe(true)
    await periodic.stop()
    // 'on_stop': nothing for three times that interval while blocks are mined, then a dump asked for and the stop's.
    const quietFile = join(dir, 'on-stop', 'state.json')
    const quiet = await start({ chainId: 31337, stateFile: quietFile, stateIntervalSeconds: 'on_stop', mining: 'manual' })
    for (let i = 0; i < 6; i++) {
      await jsonRpc(quiet.rpcUrl, 'anvil_mine', ['0x1'])
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(await exists(quietFile)).toBe(false)
    await quiet.dumpState()
    expect(await exists(quietFile)).toBe(true)
    await jsonRpc(quiet.rpcUrl, 'anvil_mine', ['0x2'])
    await quiet.stop()
    const restarted = await start({ chainId: 31337, stateFile: quietFile, stateIntervalSeconds: 'on_stop', mining: 'manual' })
    expect(await blockNumber(restarted)).toBe(8)
    await restarted.stop()
  })

  it('survives kill -9 at any moment of its state dumps: every restart loads a whole state file', async () => {
    const stateFile = join(dir, 'dumps', 'state.json')
    const anvil = await start({ chainId: 31337, stateFile, stateIntervalSeconds: 1, mining: 'auto', maxRestarts: 20 })
    let sent = 0
    for (let round = 0; round < 12; round++) {
      const hash = await jsonRpc<string>(anvil.rpcUrl, 'eth_sendTransaction', [
        { from: DEV_ACCOUNT, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' },
      ])
      expect(await waitUntil(async () => (await jsonRpc(anvil.rpcUrl, 'eth_getTransactionReceipt', [hash])) !== null, 10_000)).toBe(true)
      sent++
      await anvil.dumpState()
      // A dump starts and is killed somewhere in its middle, or right after: 0..30 ms later.
      const dumping = anvil.dumpState().catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, (round * 7) % 31))
      const restarted = anvil.waitForRestart()
      process.kill(anvil.pid!, 'SIGKILL')
      await restarted
      await dumping
      // Nothing dumped before the kill is lost: the transaction count is at least what the last whole dump held.
      expect(Number(await jsonRpc<string>(anvil.rpcUrl, 'eth_getTransactionCount', [DEV_ACCOUNT, 'latest']))).toBe(sent)
    }
    expect(anvil.restarts).toBe(12)
    await anvil.stop()
  })

  it('a dump answered before a restart is not written after it: the state file never goes back past the restarted chain', async () => {
    // The daemon's devnet switches its chains to 200 ms blocks by restarting anvil (setMiningMode) right after its
    // deployments. A periodic dump answered before that restart and written after it put an older chain in the state
    // file, which anvil (or its next restart) then loaded: a devnet launchpad deployed but not yet enabled.
    const stateFile = join(dir, 'held-dump', 'state.json')
    const held = withResolvers<void>()
    const answered = withResolvers<void>()
    let holding = false
    const anvil = await start({
      chainId: 31337,
      stateFile,
      stateIntervalSeconds: 'on_stop',
      mining: 'manual',
      beforeStateWrite: async () => {
        if (!holding) return
        answered.resolve()
        await held.promise
      },
    })
    await jsonRpc(anvil.rpcUrl, 'anvil_mine', ['0x3'])
    holding = true
    // A dump of block 3 answered, held before its write.
    const dumping = anvil.dumpState()
    await answered.promise
    holding = false
    await jsonRpc(anvil.rpcUrl, 'anvil_mine', ['0x2'])
    // The restart (anvil's exit dump holds block 5), then the held dump may write.
    await anvil.setMiningMode(0.2)
    held.resolve()
    await dumping
    expect(await readStateHead(stateFile)).toEqual({ kind: 'readable', bestBlock: 5n })
    // A dump asked after the restart is written as always.
    await jsonRpc(anvil.rpcUrl, 'anvil_mine', ['0x1'])
    await anvil.dumpState()
    expect(((await readStateHead(stateFile)) as { bestBlock: bigint }).bestBlock).toBeGreaterThan(5n)
    await anvil.stop()
  })

  it("a graceful stop keeps anvil's exit dump; a torn exit dump is set aside and the last whole state file is loaded", async () => {
    const stateFile = join(dir, 'exit', 'state.json')
    let anvil = await start({ chainId: 31337, stateFile, mining: 'manual' })
    await jsonRpc(anvil.rpcUrl, 'anvil_mine', ['0x5'])
    await anvil.dumpState()
    await jsonRpc(anvil.rpcUrl, 'anvil_mine', ['0x2'])
    await anvil.stop()
    // The two blocks after the last periodic dump are in anvil's exit dump, promoted to the state file.
    expect(await readdir(join(dir, 'exit'))).toEqual(['state.json'])
    anvil = await start({ chainId: 31337, stateFile, mining: 'manual' })
    expect(await blockNumber(anvil)).toBe(7)
    await anvil.stop()

    // anvil killed half way through its exit dump: the torn file goes aside, the whole one is loaded.
    await writeFile(join(dir, 'exit', 'state.exit.json'), '{"block": {"number": "0x9", "be')
    anvil = await start({ chainId: 31337, stateFile, mining: 'manual' })
    expect(await blockNumber(anvil)).toBe(7)
    expect((await readdir(join(dir, 'exit'))).some((name) => name.startsWith('state.exit.json.unreadable-'))).toBe(true)
    await anvil.stop()
  })

  it('tells the owner once, with one clear error, when restarts are exhausted', async () => {
    const fatal: Error[] = []
    const anvil = await start({ chainId: 31337, maxRestarts: 1, onFatal: (error) => fatal.push(error) })
    let restarted = anvil.waitForRestart()
    process.kill(anvil.pid!, 'SIGKILL')
    await restarted
    restarted = anvil.waitForRestart()
    process.kill(anvil.pid!, 'SIGKILL')
    expect(await waitUntil(() => fatal.length > 0, 5_000)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(fatal).toHaveLength(1)
    expect(fatal[0]).toMatchObject({ kind: 'unavailable', code: 'devnet_chain_crashed' })
    expect(fatal[0]?.message).toContain('restarted 1 times')
  })

  it('stop() terminates the child and is idempotent', async () => {
    const anvil = await start({ chainId: 31337, stateFile: join(dir, 'stop', 'state.json') })
    const pid = anvil.pid!
    expect(isAlive(pid)).toBe(true)
    await Promise.all([anvil.stop(), anvil.stop()])
    expect(isAlive(pid)).toBe(false)
    expect(anvil.pid).toBeUndefined()
    await expect(jsonRpc(anvil.rpcUrl, 'eth_chainId', [], 500)).rejects.toThrow()
  })

  it("keeps anvil's past states to a bounded number in the chain's own folder, emptied when the chain stops", async () => {
    const stateDir = join(dir, 'history-bound')
    const anvil = await start({ chainId: 31337, stateFile: join(stateDir, 'state.json'), mining: 0.2 })
    // anvil 1.7.1 would otherwise write up to 3,600 past states into ~/.foundry/anvil/tmp and never remove them.
    const args = (await readFile(`/proc/${anvil.pid}/cmdline`, 'utf8')).split('\0')
    expect(args[args.indexOf('--max-persisted-states') + 1]).toBe(String(PERSISTED_STATES))
    expect(args[args.indexOf('--cache-path') + 1]).toBe(join(stateDir, 'history'))
    await mkdir(join(stateDir, 'history', 'anvil-state-left'), { recursive: true })
    await anvil.stop()
    expect(await readdir(stateDir)).not.toContain('history')
  })

  /** Runs a fixture script that starts anvil and then ends without stopping it; returns anvil's pid. */
  const runParent = async (fixture: string): Promise<number> => {
    const script = fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url))
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    await new Promise((resolve) => child.once('exit', resolve))
    const { pid } = JSON.parse(output.trim()) as { pid: number }
    expect(pid).toBeGreaterThan(0)
    return pid
  }

  it('stop() during a supervised restart waits for the restarting child and leaves none behind', async () => {
    const before = anvilChildren()
    const anvil = await start({ chainId: 31337 })
    const pid = anvil.pid!
    expect(anvilChildren()).toContain(pid)
    process.kill(pid, 'SIGKILL')
    await waitUntil(() => !isAlive(pid), 2_000)
    await anvil.stop()
    expect(anvilChildren()).toEqual(before)
    await expect(jsonRpc(anvil.rpcUrl, 'eth_chainId', [], 500)).rejects.toThrow()
  })

  it('takes its anvil child down when the parent process exits without stopping it', async () => {
    const pid = await runParent('start-anvil-then-exit.ts')
    expect(await waitUntil(() => !isAlive(pid), 5_000)).toBe(true)
  })

  it('takes its anvil child down even when the parent is killed with SIGKILL', async () => {
    const pid = await runParent('start-anvil-then-die.ts')
    expect(await waitUntil(() => !isAlive(pid), 6_000)).toBe(true)
  })
})
