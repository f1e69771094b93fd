import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  keccak256,
  maxUint256,
  parseEventLogs,
  parseUnits,
  type PublicClient,
  stringToHex,
  WaitForTransactionReceiptTimeoutError,
  zeroHash,
} from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchBuyerAbi as batchAbi, batchBuyerBytecode, batchEntry } from '../../daemon/executor/batch-buyer-abi.ts'
import { buyRouterAbi } from '../../daemon/executor/buy-router-abi.ts'
import { ensureBuyRouter } from '../../daemon/executor/ensure-buy-router.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { type Devnet, startDevnet } from '../../devnet/chain/start-devnet.ts'
import { deployDevnetLaunchpads } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { launchToken } from '../../devnet/launchpads/launch-token.ts'
import { devnetPublicClient } from '../../devnet/launchpads/send-devnet-tx.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { allocateBatch } from '../../src/domain/batch/batch-allocation.ts'
import { type BatchCandidate, clearBatchQuoted, maxBuyersPerBatch } from '../../src/domain/batch/clear-batch.ts'
import type { ExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import { minTokensOut } from '../../src/pricing/min-tokens-out.ts'
import type { PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { seededRandom } from '../support/seeded-random.ts'

const BUYERS = 430
/** The big batches' size (the example) and the small ones' (their difference gives the cost per buyer). */
const BIG = 200
const SMALL = 10
const FUNDED_USDC = 100n * 10n ** 6n
/**
 * The batches' last block (executeBatch's validUntilBlock): far ahead, and the size of a Base block number in calldata
 * (four non-zero bytes), so the gas measured is what the daemon's batches pay for it.
 */
const UNTIL = 2n ** 32n - 1n

/** Gas per batch, by credit mode and size, reported at the end (docs/execution.md quotes a run of it). */
const gas: Record<string, bigint> = {}
/** How many buyers each measured batch paid for (the clearing may leave some of the big one's orders out). */
const sizes: Record<string, number> = {}

let dataDir: string
let devnet: Devnet
let chain: ChainConfig
let client: PublicClient
let operator: PrivateKeyAccount
let quoter: PrivateKeyAccount
let buyRouter: Address
let batch: Address
let token: Address
let poolKey: PoolKey
let supply: bigint
const feeRecipient = privateKeyToAccount(generatePrivateKey()).address
const buyers: PrivateKeyAccount[] = []

const route = () => ({
  orderId: zeroHash,
  stablecoin: chain.addresses.stablecoin,
  weth: chain.addresses.weth,
  ethUsdPool: chain.addresses.ethUsdPool,
  bridge: [],
  poolKey,
  token,
  amountIn: 0n,
  minTokensOut: 0n,
  feeRecipient,
  feeBps: 300n,
})

const walletOf = (account: PrivateKeyAccount) => createWalletClient({ chain: chainFromConfig(chain), account, transport: http(chain.rpcUrl) })
const entry = batchEntry
const usdcOf = (a: Address) => client.readContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [a] })
const tokensOf = (a: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [a] })
const batchIdOf = (name: string): Hash => keccak256(stringToHex(`batch-test:${name}`))

/**
 * Waits for a transaction's receipt. The devnet automines, but on the loaded CI machine a transaction was seen to sit
 * in anvil's pool without a block (twice in a 430-wallet setup): after 15 s the wait mines a block itself, then waits
 * again, and names the transaction if it still never lands.
 */
async function confirm(hash: Hash, what: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await client.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 15_000 })
    } catch (error) {
      if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error
      await jsonRpc(chain.rpcUrl, 'evm_mine')
    }
  }
  throw new Error(`${what} (${hash}) was never mined: ${JSON.stringify(await jsonRpc(chain.rpcUrl, 'eth_getTransactionByHash', [hash]))}`)
}

