import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { createChainHeads } from '../../src/chain/chain-heads.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { createWalletService } from '../../src/wallets/create-wallet-service.ts'
import { startFaultProxy, type FaultProxy } from '../faults/rpc-fault-proxy.ts'
import { startWalletFixture, type WalletFixture } from './devnet-fixture.ts'

/**
 * The API's balance reads go to the chain's readRpcUrl, never to the rpcUrl the bundler sends launch buys through,
 * and each wallet is read once per block however many requests ask. Two counting proxies in front of the same node
 * tell the URLs apart.
 */
let f: WalletFixture
let executorNode: FaultProxy
let readNode: FaultProxy
let chains: Record<ChainKey, ChainConfig>

beforeAll(async () => {
  f = await startWalletFixture()
  executorNode = await startFaultProxy({ rate: 0, target: f.chains.base.rpcUrl })
  readNode = await startFaultProxy({ rate: 0, target: f.chains.base.rpcUrl })
  chains = { ...f.chains, base: { ...f.chains.base, rpcUrl: executorNode.url, readRpcUrl: readNode.url } }
}, 120_000)
afterAll(async () => {
  await executorNode?.close()
  await readNode?.close()
  await f?.stop()
})

const NONE = { base: [], second_chain: [] }
const ethCalls = (proxy: FaultProxy) => proxy.methods().eth_call ?? 0

describe('the API read client', () => {
  it('reads balances through readRpcUrl; the executor URL sees none of it', async () => {
    const service = createWalletService({ chains, keys: f.keys, accountKind: 'simple' })
    const before = executorNode.counts().requests
    const balances = await service.getBalances(40, NONE)
    const funding = await service.stablecoinBalances('base', [40, 41])
    expect(balances.base.map((entry) => entry.symbol)).toContain('USDC')
    expect(funding.get(40)).toBe(0n)
    expect(ethCalls(readNode)).toBeGreaterThan(0)
    expect(executorNode.counts().requests).toBe(before)
  })

  it('reads a wallet once per block, however many requests ask; a new block reads it again and shows what changed', async () => {
    // Heads read on every request (no indexer here): the cache is keyed by block, not by time.
    const heads = createChainHeads({ read: (key) => (key === 'base' ? readHead() : Promise.resolve(0n)), maxAgeMs: 0 })
    const service = createWalletService({ chains, keys: f.keys, accountKind: 'simple', heads })
    const wallet = await service.walletAddress(42)
    await service.getBalances(42, NONE) // the first read also fetches token metadata
    const start = ethCalls(readNode)
    await Promise.all(Array.from({ length: 10 }, () => service.getBalances(42, NONE)))
    for (let i = 0; i < 5; i++) await service.getBalances(42, NONE)
    for (let i = 0; i < 5; i++) await service.stablecoinBalances('base', [42])
    // The balance view is cached already; the funding read is one more multicall (its own cache), once.
    expect(ethCalls(readNode) - start).toBe(1)

    await fundAccount(f.chains.base, wallet, { stablecoin: '7' })
    const after = ethCalls(readNode)
    const usdc = (await service.getBalances(42, NONE)).base.find((entry) => entry.symbol === 'USDC')
    expect(usdc?.balance).toBe('7000000')
    expect((await service.stablecoinBalances('base', [42])).get(42)).toBe(7_000_000n)
    await service.getBalances(42, NONE)
    expect(ethCalls(readNode) - after).toBe(2)
  })
})

async function readHead(): Promise<bigint> {
  return BigInt(await jsonRpc<string>(f.chains.base.rpcUrl, 'eth_blockNumber', []))
}
