import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { erc20Abi, encodeFunctionData, parseEther, zeroAddress, type Hash } from 'viem'
import { formatUserOperation, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { silentLogger } from '../../src/common/logger.ts'
import type { BundleItem, BundleOutcome } from '../../src/wallets/bundler/bundler.ts'
import { createBundler } from '../../src/wallets/bundler/create-bundler.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import { failureReason } from '../../src/wallets/failure-reason.ts'
import { startWalletFixture, type WalletFixture } from './devnet-fixture.ts'

/**
 * A stand-in for a third-party ERC-4337 bundler: a real JSON-RPC server speaking eth_sendUserOperation,
 * eth_estimateUserOperationGas and eth_getUserOperationReceipt, which bundles what it receives into handleOps on the
 * real devnet EntryPoint (through our own bundler code, with its own EOA). Like real bundlers, it refuses zero-fee ops.
 */
function startFakeBundler(f: WalletFixture): Promise<{ url: string; received: UserOperation<'0.7'>[]; refuseSender: Set<string>; server: Server }> {
  const chain = f.chains.base
  const inner = createBundler({ chain, client: f.clients.base, signer: f.devnet.accounts[5]!.account, logger: silentLogger, pollingIntervalMs: 50 })
  const received: UserOperation<'0.7'>[] = []
  const refuseSender = new Set<string>()
  const outcomes = new Map<Hash, BundleOutcome>()
  let queue: BundleItem[] = []
  const flush = () => {
    const items = queue
    queue = []
    if (items.length > 0)
      void inner.submit(items).then((results) => {
        for (const r of results) outcomes.set(r.userOpHash, r)
      })
  }
  const handle = async (method: string, params: unknown[]): Promise<unknown> => {
    switch (method) {
      case 'eth_supportedEntryPoints':
        return [chain.addresses.entryPoint]
      case 'eth_estimateUserOperationGas':
        return { callGasLimit: '0x30d40', verificationGasLimit: '0x7a120', preVerificationGas: '0xea60' }
      case 'eth_sendUserOperation': {
        const userOperation = formatUserOperation(params[0] as never) as UserOperation<'0.7'>
        if (userOperation.maxFeePerGas === 0n) throw new Error('maxFeePerGas must be at least the base fee')
        if (refuseSender.has(userOperation.sender.toLowerCase())) throw new Error('sender is banned')
        received.push(userOperation)
        const userOpHash = getUserOperationHash({
          userOperation,
          entryPointAddress: chain.addresses.entryPoint,
          entryPointVersion: '0.7',
          chainId: chain.chainId,
        })
        queue.push({ id: userOpHash, userOperation, userOpHash })
        setTimeout(flush, 20)
        return userOpHash
      }
      case 'eth_getUserOperationReceipt': {
        const outcome = outcomes.get(params[0] as Hash)
        if (!outcome || !('txHash' in outcome)) return null
        const receipt = await jsonRpc(chain.rpcUrl, 'eth_getTransactionReceipt', [outcome.txHash])
        return {
          userOpHash: outcome.userOpHash,
          entryPoint: chain.addresses.entryPoint,
          sender: zeroAddress,
          nonce: '0x0',
          paymaster: zeroAddress,
          actualGasCost: '0x0',
          actualGasUsed: '0x0',
          success: outcome.status === 'included',
          ...(outcome.status === 'included' ? {} : { reason: failureReason(outcome) }),
          logs: [],
          receipt,
        }
      }
      default:
        throw new Error(`method ${method} not supported`)
    }
  }
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const request = JSON.parse(body) as { id: number; method: string; params: unknown[] }
      handle(request.method, request.params).then(
        (result) => res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result })),
        (error: Error) => res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32602, message: error.message } })),
      )
    })
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, refuseSender, server }))
  })
}

let f: WalletFixture
let fake: Awaited<ReturnType<typeof startFakeBundler>>
let service: PrebuyWalletService
beforeAll(async () => {
  f = await startWalletFixture()
  await fundAccount(f.chains.base, f.devnet.accounts[5]!.address, { eth: '100' })
  fake = await startFakeBundler(f)
  service = f.newService({ externalBundlerUrls: { base: fake.url }, bundler: { pollingIntervalMs: 50, receiptTimeoutMs: 20_000 } })
}, 120_000)
afterAll(async () => {
  await new Promise((resolve) => fake?.server.close(resolve))
  await f?.stop()
})

describe('external bundler mode', () => {
  it('withdraws through a third-party bundler with market fees paid from the wallet', async () => {
    const wallet = await service.walletAddress(80)
    const stablecoin = f.chains.base.addresses.stablecoin
    await fundAccount(f.chains.base, wallet, { stablecoin: '10', eth: '0.1' })
    const result = await service.withdraw({ userIndex: 80, chain: 'base', tokenAddress: stablecoin, to: f.trader.address, amount: '2.5' })
    expect(result.amount).toBe('2500000')
    expect((await f.clients.base.getTransactionReceipt({ hash: result.txHash })).status).toBe('success')
    expect(await f.clients.base.readContract({ address: stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })).toBe(7_500_000n)
    const sent = fake.received.at(-1)!
    expect(sent.sender).toBe(wallet)
    expect(sent.maxFeePerGas).toBeGreaterThan(0n)
    expect(sent.callGasLimit).toBe(200_000n)
    expect(sent.factory).toBe(f.chains.base.addresses.accountFactory)
    // Not sponsored in this mode: the wallet paid its gas.
    expect(await f.clients.base.getBalance({ address: wallet })).toBeLessThan(parseEther('0.1'))
  })

  it('reports an operation the bundler refuses as failed, and the others as mined', async () => {
    const stablecoin = f.chains.base.addresses.stablecoin
    for (const index of [81, 82]) await fundAccount(f.chains.base, await service.walletAddress(index), { eth: '0.1' })
    fake.refuseSender.add((await service.walletAddress(81)).toLowerCase())
    const approve = { to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [f.trader.address, 1n] }) }
    const results = await service.submitUserOperations('base', [
      { userIndex: 81, id: 'refused', calls: [approve] },
      { userIndex: 82, id: 'ok', calls: [approve] },
    ])
    expect(results[0]).toMatchObject({ id: 'refused', status: 'refused', reason: expect.stringContaining('sender is banned') })
    expect(results[1]).toMatchObject({ id: 'ok', status: 'included' })
  })
})