/** What the route returns for `usdcIn` now: the router's own buy simulated from a funded account (a quote by the real swap). */
async function quote(usdcIn: bigint): Promise<bigint> {
  const { result } = await client.simulateContract({
    account: quoter,
    address: buyRouter,
    abi: buyRouterAbi,
    functionName: 'buy',
    args: [{ ...route(), orderId: keccak256(stringToHex(`quote-${usdcIn}-${Math.random()}`)), amountIn: usdcIn, feeBps: 0n }],
  })
  return (result as readonly [bigint, bigint])[0]
}

async function execute(batchId: Hash, entries: bigint[], lowestLimit: bigint | null, pushNow: boolean) {
  const hash = await walletOf(operator).writeContract({
    address: batch,
    abi: batchAbi,
    functionName: 'executeBatch',
    args: [batchId, route(), entries, lowestLimit ?? 0n, pushNow, UNTIL, []],
    gas: EIP_7825_TX_GAS_CAP,
  })
  const receipt = await confirm(hash, 'the batch')
  expect(receipt.status).toBe('success')
  const logs = parseEventLogs({ abi: batchAbi, logs: receipt.logs }) as unknown as Array<{ eventName: string; args: Record<string, unknown> }>
  const executed = logs.find((l) => l.eventName === 'BatchExecuted')!.args as {
    totalIn: bigint
    tokensOut: bigint
    buyersPaid: bigint
    buyersSkipped: bigint
    allocationHash: Hex
  }
  const skipped = logs.filter((l) => l.eventName === 'BuyerSkipped').map((l) => l.args.buyer as Address)
  return { receipt, executed, skipped, gasUsed: receipt.gasUsed }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'prebuy-batch-'))
  devnet = await startDevnet({ dataDir, blockTime: 'auto' })
  chain = devnet.chains.base
  client = devnetPublicClient(chain)
  const deployer = devnet.deployer.account
  const launchpads = await deployDevnetLaunchpads(chain, deployer)
  buyRouter = await ensureBuyRouter({
    publicClient: client,
    walletClient: createWalletClient({ chain: chainFromConfig(chain), account: deployer, transport: http(chain.rpcUrl) }),
    poolManager: chain.addresses.poolManager,
  })
  operator = privateKeyToAccount(generatePrivateKey())
  quoter = privateKeyToAccount(generatePrivateKey())
  await fundAccount(chain, operator.address, { eth: '100' })
  await fundAccount(chain, quoter.address, { eth: '1', stablecoin: '10000000' })
  const approveQuote = await walletOf(quoter).writeContract({
    address: chain.addresses.stablecoin,
    abi: erc20Abi,
    functionName: 'approve',
    args: [buyRouter, maxUint256],
  })
  await confirm(approveQuote, 'the quoter approval')
  const deployHash = await createWalletClient({ chain: chainFromConfig(chain), account: deployer, transport: http(chain.rpcUrl) }).deployContract({
    abi: batchAbi,
    bytecode: batchBuyerBytecode,
    args: [buyRouter, deployer.address, [operator.address]],
  })
  batch = (await confirm(deployHash, 'the batch deployment')).contractAddress!
  // A constant 1% launch fee, so a quote and the batch a block later see the same pool.
  const launched = await launchToken({
    chain,
    addresses: launchpads,
    launchpad: 'doppler',
    creator: privateKeyToAccount(generatePrivateKey()).address,
    name: 'Batch coin',
    symbol: 'BATCH',
    startFee: 10_000,
    endFee: 10_000,
    decaySeconds: 1,
  })
  token = launched.token
  poolKey = launched.poolKey
  supply = await client.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' })
  // The buyers' smart wallets, standing in as plain accounts (what the batch does with a wallet is the same: it pulls
  // from an address that approved it): funded, and each approving the batch contract ahead of the launch.
  for (let i = 0; i < BUYERS; i++) buyers.push(privateKeyToAccount(generatePrivateKey()))
  // One at a time: the faucet's mints share the minter's nonce, and automine mines each transaction as it comes.
  for (const b of buyers) {
    await fundAccount(chain, b.address, { eth: '0.01', stablecoin: '100' })
    const hash = await walletOf(b).writeContract({
      address: chain.addresses.stablecoin,
      abi: erc20Abi,
      functionName: 'approve',
      args: [batch, parseUnits('1000', 6)],
    })
    await confirm(hash, 'a buyer approval')
  }
}, 600_000)

