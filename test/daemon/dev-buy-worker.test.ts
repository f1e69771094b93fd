import { getAddress, type Address, type Hash, type PublicClient } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDevBuyWorker } from '../../daemon/launch-methods/dev-buy-worker.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { silentLogger } from '../../src/common/logger.ts'
import type { DevBuyLaunchState } from '../../src/domain/records.ts'
import type { DevBuyChain } from '../../src/launch-methods/dev-buy/dev-buy-chain.ts'
import type { LaunchDevBuyInput, LaunchDevBuyOutcome } from '../../src/launch-methods/dev-buy/launch-dev-buy.ts'
import { createServices, type Services } from '../../src/services/services.ts'
import { devBuyLaunchId } from '../../src/services/dev-buy-service.ts'
import type { Store } from '../../src/store/open-store.ts'
import { projectWriteOps } from '../../src/store/project-writes.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { orderRecord, projectRecord } from '../support/records.ts'
import { openTempStore } from '../support/temp-store.ts'
import { writeOrderAs } from '../support/write-order-as.ts'

/**
 * The dev-buy worker's bookkeeping after a crash, on a real store with the launch replaced: only the orders the
 * interrupted launch moved are its own. (The launch on a running daemon: test/launch-methods/dev-buy-daemon.e2e.test.ts.)
 */
const TOKEN: Address = '0x00000000000000000000000000000000000d0b01'
const TX: Hash = `0x${'ab'.repeat(32)}`

describe('dev-buy worker', () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store
  let services: Services
  let calls: LaunchDevBuyInput[]
  const wallets = { walletAddress: async (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}` } as unknown as WalletService
  const devBuyChain = {
    coordinator: () => '0x00000000000000000000000000000000000dbc01',
    deployment: () => ({ devBuyIndex: 0 }),
    client: () => ({}) as PublicClient,
  } as unknown as DevBuyChain
  const worker = (outcome: LaunchDevBuyOutcome) =>
    createDevBuyWorker({
      store,
      services,
      wallets,
      chains: { base: { key: 'base' } } as unknown as Record<ChainKey, ChainConfig>,
      devBuyChain,
      logger: silentLogger,
      launch: async (_deps, input) => {
        calls.push(input)
        return outcome
      },
    })

  beforeEach(async () => {
    temp = await openTempStore('dev-buy-worker')
    store = temp.store
    services = createServices({ store, wallets })
    calls = []
  })
  afterEach(async () => {
    await temp.remove()
  })

  it('reconciling a launch a crash interrupted takes only its own executing orders; an open-market buy in flight is left to the executor', async () => {
    const keys = Object.fromEntries(await Promise.all(['a', 'b', 'late'].map(async (label) => [label, (await services.keys.issueKey(label)).record] as const)))
    const launching: DevBuyLaunchState = { status: 'launching', since: 1, txHash: TX, token: TOKEN, orderKeyIds: [keys.a!.id, keys.b!.id] }
    const params = { name: 'Moon', symbol: 'MOON', image: '', metadata: '', tokenAdmin: TOKEN }
    await store.batch(
      projectWriteOps(
        store,
        undefined,
        projectRecord('moon', { launchMethod: 'dev_buy', devBuy: { launchId: devBuyLaunchId('moon'), params, requestedAt: 1, state: launching } }),
      ),
    )
    // a and b: the launch's buyers, left executing by the crash. late: placed after the launch began, and being bought on
    // the open market (the indexer bound the launch before the crash): executing, but the executor's.
    for (const key of Object.values(keys)) await writeOrderAs(store, orderRecord('moon', key.id, { status: 'executing' }))
    const fill = (label: 'a' | 'b', spend: bigint, tokens: bigint) => ({ wallet: getAddress(keys[label]!.walletAddress), spend, tokens })
    const result = {
      token: TOKEN,
      txHash: TX,
      blockNumber: 7n,
      stableIn: 300n,
      ethIn: 1n,
      bought: 1_000n,
      fee: 30n,
      fills: [fill('a', 200n, 647n), fill('b', 100n, 323n)],
    }

    await worker({ status: 'already_launched', token: TOKEN, result }).runOnce()
    expect(calls).toHaveLength(1)
    expect(calls[0]!.buyers.map((b) => b.id).sort()).toEqual([keys.a!.id, keys.b!.id].sort())
    const status = async (label: string) =>
      (await services.projects.ordersOfProject('moon', ['active', 'executing', 'filled'])).find((o) => o.keyId === keys[label]!.id)!.status
    expect(await status('a')).toBe('filled')
    expect(await status('b')).toBe('filled')
    expect(await status('late')).toBe('executing')
    expect((await store.sub.projects.get('moon'))!.devBuy!.state).toMatchObject({ status: 'launched', filledOrders: 2, txHash: TX })
  })
})
