import { type Address, createPublicClient, http, parseAbiItem } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { RunningDaemon } from '../../daemon/start-daemon.ts'
import { readDevnetLaunchpads } from '../../devnet/launchpads/devnet-launchpads.ts'
import { launchToken } from '../../devnet/launchpads/launch-token.ts'
import type { AdminClient } from '../../src/admin-client/admin-client.ts'
import type { Store, StoreOperation } from '../../src/store/open-store.ts'
import { type InProcessDaemon, type PublicCall, startInProcessDaemon } from './in-process-daemon.ts'

/**
 * The seam: the daemon opens its own LevelDB store (start-daemon.ts) and exposes none of it, and a real disk cannot be
 * made to refuse one particular write on demand. So the store module is wrapped here (no hook in product code): the
 * daemon gets the real store, whose `batch` refuses the first write that puts an in-flight entry naming a batch (the
 * committed batch's orders' moves, commit-batch.ts) and passes every other write through. Everything else is the real
 * daemon: devnet chains, wallets, HTTP API, indexer, executor, the worker wiring (launch-workers.ts `onFailStop`) and
 * `startDaemon`'s `fail`.
 */
const refusal = vi.hoisted(() => ({ refused: 0 }))
vi.mock('../../src/store/open-store.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/store/open-store.ts')>()
  return {
    ...real,
    async openStore(options: { dataDir: string }): Promise<Store> {
      const store = await real.openStore(options)
      const inFlight = store.sublevel('journal.inFlight')
      return new Proxy(store, {
        get(target, prop) {
          if (prop === 'batch')
            return async (ops: readonly StoreOperation[]) => {
              const movesOfBatch = ops.some((op) => op.type === 'put' && op.sublevel === inFlight && (op.value as { batchId?: string }).batchId !== undefined)
              if (movesOfBatch && refusal.refused === 0) {
                refusal.refused++
                throw new Error('disk refused the write (test)')
              }
              return target.batch(ops)
            }
          const value = Reflect.get(target, prop, target)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    },
  }
})

const PUBLIC = '/api/public/v1'

/**
 * docs/execution.md §7: a committed batch whose orders' moves could not be written fail-stops the executor
 * (start-executor.ts `failStop`), and the daemon stops with it (launch-workers.ts passes `onFailStop` to `context.fail`;
 * start-daemon.ts `fail` stops every part, then calls `onFatal`, on which `prebuy daemon start` exits), so that a restart
 * rolls the batch forward rather than the API and the indexer running on without an executor. Fails if either link
 * breaks: no `onFatal` (the wiring), or the API still answering (the stop).
 */
describe('daemon: the executor fail-stop stops the whole daemon (real daemon in-process, devnet)', () => {
  let dataDir: string
  let daemon: RunningDaemon
  let admin: AdminClient
  const fatal: Error[] = []
  let call: PublicCall
  let started: InProcessDaemon | undefined

  beforeAll(async () => {
    started = await startInProcessDaemon({ prefix: 'prebuy-daemon-fail-stop-', onFatal: (error) => fatal.push(error) })
    ;({ dataDir, daemon, admin, call } = started)
  }, 180_000)
  afterAll(async () => {
    await started?.stop()
  })

  it("a committed batch whose orders' moves cannot be written: the executor fail-stops, the daemon stops every part and reports it fatal", async () => {
    const creator = privateKeyToAccount(generatePrivateKey()).address
    await call('POST', '/projects', undefined, {
      projectName: 'Stopper',
      projectUrls: ['https://stopper.example'],
      projectInfo: 'Stopper launches a token.',
      contact: '@stopper',
      email: 'team@stopper.example',
    })
    const [registration] = await admin.listReviews('registration', 'pending')
    await admin.approveRegistration(registration!.id, { slug: 'stopper', creator, symbol: 'STP', launchpad: 'clanker', chain: 'base' })
    const created = await call('POST', '/api-keys', undefined, { label: 'buyer-stopper' })
    const apiKey = created.body.apiKey as string
    const wallet = created.body.serviceWalletAddress as Address
    await admin.devnetFund({ address: wallet, chain: 'base', usdc: '100' })
    const placed = await call('POST', '/orders', apiKey, { items: [{ slug: 'stopper', maxSpendUsdc: '40', maxFdvUsdc: null, expiresInMs: 600_000 }] })
    expect(placed.body.results).toEqual([{ slug: 'stopper', ok: true, status: 'created' }])

    // The executor approves the batch buyer ahead from the waiting wallet (approve-ahead.ts): only then does the launch
    // buy it in a batch (committed, then moved).
    const base = daemon.chains.base
    const client = createPublicClient({ transport: http(base.rpcUrl) })
    const approval = parseAbiItem('event Approval(address indexed owner, address indexed spender, uint256 value)')
    await waitFor('the batch buyer approved ahead', async () => {
      const logs = await client.getLogs({ address: base.addresses.stablecoin, event: approval, args: { owner: wallet }, fromBlock: 0n })
      return logs.some((log) => (log.args.value ?? 0n) > 0n)
    })

    const launchpads = await readDevnetLaunchpads(dataDir)
    await launchToken({ chain: base, addresses: launchpads.base!, launchpad: 'clanker', creator, name: 'Stopper', symbol: 'STP' })

    // The orders' moves refused: the executor fail-stops and the daemon stops itself, then reports it.
    const [error] = await waitFor('the daemon reported fatal', async () => (fatal.length > 0 ? fatal : undefined), 120_000)
    expect(refusal.refused).toBe(1)
    expect(error?.message).toMatch(/the orders' moves of committed batch 0x[0-9a-f]{64} could not be written \(disk refused the write \(test\)\)/)
    expect(fatal).toHaveLength(1)
    // Stopped before onFatal: neither API answers any more.
    await expect(fetch(`${daemon.url}${PUBLIC}/projects/stopper`)).rejects.toThrow()
    await expect(fetch(`${daemon.adminUrl}/`)).rejects.toThrow()
  }, 300_000)
})

/** Polls until `probe` returns something truthy (`timeoutMs`, default 60 s). */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}
