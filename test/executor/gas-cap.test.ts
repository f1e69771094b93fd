import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWalletClient, getAbiItem, http, parseAbi, parseUnits, toFunctionSelector, type Hash } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { silentLogger } from '../../src/common/logger.ts'
import { createBundler } from '../../src/wallets/bundler/create-bundler.ts'
import { readCodeSizes } from '../../src/wallets/bundler/code-sizes.ts'
import { type Buyer, startFlowHarness, type FlowHarness } from './flow-harness.ts'

const CAP = EIP_7825_TX_GAS_CAP
const HANDLE_OPS = toFunctionSelector(getAbiItem({ abi: entryPoint07Abi, name: 'handleOps' }))
/** More buyers than one handleOps of 2^24 holds: before the cap, 100 buyers made one of 23.9M gas, 150 two over it. */
const BUYERS = 150

describe('every transaction within EIP-7825’s 2^24 gas cap (real devnet enforcing it, real wallets and executor)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('the devnet refuses a transaction above 2^24 gas and mines one of exactly 2^24', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    await fundAccount(h.chain, account.address, { eth: '10' })
    const wallet = createWalletClient({ chain: chainFromConfig(h.chain), account, transport: http(h.chain.rpcUrl) })
    await expect(wallet.sendTransaction({ to: account.address, gas: CAP + 1n })).rejects.toThrow(/tx_gas_limit_cap/)
    const hash = await wallet.sendTransaction({ to: account.address, gas: CAP })
    await h.mine()
    expect((await h.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
  })

  it('the bundler refuses to send over the cap (nothing signed), and names a node’s cap refusal as transaction_over_gas_cap', async () => {
    const signer = privateKeyToAccount(generatePrivateKey())
    await fundAccount(h.chain, signer.address, { eth: '10' })
    const call = { to: signer.address, data: '0x' as const, gas: CAP + 1n }
    const ours = createBundler({ chain: h.chain, client: h.client, signer, logger: silentLogger })
    await expect(ours.sendCall!(call)).rejects.toMatchObject({ code: 'transaction_over_gas_cap' })
    // A chain configured with a higher cap than its node enforces: the node's refusal is recognised, typed the same.
    const trusting = createBundler({ chain: { ...h.chain, txGasCap: CAP * 2n }, client: h.client, signer, logger: silentLogger })
    const refused = await trusting.sendCall!(call).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PrebuyError)
    expect(refused).toMatchObject({ code: 'transaction_over_gas_cap' })
    expect(await h.client.getTransactionCount({ address: signer.address, blockTag: 'pending' })).toBe(0)
  })

  it(`a launch with ${BUYERS} buyers: deployments ahead and handleOps all within 2^24, every order filled`, async () => {
    const bundler = h.wallets.bundlerAddress('base').toLowerCase()
    const firstBlock = (await h.client.getBlockNumber({ cacheTime: 0 })) + 1n
    const { slug, creator } = await h.newProject('gas-cap', 'doppler')
    // Buyers funded with one mint each, sent together and mined in one block.
    const buyers: Buyer[] = []
    for (let i = 0; i < BUYERS; i++) {
      const issued = await h.services.keys.issueKey(`gas-cap-${i}`)
      buyers.push({ keyId: issued.record.id, userIndex: issued.record.userIndex, wallet: await h.wallets.walletAddress(issued.record.userIndex) })
    }
    const minter = createWalletClient({ chain: chainFromConfig(h.chain), account: h.devnet.deployer.account, transport: http(h.chain.rpcUrl) })
    let nonce = await h.client.getTransactionCount({ address: h.devnet.deployer.account.address, blockTag: 'pending' })
    const mints: Hash[] = []
    for (const buyer of buyers) {
      mints.push(
        await minter.writeContract({
          address: h.chain.addresses.stablecoin,
          abi: parseAbi(['function mint(address to, uint256 amount)']),
          functionName: 'mint',
          args: [buyer.wallet, parseUnits('100', 6)],
          nonce: nonce++,
          gas: 100_000n,
        }),
      )
    }
    await h.mine()
    for (const hash of mints) await h.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    for (const buyer of buyers) await h.order(buyer, slug, '50', null)

    // The waiting wallets are deployed ahead: 150 in one readying, which 50-wallet slices once sent at 20.1M gas each.
    await h.waitFor(
      'every wallet deployed ahead',
      async () => {
        await h.mine()
        await h.indexer.caughtUp('base', await h.client.getBlockNumber({ cacheTime: 0 }))
        await h.executor.idle()
        return (
          await readCodeSizes(
            h.client,
            buyers.map((b) => b.wallet),
          )
        ).every((size) => size > 0)
      },
      120_000,
    )

    h.startMining()
    const launched = await h.launch(slug, 'doppler', creator)
    const filled = await h.waitFor(
      'every order filled',
      async () => {
        const orders = await Promise.all(buyers.map((b) => h.getOrder(b, slug)))
        return orders.every((o) => o?.status === 'filled') && orders
      },
      180_000,
    )
    await h.stopMining()

    // Every transaction the bundler sent since the test began: within the cap, and none reverted.
    const last = await h.client.getBlockNumber({ cacheTime: 0 })
    const sent: { gas: bigint; handleOps: boolean; hash: Hash; block: bigint }[] = []
    for (let number = firstBlock; number <= last; number++) {
      const block = await h.client.getBlock({ blockNumber: number, includeTransactions: true })
      for (const tx of block.transactions) {
        if (tx.from.toLowerCase() === bundler) sent.push({ gas: tx.gas, handleOps: tx.input.startsWith(HANDLE_OPS), hash: tx.hash, block: number })
      }
    }
    const deployments = sent.filter((tx) => !tx.handleOps)
    const handleOps = sent.filter((tx) => tx.handleOps && tx.block > launched.blockNumber)
    expect(deployments.length).toBeGreaterThanOrEqual(Math.ceil(BUYERS / 41))
    expect(handleOps.length).toBeGreaterThan(1)
    for (const tx of sent) {
      expect(tx.gas).toBeLessThanOrEqual(CAP)
      expect((await h.client.getTransactionReceipt({ hash: tx.hash })).status).toBe('success')
    }
    // Every order filled by one of those handleOps (in which blocks depends on the miner's pace here: the benchmark,
    // with 2 s blocks, reports it), each of them carrying fewer operations than before the cap (100 in one of 23.9M).
    const fillTxs = new Set(filled.map((o) => o!.execution!.txHash))
    expect([...fillTxs].every((hash) => handleOps.some((tx) => tx.hash === hash))).toBe(true)
    const perTransaction = [...fillTxs].map((hash) => filled.filter((o) => o!.execution!.txHash === hash).length)
    expect(perTransaction.reduce((a, b) => a + b, 0)).toBe(BUYERS)
    expect(Math.max(...perTransaction)).toBeLessThan(100)
  })
})
