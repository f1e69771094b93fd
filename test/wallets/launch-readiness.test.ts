/** The wallet layer's side of a launch's latency: wallets readied ahead, and signing overlapped with the caller's write. */
import { encodeFunctionData, erc20Abi, parseEventLogs, type Address } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { CODE_SIZE_READER_ADDRESS, readCodeSizes } from '../../src/wallets/bundler/code-sizes.ts'
import { MAX_DEPLOYS_AHEAD } from '../../src/wallets/create-wallet-service.ts'
import { GAS_METER_ADDRESS } from '../../src/wallets/bundler/gas-meter.ts'
import { startWalletFixture, txHashOf, type WalletFixture } from './devnet-fixture.ts'

let f: WalletFixture
beforeAll(async () => {
  f = await startWalletFixture()
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const DEST: Address = '0x000000000000000000000000000000000000dEaD'

const approveOp = (userIndex: number, id: string, amount: bigint) => ({
  userIndex,
  id,
  calls: [{ to: f.chains.base.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, amount] }) }],
})

/** The chain reads a prepare makes for its accounts: code sizes and the nonce multicall. */
const stateReads = (calls: { method: string; to?: string }[]) =>
  calls.filter((c) => c.to === CODE_SIZE_READER_ADDRESS.toLowerCase() || c.to === f.chains.base.addresses.multicall3.toLowerCase()).length
const rpcMethods = (calls: { method: string }[]) => calls.map((c) => c.method)
/** AccountDeployed events in a transaction: wallets deployed by an operation's initCode. */
const deploymentsIn = async (hash: `0x${string}`) =>
  parseEventLogs({ abi: entryPoint07Abi, eventName: 'AccountDeployed', logs: (await f.clients.base.getTransactionReceipt({ hash })).logs }).length

