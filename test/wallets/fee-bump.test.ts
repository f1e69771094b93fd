import { Writable } from 'node:stream'
import { createPublicClient, http, parseGwei, type Address, type Hash, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { startAnvil, type AnvilInstance } from '../../devnet/anvil/start-anvil.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { createLogger } from '../../src/common/logger.ts'
import type { Bundler } from '../../src/wallets/bundler/bundler.ts'
import { createBundler } from '../../src/wallets/bundler/create-bundler.ts'
import type { PriorityFeePolicy } from '../../src/wallets/bundler/priority-fee-policy.ts'

/**
 * The fee bumper on a real anvil in manual mining (blocks only when the test mines): a transaction of the bundler EOA
 * that sits unmined for a block is replaced with the same nonce and fees raised by geth's 10% at least; one the pool
 * dropped (a base fee risen above its fee cap) is sent again the same way; only one transaction of the nonce lands.
 */

// anvil's first two dev accounts (its well-known mnemonic), funded at genesis: the bundler EOA, and a rival that
// outbids it for the one slot of a small block.
const SIGNER = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const RIVAL = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const DEST: Address = '0x000000000000000000000000000000000000dEaD'
const GAS = 40_000n

let anvil: AnvilInstance
let client: PublicClient
const logLines: string[] = []
const logger = createLogger({
  level: 'info',
  destination: new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk))
      callback()
    },
  }),
})

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337, name: 'fee-bump', mining: 'manual' })
  client = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 50 })
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
})

const chain = (): ChainConfig =>
  ({
    key: 'base',
    chainId: 31337,
    rpcUrl: anvil.rpcUrl,
    wsUrl: anvil.wsUrl,
    addresses: { entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032', multicall3: '0xcA11bde05977b3631167028862bE2a4BbA30aF4C' },
  }) as unknown as ChainConfig

const bundlerWith = (priorityFee: PriorityFeePolicy): Bundler =>
  createBundler({ chain: chain(), client, signer: SIGNER, logger, priorityFee, pollingIntervalMs: 50, receiptTimeoutMs: 60_000 })

const fixedTip = (tipWei: bigint, maxTipWeiPerTx = 10n ** 17n): PriorityFeePolicy => ({
  tip: { kind: 'fixed', tipWei },
  maxTipWeiPerTx,
  launch: { multiplier: 2, blocks: 5 },
})

const mine = () => jsonRpc(anvil.rpcUrl, 'evm_mine')
const setBlockGasLimit = (gas: bigint) => jsonRpc(anvil.rpcUrl, 'evm_setBlockGasLimit', [`0x${gas.toString(16)}`])

/** The log lines with this message written after `from`, parsed. */
const linesSince = (from: number, message: string) =>
  logLines
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === message)