afterAll(async () => {
  await devnet?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
  if (Object.keys(gas).length > 0) {
    const perBuyer = (mode: string) => (gas[`${mode}-${BIG}`]! - gas[`${mode}-${SMALL}`]!) / BigInt(sizes[`${mode}-${BIG}`]! - SMALL)
    const fixed = (mode: string) => gas[`${mode}-${SMALL}`]! - perBuyer(mode) * BigInt(SMALL)
    const report = {
      buyersInBigBatch: sizes,
      gasPerBatch: Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, Number(v)])),
      ...(gas[`commit-${BIG}`] && gas[`commit-${SMALL}`]
        ? {
            commitPerBuyer: Number(perBuyer('commit')),
            commitFixed: Number(fixed('commit')),
            commitMaxBuyersUnder2pow24: maxBuyersPerBatch({
              txGasCap: EIP_7825_TX_GAS_CAP,
              fixedGas: fixed('commit'),
              perBuyerGas: perBuyer('commit'),
              margin: 1,
            }),
          }
        : {}),
      ...(gas[`push-${BIG}`] && gas[`push-${SMALL}`]
        ? {
            pushPerBuyer: Number(perBuyer('push')),
            pushFixed: Number(fixed('push')),
            pushMaxBuyersUnder2pow24: maxBuyersPerBatch({ txGasCap: EIP_7825_TX_GAS_CAP, fixedGas: fixed('push'), perBuyerGas: perBuyer('push'), margin: 1 }),
          }
        : {}),
      ...(gas['sweep-per-buyer'] ? { sweepPerBuyer: Number(gas['sweep-per-buyer']) } : {}),
    }
    console.log(`batch gas (devnet): ${JSON.stringify(report)}`)
  }
})

const order = (i: number, spend: bigint, limitFdv: bigint | null): ExecutableOrder => ({
  id: `order-${i}`,
  wallet: buyers[i]!.address,
  status: 'active',
  maxSpend: spend,
  limitFdv,
  expiresInMs: 3_600_000,
})