describe('prepareAhead (wallets readied before a launch)', () => {
  it('reads deployment and nonces once ahead; the submission then reads neither, deploys the new wallets and bumps the deployed ones', async () => {
    const { calls, service } = f.recordingService()
    // Wallet 7000 is deployed (an earlier operation, nonce 1); 7001-7003 are not.
    const [first] = await service.submitUserOperations('base', [approveOp(7000, 'earlier', 1n)])
    expect(first?.status).toBe('included')
    const ahead = await service.prepareAhead!('base', [7000, 7001, 7002, 7003, 7001])
    expect(ahead).toEqual({ read: 4, undeployed: 3, deployed: 3 })
    // prepareAhead returns once the deployments are sent: wait until they landed (a busy machine mines them later).
    const undeployed = await Promise.all([7001, 7002, 7003].map((i) => service.walletAddress(i)))
    await vi.waitFor(async () => expect((await readCodeSizes(f.clients.base, undeployed)).every((size) => size > 0)).toBe(true), {
      timeout: 30_000,
      interval: 100,
    })
    // The deployed ones are read again (their deployment changed them); then nothing is read, even when the wallet
    // layer's follow-up of the deployment's landing reports it only after that read (as a busy machine's CI run saw):
    // the end of a deployment voids only what said "not deployed".
    expect(await service.prepareAhead!('base', [7000, 7001, 7002, 7003])).toEqual({ read: 3, undeployed: 0, deployed: 0 })
    expect(await service.prepareAhead!('base', [7000, 7001, 7002, 7003])).toEqual({ read: 0, undeployed: 0, deployed: 0 })

    calls.length = 0
    const results = await service.submitUserOperations(
      'base',
      [7000, 7001, 7002, 7003].map((i) => approveOp(i, `launch-${i}`, 5n)),
    )
    expect(results.map((r) => r.status)).toEqual(['included', 'included', 'included', 'included'])
    expect(stateReads(calls)).toBe(0)
    expect(await deploymentsIn(txHashOf(results[0]))).toBe(0)
    // Fees and the block were read ahead too: before the send only the simulation remains, and the bundler's
    // pending-nonce check (alongside the simulation) unless the readying pass made one within
    // NONCE_OBSERVATION_FRESH_MS with no send since: which of the two depends on this machine's speed, so both are
    // accepted here; the rule itself is tested exactly in test/unit/wallets/bundler/chain-reads.test.ts.
    const beforeSend = rpcMethods(calls).slice(0, rpcMethods(calls).indexOf('eth_sendRawTransaction'))
    expect(beforeSend.filter((m) => m !== 'eth_getTransactionCount')).toEqual(['eth_call'])
    expect(beforeSend.filter((m) => m === 'eth_getTransactionCount').length).toBeLessThanOrEqual(1)
    const owner = await service.walletAddress(7000)
    expect(
      await f.clients.base.readContract({ address: f.chains.base.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [owner, DEST] }),
    ).toBe(5n)
  }, 60_000)

  it('never serves a state its own later operation changed: the next operation reads again and succeeds', async () => {
    // Without deploying ahead: the wallet is deployed by its first operation's initCode.
    const { calls, service } = f.recordingService({ deployAhead: false })
    expect(await service.prepareAhead!('base', [7100])).toEqual({ read: 1, undeployed: 1, deployed: 0 })
    const [deploying] = await service.submitUserOperations('base', [approveOp(7100, 'deploys', 1n)])
    expect(deploying?.status).toBe('included')
    calls.length = 0
    // The cached "not deployed, nonce 0" is stale now: using it would send initCode again (AA10) with nonce 0 (AA25).
    const [next] = await service.submitUserOperations('base', [approveOp(7100, 'after', 2n)])
    expect(next).toMatchObject({ id: 'after', status: 'included' })
    expect(stateReads(calls)).toBe(2)
    // Readied again after its operation: a read, then served.
    expect(await service.prepareAhead!('base', [7100])).toEqual({ read: 1, undeployed: 0, deployed: 0 })
    calls.length = 0
    const [third] = await service.submitUserOperations('base', [approveOp(7100, 'third', 3n)])
    expect(third?.status).toBe('included')
    expect(stateReads(calls)).toBe(0)
  }, 60_000)

  it('forgets what it read on forgetAhead (a reorg): the next submission reads the chain', async () => {
    const { calls, service } = f.recordingService()
    await service.prepareAhead!('base', [7200])
    // prepareAhead returns once the deployment is sent: let it land first (its landing voids the cache by itself, which
    // would add a read of its own to the count below).
    const wallet = await service.walletAddress(7200)
    await vi.waitFor(async () => expect((await readCodeSizes(f.clients.base, [wallet]))[0]).toBeGreaterThan(0), { timeout: 30_000, interval: 100 })
    service.forgetAhead!('base')
    calls.length = 0
    const [result] = await service.submitUserOperations('base', [approveOp(7200, 'after-reorg', 1n)])
    expect(result?.status).toBe('included')
    expect(stateReads(calls)).toBe(2)
  }, 60_000)

  it('deploys at most MAX_DEPLOYS_AHEAD wallets per call (a block’s worth), the rest on the next call', async () => {
    const service = f.newService()
    const users = Array.from({ length: MAX_DEPLOYS_AHEAD + 5 }, (_, i) => 8000 + i)
    expect(await service.prepareAhead!('base', users)).toEqual({ read: users.length, undeployed: users.length, deployed: MAX_DEPLOYS_AHEAD })
    // prepareAhead returns once the deployments are sent (several transactions): wait until all of them landed.
    const addresses = await Promise.all(users.map((i) => service.walletAddress(i)))
    await vi.waitFor(async () => expect((await readCodeSizes(f.clients.base, addresses)).filter((size) => size > 0)).toHaveLength(MAX_DEPLOYS_AHEAD), {
      timeout: 30_000,
      interval: 100,
    })
    // The deployed ones are read again (their deployment touched them); the five left are deployed now.
    expect(await service.prepareAhead!('base', users)).toEqual({ read: MAX_DEPLOYS_AHEAD, undeployed: 5, deployed: 5 })
    await vi.waitFor(async () => expect((await readCodeSizes(f.clients.base, addresses)).every((size) => size > 0)).toBe(true), {
      timeout: 30_000,
      interval: 100,
    })
  }, 60_000)

  it('a deployment ahead that the node dropped releases its wallets at once: the next operation deploys the wallet itself', async () => {
    const { service } = f.recordingService()
    const chain = f.chains.second_chain
    const client = f.clients.second_chain
    const wallet = await service.walletAddress(7400)
    await jsonRpc(chain.rpcUrl, 'evm_setAutomine', [false])
    let ahead: Promise<unknown> | undefined
    try {
      ahead = service.prepareAhead!('second_chain', [7400])
      const bundler = service.bundlerAddress('second_chain')
      const deadline = Date.now() + 10_000
      let hash: `0x${string}` | undefined
      while (!hash && Date.now() < deadline) {
        const pool = (await jsonRpc(chain.rpcUrl, 'txpool_content', [])) as { pending: Record<string, Record<string, { hash: `0x${string}` }>> }
        const mine = Object.entries(pool.pending).find(([from]) => from.toLowerCase() === bundler.toLowerCase())?.[1]
        hash = mine ? Object.values(mine)[0]?.hash : undefined
        if (!hash) await new Promise((r) => setTimeout(r, 20))
      }
      expect(hash).toBeDefined()
      await jsonRpc(chain.rpcUrl, 'anvil_dropTransaction', [hash])
      expect(await ahead).toEqual({ read: 1, undeployed: 1, deployed: 1 })
    } finally {
      await jsonRpc(chain.rpcUrl, 'evm_setAutomine', [true])
    }
    expect(await client.getCode({ address: wallet })).toBeUndefined()
    const started = Date.now()
    const [result] = await service.submitUserOperations('second_chain', [
      {
        userIndex: 7400,
        id: 'after-drop',
        calls: [{ to: chain.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 4n] }) }],
      },
    ])
    expect(result).toMatchObject({ id: 'after-drop', status: 'included' })
    // Not held by the dropped deployment's claim, nor behind its nonce: a drop is seen within DROP_CHECK_MS (1 s) while
    // no block comes, else the claim would last the bundler's 30 s receipt wait (and a pending one's until its code, up
    // to 10 minutes). Half that wait tells the two apart; the former 5 s bound was a guess at a busy machine's speed.
    expect(Date.now() - started).toBeLessThan(15_000)
    const receipt = await client.getTransactionReceipt({ hash: txHashOf(result) })
    expect(parseEventLogs({ abi: entryPoint07Abi, eventName: 'AccountDeployed', logs: receipt.logs })).toHaveLength(1)
  }, 60_000)

  it('a batch that needs a wallet whose deployment ahead is still pending waits for it instead of deploying it twice', async () => {
    const { service } = f.recordingService()
    const chain = f.chains.second_chain
    const client = f.clients.second_chain
    const wallet = await service.walletAddress(7300)
    await jsonRpc(chain.rpcUrl, 'evm_setAutomine', [false])
    try {
      const ahead = service.prepareAhead!('second_chain', [7300])
      // The deployment transaction is in the pool, not mined.
      const deadline = Date.now() + 10_000
      while (Date.now() < deadline && Number(await jsonRpc(chain.rpcUrl, 'eth_getBlockTransactionCountByNumber', ['pending'])) === 0) {
        await new Promise((r) => setTimeout(r, 20))
      }
      const operation = service.submitUserOperations('second_chain', [
        {
          userIndex: 7300,
          id: 'waits',
          calls: [{ to: chain.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 3n] }) }],
        },
      ])
      await new Promise((r) => setTimeout(r, 300))
      await jsonRpc(chain.rpcUrl, 'evm_mine')
      expect(await ahead).toEqual({ read: 1, undeployed: 1, deployed: 1 })
      expect(await client.getCode({ address: wallet })).toBeTruthy()
      const mining = setInterval(() => void jsonRpc(chain.rpcUrl, 'evm_mine').catch(() => undefined), 100)
      try {
        const [result] = await operation
        expect(result).toMatchObject({ id: 'waits', status: 'included' })
        const receipt = await client.getTransactionReceipt({ hash: txHashOf(result) })
        expect(parseEventLogs({ abi: entryPoint07Abi, eventName: 'AccountDeployed', logs: receipt.logs })).toHaveLength(0)
      } finally {
        clearInterval(mining)
      }
    } finally {
      await jsonRpc(chain.rpcUrl, 'evm_setAutomine', [true])
    }
    expect(await client.readContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [wallet, DEST] })).toBe(3n)
  }, 60_000)
})

