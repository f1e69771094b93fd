import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { encodeFunctionData, erc20Abi, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CODE_SIZE_READER_ADDRESS } from '../../src/wallets/bundler/code-sizes.ts'
import { GAS_METER_ADDRESS } from '../../src/wallets/bundler/gas-meter.ts'
import { DEFAULT_CHUNK_SIZES } from '../../src/wallets/prepare/plan-chunks.ts'
import { startWalletFixture, txHashOf, type WalletFixture } from './devnet-fixture.ts'

let f: WalletFixture
beforeAll(async () => {
  f = await startWalletFixture()
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const DEST: Address = '0x000000000000000000000000000000000000dEaD'

describe('a large batch', () => {
  it('reads every deployment status and nonce in one call each, simulates once per chunk (or per group of it that fits one transaction), and sends the first chunk before the last is signed, in priority order', async () => {
    const { calls, service } = f.recordingService()
    const stablecoin = f.chains.base.addresses.stablecoin
    const count = 150
    // New wallets, plus one wallet already deployed by an earlier operation.
    const [warm] = await service.submitUserOperations('base', [
      { userIndex: 5000, id: 'warm', calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 1n] }) }] },
    ])
    expect(warm?.status).toBe('included')
    calls.length = 0
    const mark = f.logLines.length
    const requests = Array.from({ length: count }, (_, i) => ({
      userIndex: 5000 + i,
      id: `big-${i}`,
      calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, BigInt(i + 1)] }) }],
    }))
    const results = await service.submitUserOperations('base', requests)
    expect(results.map((r) => r.id)).toEqual(requests.map((r) => r.id))
    expect(results.every((r) => r.status === 'included')).toBe(true)

    const expectedChunks = 3 // 4 + 60 + 64 of the 150, then the last 22
    expect(DEFAULT_CHUNK_SIZES.slice(0, 3)).toEqual([4, 60, 64])
    const ethCalls = calls.filter((c) => c.method === 'eth_call')
    expect(calls.filter((c) => c.method === 'eth_getCode')).toHaveLength(0)
    expect(ethCalls.filter((c) => c.to === CODE_SIZE_READER_ADDRESS.toLowerCase())).toHaveLength(1)
    expect(ethCalls.filter((c) => c.to === f.chains.base.addresses.multicall3.toLowerCase())).toHaveLength(1)
    // One simulation per chunk, or per group of a chunk too big for one transaction of 2^24 gas (EIP-7825): these new
    // wallets' operations carry their deployment (~350k gas each), so a chunk of 60 needs two transactions.
    const meterCalls = ethCalls.filter((c) => c.to === GAS_METER_ADDRESS.toLowerCase())
    expect(meterCalls.length).toBeGreaterThanOrEqual(expectedChunks + 1)
    expect(ethCalls).toHaveLength(meterCalls.length + 2)

    // Pipelined: the first handleOps left before the batch was fully signed.
    const lines = f.logLines.slice(mark).map((line) => JSON.parse(line) as Record<string, unknown>)
    const prepared = lines.find((line) => line.msg === 'user operations prepared')
    expect(prepared).toMatchObject({ operations: count, chunks: expectedChunks + 1 })
    const sends = calls.filter((c) => c.method === 'eth_sendRawTransaction')
    expect(sends.length).toBeGreaterThanOrEqual(expectedChunks + 1)
    expect(Number(prepared?.firstChunkMs)).toBeLessThan(Number(prepared?.signedMs))
    // The last chunk is simulated only once it is signed; the first handleOps was sent before that.
    const simulations = ethCalls.filter((c) => c.to === GAS_METER_ADDRESS.toLowerCase())
    expect(sends[0]!.at).toBeLessThan(simulations[simulations.length - 1]!.at)

    // Priority order across chunks: (block, index) of the operations never goes backwards.
    const positions = await Promise.all(
      results.map(async (r) => {
        const receipt = await f.clients.base.getTransactionReceipt({ hash: txHashOf(r) })
        return Number(receipt.blockNumber) * 1000 + receipt.transactionIndex
      }),
    )
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(new Set(positions).size).toBe(sends.length)
    // Every handleOps within the per-transaction cap the devnet enforces.
    for (const hash of new Set(results.map(txHashOf))) expect((await f.clients.base.getTransaction({ hash })).gas).toBeLessThanOrEqual(EIP_7825_TX_GAS_CAP)
  }, 60_000)
})