describe('PrebuyBatchBuyer on the devnet (real anvil, v4 PoolManager, Doppler pool, PrebuyBuyRouter)', () => {
  it(`${BIG} buyers with limits through one batch transaction: the clearing the core chose, one price, each within its limit, allocation exact`, async () => {
    // A small batch first: its gas against the big one's gives the cost of one more buyer.
    const small = await execute(
      batchIdOf('commit-small'),
      buyers.slice(0, SMALL).map((b) => entry(b.address, 5n * 10n ** 6n)),
      null,
      false,
    )
    gas[`commit-${SMALL}`] = small.gasUsed

    const random = seededRandom(23)
    const spends = Array.from({ length: BIG }, () => BigInt(1 + Math.floor(random() * 50)) * 10n ** 6n)
    // The FDV if every order bought in this one swap (the devnet pool is shallow: it moves a lot).
    const demand = spends.reduce((a, b) => a + b, 0n)
    const fdvAll = (demand * supply) / (await quote(demand))
    const candidates: BatchCandidate[] = spends.map((spend, k) => {
      // A third without a limit; the others between 0.85x and 1.5x of that FDV: some cannot take part.
      const limit = random() < 1 / 3 ? null : (fdvAll * BigInt(850 + Math.floor(random() * 650))) / 1_000n
      return { order: order(SMALL + k, spend, limit), spend }
    })
    const clearing = await clearBatchQuoted({ candidates, tokensOut: quote, totalSupply: supply, maxBuyers: 1_000 })
    expect(clearing.included.length).toBeGreaterThan(BIG / 3)
    // Some limits sit below where this much demand clears: the core left those out (they wait for a later block).
    expect(clearing.excluded.some((x) => x.reason === 'limit_below_clearing')).toBe(true)
    expect(clearing.excluded.every((x) => x.reason === 'limit_below_clearing')).toBe(true)
    const entries = clearing.included.map((inc) => entry(inc.candidate.order.wallet as Address, inc.candidate.spend))
    const usdcBefore = await Promise.all(clearing.included.map((inc) => usdcOf(inc.candidate.order.wallet as Address)))

    const big = await execute(batchIdOf('commit-big'), entries, clearing.lowestLimit, false)
    gas[`commit-${BIG}`] = big.gasUsed
    sizes[`commit-${BIG}`] = entries.length
    // What the chain did is what the core predicted: the quote was the real swap.
    expect(big.executed.totalIn).toBe(clearing.totalIn)
    expect(big.executed.tokensOut).toBe(clearing.tokensOut)
    expect(big.executed.buyersSkipped).toBe(0n)
    expect(big.receipt.gasUsed).toBeLessThan(EIP_7825_TX_GAS_CAP)
    const usdcAfter = await Promise.all(clearing.included.map((inc) => usdcOf(inc.candidate.order.wallet as Address)))
    for (const [i, inc] of clearing.included.entries()) expect(usdcBefore[i]! - usdcAfter[i]!).toBe(inc.candidate.spend)

    // The committed allocation, swept later in two transactions by anyone (here: a fresh account).
    const sweeper = privateKeyToAccount(generatePrivateKey())
    await fundAccount(chain, sweeper.address, { eth: '1' })
    const half = Math.floor(entries.length / 2)
    let sweepGas = 0n
    for (const [from, to] of [
      [0, half],
      [half, entries.length],
    ] as const) {
      const hash = await walletOf(sweeper).writeContract({
        address: batch,
        abi: batchAbi,
        functionName: 'sweep',
        args: [batchIdOf('commit-big'), entries, BigInt(from), BigInt(to)],
        gas: EIP_7825_TX_GAS_CAP,
      })
      const receipt = await confirm(hash, 'a sweep')
      expect(receipt.status).toBe('success')
      sweepGas += receipt.gasUsed
    }
    gas['sweep-per-buyer'] = sweepGas / BigInt(entries.length)

    // Every buyer at one price: exactly its pro-rata share of the one swap, less 3%; within its own limit after
    // rounding (the router's per-buy minimum); the fee recipient has the fees and the dust; nothing is left over.
    let credited = 0n
    for (const inc of clearing.included) {
      const got = await tokensOf(inc.candidate.order.wallet as Address)
      expect(got).toBe(inc.net)
      expect(inc.gross).toBe((clearing.tokensOut * inc.candidate.spend) / clearing.totalIn)
      const limit = inc.candidate.order.limitFdv
      if (limit !== null) {
        expect(clearing.totalIn * supply).toBeLessThanOrEqual(limit * clearing.tokensOut)
        expect(inc.gross).toBeGreaterThanOrEqual(minTokensOut({ spend: inc.candidate.spend, limitFdv: limit, totalSupply: supply }))
      }
      credited += got
    }
    const fees = await tokensOf(feeRecipient)
    // (the small batch is committed, not swept: its fee is still in the batch contract)
    expect(fees).toBe(clearing.feeTotal)
    expect(credited + clearing.feeTotal).toBe(clearing.tokensOut)
    // The batch keeps the small batch's committed tokens (not swept yet) and nothing else.
    expect(await tokensOf(batch)).toBe(small.executed.tokensOut)
    expect(await usdcOf(batch)).toBe(0n)
    // A sweep replayed from the start is refused: no buyer is paid twice.
    await expect(
      client.simulateContract({ account: operator, address: batch, abi: batchAbi, functionName: 'sweep', args: [batchIdOf('commit-big'), entries, 0n, 1n] }),
    ).rejects.toThrow(/WrongCursor/)
  }, 600_000)

  it('credits at once (push mode): the same exact allocation, measured per buyer', async () => {
    const run = async (name: string, from: number, count: number) => {
      const spends = buyers.slice(from, from + count).map((_, i) => BigInt(1 + ((i * 7) % 40)) * 10n ** 6n)
      const fees = await tokensOf(feeRecipient)
      const r = await execute(
        batchIdOf(name),
        buyers.slice(from, from + count).map((b, i) => entry(b.address, spends[i]!)),
        null,
        true,
      )
      const expected = allocateBatch(r.executed.tokensOut, spends)
      for (let i = 0; i < count; i++) expect(await tokensOf(buyers[from + i]!.address)).toBe(expected.shares[i]!.net)
      expect((await tokensOf(feeRecipient)) - fees).toBe(expected.feeTotal)
      return r.gasUsed
    }
    gas[`push-${SMALL}`] = await run('push-small', SMALL + BIG, SMALL)
    gas[`push-${BIG}`] = await run('push-big', 2 * SMALL + BIG, BIG)
    sizes[`push-${BIG}`] = BIG
  }, 600_000)

  it('a buyer who withdrew or revoked after approving is skipped; the batch buys for the others', async () => {
    const group = buyers.slice(BUYERS - SMALL)
    const [withdrawn, revoked] = group
    const away = await walletOf(withdrawn!).writeContract({
      address: chain.addresses.stablecoin,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [feeRecipient, FUNDED_USDC],
    })
    const revoke = await walletOf(revoked!).writeContract({ address: chain.addresses.stablecoin, abi: erc20Abi, functionName: 'approve', args: [batch, 0n] })
    for (const hash of [away, revoke]) await confirm(hash, 'a withdrawal')
    const spend = 20n * 10n ** 6n
    const r = await execute(
      batchIdOf('skip'),
      group.map((b) => entry(b.address, spend)),
      null,
      true,
    )
    expect(new Set(r.skipped)).toEqual(new Set([withdrawn!.address, revoked!.address]))
    expect(r.executed.buyersPaid).toBe(BigInt(SMALL - 2))
    expect(r.executed.totalIn).toBe(spend * BigInt(SMALL - 2))
    expect(await usdcOf(revoked!.address)).toBe(FUNDED_USDC)
    expect(await tokensOf(withdrawn!.address)).toBe(0n)
    expect(await tokensOf(revoked!.address)).toBe(0n)
    const expected = allocateBatch(
      r.executed.tokensOut,
      group.map((_, i) => (i < 2 ? 0n : spend)),
    )
    for (let i = 2; i < SMALL; i++) expect(await tokensOf(group[i]!.address)).toBe(expected.shares[i]!.net)
  }, 120_000)

  it('a batch id executes once: a resubmission after a crash reverts and takes nothing', async () => {
    const group = buyers.slice(BUYERS - SMALL + 2)
    const before = await Promise.all(group.map((b) => usdcOf(b.address)))
    const args = [batchIdOf('skip'), route(), group.map((b) => entry(b.address, 10n ** 6n)), 0n, true, UNTIL, []] as const
    await expect(client.simulateContract({ account: operator, address: batch, abi: batchAbi, functionName: 'executeBatch', args })).rejects.toThrow(
      /BatchAlreadyExecuted/,
    )
    // Sent anyway (a bundler that does not simulate): mined, reverted, nothing moved.
    const hash = await walletOf(operator).writeContract({ address: batch, abi: batchAbi, functionName: 'executeBatch', args, gas: 2_000_000n })
    expect((await confirm(hash, 'the resubmission')).status).toBe('reverted')
    expect(await Promise.all(group.map((b) => usdcOf(b.address)))).toEqual(before)
  }, 120_000)

  it('refuses executeBatch after its last block (BatchExpired): a signed batch that lands late takes nothing; in its last block it executes', async () => {
    const group = buyers.slice(BUYERS - SMALL - 10, BUYERS - SMALL)
    const entries = group.map((b) => entry(b.address, 10n ** 6n))
    const batchId = batchIdOf('expired')
    const before = await Promise.all(group.map((b) => usdcOf(b.address)))
    const head = await client.getBlockNumber({ cacheTime: 0 })
    await expect(
      client.simulateContract({
        account: operator,
        address: batch,
        abi: batchAbi,
        functionName: 'executeBatch',
        args: [batchId, route(), entries, 0n, false, head - 1n, []],
      }),
    ).rejects.toThrow(/BatchExpired/)
    // Sent anyway with the head as its last block: automine puts it in the next block, one past it. Mined, reverted,
    // nothing taken, the id unused (the same batch still executes within its last block).
    const lateArgs = [batchId, route(), entries, 0n, false, await client.getBlockNumber({ cacheTime: 0 }), []] as const
    const late = await walletOf(operator).writeContract({ address: batch, abi: batchAbi, functionName: 'executeBatch', args: lateArgs, gas: 2_000_000n })
    expect((await confirm(late, 'the late batch')).status).toBe('reverted')
    expect(await Promise.all(group.map((b) => usdcOf(b.address)))).toEqual(before)
    const onChain = (await client.readContract({ address: batch, abi: batchAbi, functionName: 'batches', args: [batchId] })) as readonly unknown[]
    expect(onChain[6]).toBe(false)
    const inTime = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
    const hash = await walletOf(operator).writeContract({
      address: batch,
      abi: batchAbi,
      functionName: 'executeBatch',
      args: [batchId, route(), entries, 0n, false, inTime, []],
      gas: 2_000_000n,
    })
    const receipt = await confirm(hash, 'the batch in its last block')
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBe(inTime)
    expect(await Promise.all(group.map((b) => usdcOf(b.address)))).toEqual(before.map((b) => b - 10n ** 6n))
  }, 120_000)

  it('supersedes: a superseded batch cannot execute after its successor did, nor a successor after a superseded one did (nothing taken either way); the gas it adds', async () => {
    const group = buyers.slice(BUYERS - SMALL - 20, BUYERS - SMALL - 10)
    const entries = group.map((b) => entry(b.address, 10n ** 6n))
    const send = async (batchId: Hash, supersedes: Hash[]) => {
      const hash = await walletOf(operator).writeContract({
        address: batch,
        abi: batchAbi,
        functionName: 'executeBatch',
        args: [batchId, route(), entries, 0n, false, UNTIL, supersedes],
        gas: 2_000_000n,
      })
      return confirm(hash, `batch ${batchId}`)
    }
    const simulate = (batchId: Hash, supersedes: Hash[]) =>
      client.simulateContract({
        account: operator,
        address: batch,
        abi: batchAbi,
        functionName: 'executeBatch',
        args: [batchId, route(), entries, 0n, false, UNTIL, supersedes],
      })
    const balances = () => Promise.all(group.map((b) => usdcOf(b.address)))

    // The successor first: it executes and kills the one it supersedes, whose signed transaction then takes nothing.
    const old1 = batchIdOf('superseded-old-1')
    const new1 = batchIdOf('superseded-new-1')
    const start = await balances()
    const first = await send(new1, [old1])
    expect(first.status).toBe('success')
    expect(await balances()).toEqual(start.map((b) => b - 10n ** 6n))
    const killed = parseEventLogs({ abi: batchAbi, logs: first.logs, eventName: 'BatchesSuperseded' }) as unknown as Array<{ args: { superseded: Hash[] } }>
    expect(killed.map((l) => l.args.superseded)).toEqual([[old1]])
    await expect(simulate(old1, [])).rejects.toThrow(/BatchSuperseded/)
    expect((await send(old1, [])).status).toBe('reverted')
    expect(await balances()).toEqual(start.map((b) => b - 10n ** 6n))
    const dead = (await client.readContract({ address: batch, abi: batchAbi, functionName: 'batches', args: [old1] })) as readonly unknown[]
    expect([dead[6], dead[8]]).toEqual([false, true]) // not executed, superseded
    expect(await client.readContract({ address: batch, abi: batchAbi, functionName: 'pulled', args: [old1] })).toBe(false)
    expect(await client.readContract({ address: batch, abi: batchAbi, functionName: 'pulled', args: [new1] })).toBe(true)

    // The superseded one first (a reorg brought it back before its successor landed): the successor is refused.
    const old2 = batchIdOf('superseded-old-2')
    const new2 = batchIdOf('superseded-new-2')
    const mid = await balances()
    expect((await send(old2, [])).status).toBe('success')
    expect(await balances()).toEqual(mid.map((b) => b - 10n ** 6n))
    await expect(simulate(new2, [old2])).rejects.toThrow(/SupersededBatchPulled/)
    expect((await send(new2, [old2])).status).toBe('reverted')
    expect(await balances()).toEqual(mid.map((b) => b - 10n ** 6n))
    // A batch naming itself or a live split batch is refused too; a successor that reverts (here: the pulled one) leaves
    // the others it names alive (its marks revert with it), so a later batch may still name them.
    const old3 = batchIdOf('superseded-old-3')
    expect((await send(batchIdOf('superseded-new-3'), [old3, old2])).status).toBe('reverted')
    const alive = (await client.readContract({ address: batch, abi: batchAbi, functionName: 'batches', args: [old3] })) as readonly unknown[]
    expect(alive[8]).toBe(false)
    await expect(simulate(batchIdOf('superseded-self'), [batchIdOf('superseded-self')])).rejects.toThrow(/SupersededBatchPulled/)

    // Gas: the same 10 buyers of 1 USDC superseding none, one and three batches (each id a fresh slot).
    const gas = async (name: string, supersedes: Hash[]) => {
      const receipt = await send(batchIdOf(name), supersedes)
      expect(receipt.status).toBe('success')
      return Number(receipt.gasUsed)
    }
    const none = await gas('superseded-gas-0', [])
    const one = await gas('superseded-gas-1', [batchIdOf('superseded-gas-dead-1')])
    const three = await gas(
      'superseded-gas-3',
      ['a', 'b', 'c'].map((x) => batchIdOf(`superseded-gas-dead-3${x}`)),
    )
    console.log(`executeBatch of 10 buyers superseding 0 / 1 / 3 batches: ${none} / ${one} / ${three} gas`)
    expect(one - none).toBeLessThan(40_000)
    expect(three - none).toBeLessThan(3 * 40_000)
  }, 180_000)

  it('refuses a clearing above the committed lowest limit (nothing taken), and anyone but an operator', async () => {
    const group = buyers.slice(0, SMALL)
    const entries = group.map((b) => entry(b.address, 10n ** 6n))
    const fdvNow = (10n ** 6n * supply) / (await quote(10n ** 6n))
    await expect(
      client.simulateContract({
        account: operator,
        address: batch,
        abi: batchAbi,
        functionName: 'executeBatch',
        args: [batchIdOf('too-low'), route(), entries, fdvNow / 2n, true, UNTIL, []],
      }),
    ).rejects.toThrow(/ClearingAboveLimit/)
    await expect(
      client.simulateContract({
        account: quoter,
        address: batch,
        abi: batchAbi,
        functionName: 'executeBatch',
        args: [batchIdOf('stranger'), route(), entries, 0n, true, UNTIL, []],
      }),
    ).rejects.toThrow(/NotOperator/)
  }, 120_000)
})