const simulated = (calls: { method: string; to?: string }[]) => calls.some((c) => c.to === GAS_METER_ADDRESS.toLowerCase())
const sent = (calls: { method: string }[]) => calls.filter((c) => c.method === 'eth_sendRawTransaction').length

describe('submitUserOperations with sendAfter', () => {
  it('signs and simulates at once but broadcasts only after the gate resolves', async () => {
    const { calls, service } = f.recordingService()
    let open: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (open = resolve))
    const pending = service.submitUserOperations('base', [approveOp(6100, 'gated', 7n)], { sendAfter: gate })
    const deadline = Date.now() + 10_000
    while (!simulated(calls) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(simulated(calls)).toBe(true)
    // Held at the gate: nothing broadcast however long it waits.
    await new Promise((r) => setTimeout(r, 300))
    expect(sent(calls)).toBe(0)
    open()
    const [result] = await pending
    expect(result).toMatchObject({ id: 'gated', status: 'included' })
    expect(sent(calls)).toBe(1)
    const wallet = await service.walletAddress(6100)
    expect(
      await f.clients.base.readContract({ address: f.chains.base.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [wallet, DEST] }),
    ).toBe(7n)
  }, 60_000)

  it('sends nothing when the gate rejects, rejects with its reason, and leaves the wallet free for the next operation', async () => {
    const { calls, service } = f.recordingService()
    const failure = new Error('executing batch not written')
    let fail: (error: Error) => void = () => undefined
    const gate = new Promise<void>((_, reject) => (fail = reject))
    // Two chunks' worth of wallets: the second chunk must not be broadcast either.
    const requests = Array.from({ length: 80 }, (_, i) => approveOp(6200 + i, `refused-${i}`, 5n))
    const pending = service.submitUserOperations('base', requests, { sendAfter: gate })
    const deadline = Date.now() + 10_000
    while (!simulated(calls) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    fail(failure)
    await expect(pending).rejects.toBe(failure)
    await new Promise((r) => setTimeout(r, 200))
    expect(sent(calls)).toBe(0)
    // The nonce stream was released and its nonce never used: the same wallet's next operation goes through.
    const [next] = await service.submitUserOperations('base', [approveOp(6200, 'after', 9n)])
    expect(next).toMatchObject({ id: 'after', status: 'included' })
    const wallet = await service.walletAddress(6200)
    expect(
      await f.clients.base.readContract({
        address: f.chains.base.addresses.entryPoint,
        abi: [
          {
            type: 'function',
            name: 'getNonce',
            stateMutability: 'view',
            inputs: [
              { name: 'sender', type: 'address' },
              { name: 'key', type: 'uint192' },
            ],
            outputs: [{ type: 'uint256' }],
          },
        ],
        functionName: 'getNonce',
        args: [wallet, 0n],
      }),
    ).toBe(1n)
  }, 60_000)
})