/** Mines one block at a time until `done` holds (a deadline, never a guess of how long the bumper takes). */
async function mineUntil(done: () => boolean | Promise<boolean>, what: string, beforeEachBlock?: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await beforeEachBlock?.()
    await mine()
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * A rival transaction with a far higher tip and the same gas limit, before each block: with room for one such
 * transaction per block, anvil (ordered by tip) takes the rival's and leaves the bundler's in the pool.
 */
async function outbid(): Promise<void> {
  const nonce = await client.getTransactionCount({ address: RIVAL.address, blockTag: 'pending' })
  const raw = await RIVAL.signTransaction({
    type: 'eip1559',
    chainId: 31337,
    to: DEST,
    gas: GAS,
    nonce,
    maxFeePerGas: parseGwei('100'),
    maxPriorityFeePerGas: parseGwei('10'),
  })
  await client.sendRawTransaction({ serializedTransaction: raw })
}

/** Blocks with room for one transaction of GAS, while `run` runs. */
async function withSmallBlocks<T>(run: () => Promise<T>): Promise<T> {
  await setBlockGasLimit(GAS + 20_000n)
  try {
    return await run()
  } finally {
    await setBlockGasLimit(30_000_000n)
  }
}

async function receiptOf(hash: Hash) {
  return client.getTransactionReceipt({ hash }).catch(() => undefined)
}

describe('fee bump of a stuck transaction', () => {
  it('replaces a stuck transaction of another sender account with that account, same nonce (wallet.senderAccounts)', async () => {
    // anvil's third dev account, funded at genesis: a second sender account beside the bundler EOA.
    const second = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
    const bundler = createBundler({
      chain: chain(),
      client,
      signer: SIGNER,
      extraSigners: [second],
      logger,
      priorityFee: fixedTip(parseGwei('0.01')),
      pollingIntervalMs: 50,
      receiptTimeoutMs: 60_000,
    })
    expect(bundler.senderAddresses!()).toEqual([SIGNER.address, second.address])
    const mark = logLines.length
    const replaced = () => linesSince(mark, 'transaction not mined for a block; replaced with higher fees')
    const sent = await withSmallBlocks(async () => {
      // Sent together: one from each account (which call gets which account is the pool's choice, not the calls' order).
      const sent = await Promise.all([bundler.sendFromPool!({ to: DEST, data: '0x', gas: GAS }), bundler.sendFromPool!({ to: DEST, data: '0x', gas: GAS })])
      expect(sent.map((s) => s.from).sort()).toEqual([SIGNER.address, second.address].sort())
      const ofSecond = sent.find((s) => s.from === second.address)!
      await mineUntil(() => replaced().some((line) => line.txHash === ofSecond.hash), "the second account's replacement", outbid)
      return sent
    })
    const ofSecond = sent.find((s) => s.from === second.address)!
    const line = replaced().find((l) => l.txHash === ofSecond.hash)!
    const bumped = await client.getTransaction({ hash: line.replacement as Hash })
    expect(bumped.from.toLowerCase()).toBe(second.address.toLowerCase())
    expect(bumped.nonce).toBe(ofSecond.nonce)
    let settled = 0
    for (const s of sent) void s.landed.then(() => settled++)
    await mineUntil(() => settled === 2, 'both landings')
    for (const s of sent) expect((await s.landed).receipt?.status).toBe('success')
  })

  it('replaces a transaction left out of a block: same nonce, fees +10% at least, and only the replacement lands', async () => {
    const bundler = bundlerWith(fixedTip(parseGwei('0.01')))
    const nonceBefore = await client.getTransactionCount({ address: SIGNER.address })
    const mark = logLines.length
    // Too big for the block once the limit is lowered: it stays in the pool, unmined, block after block.
    const replaced = () => linesSince(mark, 'transaction not mined for a block; replaced with higher fees')
    const { sent, original } = await withSmallBlocks(async () => {
      const sent = await bundler.sendCall!({ to: DEST, data: '0x', gas: GAS })
      const original = await client.getTransaction({ hash: sent.hash })
      await mineUntil(() => replaced().length > 0, 'the replacement', outbid)
      return { sent, original }
    })
    const [line] = replaced()
    expect(line).toMatchObject({ txHash: sent.hash, nonce: nonceBefore, dropped: false })
    const bumped = await client.getTransaction({ hash: line!.replacement as Hash })
    expect(bumped.nonce).toBe(original.nonce)
    expect(bumped.maxPriorityFeePerGas! * 100n >= original.maxPriorityFeePerGas! * 110n).toBe(true)
    expect(bumped.maxFeePerGas! * 100n >= original.maxFeePerGas! * 110n).toBe(true)

    let settled = false
    void sent.landed.then(() => (settled = true))
    await mineUntil(() => settled, 'the landing')
    const { receipt } = await sent.landed
    // The last replacement landed (there may have been more than one while the block stayed full).
    expect(receipt?.status).toBe('success')
    const hashes = linesSince(mark, 'transaction not mined for a block; replaced with higher fees').map((l) => l.replacement as Hash)
    expect(receipt?.transactionHash).toBe(hashes.at(-1))
    expect(await receiptOf(sent.hash)).toBeUndefined()
    for (const hash of hashes.slice(0, -1)) expect(await receiptOf(hash)).toBeUndefined()
    expect(await client.getTransactionCount({ address: SIGNER.address })).toBe(nonceBefore + 1)
  })

  it('sends again with higher fees a transaction the pool dropped when the base fee rose above its fee cap', async () => {
    const bundler = bundlerWith(fixedTip(parseGwei('0.01')))
    const nonceBefore = await client.getTransactionCount({ address: SIGNER.address })
    const mark = logLines.length
    const sent = await bundler.sendCall!({ to: DEST, data: '0x', gas: GAS })
    const original = await client.getTransaction({ hash: sent.hash })
    // The next block's base fee is far above what the transaction offers: anvil leaves it out and drops it.
    await jsonRpc(anvil.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [`0x${(original.maxFeePerGas! * 50n).toString(16)}`])
    let settled = false
    void sent.landed.then(() => (settled = true))
    await mineUntil(() => settled, 'the landing')
    const { receipt } = await sent.landed
    const [line] = linesSince(mark, 'transaction dropped before it was mined; sent again with higher fees')
    expect(line).toMatchObject({ txHash: sent.hash, nonce: nonceBefore, dropped: true })
    expect(receipt?.status).toBe('success')
    expect(receipt?.transactionHash).toBe(line!.replacement)
    expect(await receiptOf(sent.hash)).toBeUndefined()
    expect(await client.getTransactionCount({ address: SIGNER.address })).toBe(nonceBefore + 1)
  })

  it('keeps the transaction as sent when a replacement would exceed the per-transaction tip cap', async () => {
    // The cap allows exactly the tip sent: a replacement (+10%) would pay more than wallet.priorityFee.maxEthPerTx.
    const tip = parseGwei('0.01')
    const bundler = bundlerWith(fixedTip(tip, tip * GAS))
    const nonceBefore = await client.getTransactionCount({ address: SIGNER.address })
    const mark = logLines.length
    const capped = () => linesSince(mark, 'transaction not mined for a block; a replacement would exceed wallet.priorityFee.maxEthPerTx, so it stays as sent')
    const sent = await withSmallBlocks(async () => {
      const sent = await bundler.sendCall!({ to: DEST, data: '0x', gas: GAS })
      await mineUntil(() => capped().length > 0, 'the capped bump', outbid)
      return sent
    })
    expect(linesSince(mark, 'transaction not mined for a block; replaced with higher fees')).toEqual([])
    let settled = false
    void sent.landed.then(() => (settled = true))
    await mineUntil(() => settled, 'the landing')
    expect((await sent.landed).receipt?.transactionHash).toBe(sent.hash)
    expect(await client.getTransactionCount({ address: SIGNER.address })).toBe(nonceBefore + 1)
  })

  it("counts a block passed from the head the transaction reached, not from the client's cached block number: none is replaced before its first block", async () => {
    // viem serves getBlockNumber from the client's cache for its polling interval (250 ms for the wallet's clients),
    // while the test harness mines a block every ~150 ms: a wait that started from a cached number two blocks behind
    // took the next fresh read for a block passed without the transaction and replaced it before any block came (the
    // executor's batch-recovery test then waited in vain for the original's receipt). Here the cache never expires by
    // itself, so the stale number is there for certain, and is brought up to date only when the test says.
    const counts = { receiptChecks: 0 }
    const cached = createPublicClient({
      transport: http(anvil.rpcUrl, {
        onFetchRequest: (_request, init) => {
          const body = JSON.parse(String(init.body)) as { method: string } | { method: string }[]
          for (const call of [body].flat()) if (call.method === 'eth_getTransactionReceipt') counts.receiptChecks++
        },
      }),
      cacheTime: Number.POSITIVE_INFINITY,
      pollingInterval: 50,
    })
    const bundler = createBundler({
      chain: chain(),
      client: cached,
      signer: SIGNER,
      logger,
      priorityFee: fixedTip(parseGwei('0.01')),
      pollingIntervalMs: 50,
      receiptTimeoutMs: 60_000,
    })
    // Fees and nonces read (and the block number cached) before two blocks: the send below uses the bundler's recent
    // reads, as a launch's send does, and reads no block number of its own.
    await bundler.warm!()
    const stale = await cached.getBlockNumber()
    await mine()
    await mine()
    const mark = logLines.length
    const sent = await bundler.sendCall!({ to: DEST, data: '0x', gas: GAS })
    // The cache catches up (as after its interval): to a wait counting from the stale number, two blocks have passed.
    expect(await cached.getBlockNumber({ cacheTime: 0 })).toBe(stale + 2n)
    // Three receipt checks after that: the wait went through at least one whole round (receipt, head, bump or not).
    const from = counts.receiptChecks
    const deadline = Date.now() + 30_000
    while (counts.receiptChecks < from + 3) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the receipt checks')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(linesSince(mark, 'transaction not mined for a block; replaced with higher fees')).toEqual([])
    // The first block after the send carries the transaction as sent.
    await mine()
    expect((await sent.landed).receipt?.transactionHash).toBe(sent.hash)
  })
})
