import { bytesToHex, decodeEventLog, encodeFunctionData, erc20Abi, getAddress, multicall3Abi, type Address, type Hex } from 'viem'
import { entryPoint07Abi, type PackedUserOperation } from 'viem/account-abstraction'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { plainDopplerCreateParams } from '../../devnet/launchpads/launch-token.ts'
import { loadLaunchpadArtifact } from '../../devnet/launchpads/devnet-artifacts.ts'
import { confirmDevnetTx, impersonate, submitDevnetCall } from '../../devnet/launchpads/send-devnet-tx.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const AIRLOCK_ABI = loadLaunchpadArtifact('DevnetDopplerAirlock').abi

/**
 * Issue 19 item 2, ERC-4337 deployer forgery: Doppler's Create names no sender, so a launch sent by a smart account is
 * attributed through its operation's UserOperationEvent. An attacker batches Airlock.create of their own token next to
 * EntryPoint.handleOps of any valid operation of the project's registered smart account, in one Multicall3 transaction.
 * That launch was not emitted by the operation's execution, so it must bind nothing and buy nothing; the operator sees
 * it rejected with the reason. The smart account's own operation calling Airlock.create still binds and buys.
 */
describe('ERC-4337 deployer forgery on Doppler (real devnet, Multicall3, EntryPoint v0.7, wallets, store)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  const createCall = (name: string, creator: Address): Hex =>
    encodeFunctionData({
      abi: AIRLOCK_ABI,
      functionName: 'create',
      args: [
        plainDopplerCreateParams({
          name,
          symbol: name.slice(0, 5).toUpperCase(),
          creator,
          numeraire: h.chain.addresses.weth,
          salt: bytesToHex(randomBytes(32)),
        }),
      ],
    })

  const createdAsset = (logs: readonly { address: Address; topics: readonly Hex[]; data: Hex }[]): Address => {
    for (const log of logs) {
      if (getAddress(log.address) !== getAddress(h.launchpads.doppler.airlock)) continue
      const decoded = decodeEventLog({ abi: AIRLOCK_ABI, topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: false })
      if (decoded.eventName === 'Create') return getAddress((decoded.args as unknown as { asset: Address }).asset)
    }
    throw new Error('no Create log')
  }

  it('Multicall3 aggregate3([Airlock.create(fake), handleOps([a valid operation of the smart account])]) is rejected with its reason; nothing is bought', async () => {
    // The project's registered deployer is a smart account (one of the service's own wallets stands in for it).
    const owner = await h.services.keys.issueKey('project-owner')
    const smartAccount = await h.wallets.walletAddress(owner.record.userIndex)
    // The symbol of its genuine launch below ('genuine launch'), its second fact; the forgery takes it too.
    const { slug } = await h.newProject('aa-forged', 'doppler', smartAccount, { expectedSymbol: 'GENUI' })
    const buyer = await h.newBuyer('aa-forged-buyer', '100')
    await h.order(buyer, slug, '40', null)

    // Any valid operation of the smart account will do (one it sent to a public mempool, say): here one signed by its
    // owner key through the daemon's own wallet code, captured before anything is sent (the call it is built into
    // reverts in simulation, so nothing goes out and its nonce stays unused).
    let captured: PackedUserOperation[] = []
    const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [smartAccount] })
    const signed = await h.wallets.runOperationsInCall!('base', {
      requests: [
        { userIndex: owner.record.userIndex, calls: [{ to: h.chain.addresses.stablecoin, data: balanceOf }], id: 'any-operation', callGasLimit: 200_000n },
      ],
      build(operations) {
        captured = operations
        return { to: h.chain.addresses.stablecoin, data: '0xdeadbeef' }
      },
      gas: 100_000n,
    })
    expect(signed.status).toBe('refused')
    expect(captured).toHaveLength(1)
    expect(getAddress(captured[0]!.sender)).toBe(smartAccount)

    // The attacker (impersonated): one transaction through Multicall3, the fake launch first, then the operation.
    const attacker = privateKeyToAccount(generatePrivateKey()).address
    await impersonate(h.chain, attacker)
    const handleOps = encodeFunctionData({ abi: entryPoint07Abi, functionName: 'handleOps', args: [captured, attacker] })
    const hash = await submitDevnetCall(h.chain, attacker, {
      address: h.chain.addresses.multicall3,
      abi: multicall3Abi,
      functionName: 'aggregate3',
      args: [
        [
          { target: h.launchpads.doppler.airlock, allowFailure: false, callData: createCall('genuine launch', attacker) },
          { target: h.chain.addresses.entryPoint, allowFailure: false, callData: handleOps },
        ],
      ],
    })
    const receipt = await confirmDevnetTx(h.chain, hash)
    const fake = createdAsset(receipt.logs)
    // The operation really ran in the same transaction, after the launch: the shape the old rule attributed to it.
    const operationEvent = receipt.logs.find(
      (log) =>
        getAddress(log.address) === getAddress(h.chain.addresses.entryPoint) && log.topics[2]?.toLowerCase().endsWith(smartAccount.slice(2).toLowerCase()),
    )
    expect(operationEvent).toBeDefined()

    // Blocks keep coming until the indexer has judged the launch a few blocks back; had it bound the launch (as the old
    // rule did), the order's buy would land meanwhile: wait for that too, so the assertions below see its outcome.
    h.startMining()
    await h.indexer.caughtUp('base', receipt.blockNumber + 4n)
    await h.waitFor('no launch bound, or its buy landed', async () => {
      if ((await h.journal.getLaunchBySlug(slug)) === undefined) return true
      return (await h.getOrder(buyer, slug))?.status === 'filled'
    })
    await h.stopMining()

    const { candidates } = await h.services.launches.candidates({ slug })
    const candidate = candidates.find((c) => c.token === fake)
    expect(candidate).toMatchObject({ status: 'rejected', deployer: attacker })
    expect(candidate?.reason).toMatch(/operation of the registered deployer/)
    expect(candidate?.reason).toMatch(/not emitted by/)
    expect((await h.services.projects.getProject(slug))?.launch).toBeNull()
    expect(await h.journal.getLaunchBySlug(slug)).toBeUndefined()
    expect((await h.getOrder(buyer, slug))?.status).toBe('active')
    expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
    expect(await h.tokenBalance(fake, buyer.wallet)).toBe(0n)

    // The smart account's own operation calling Airlock.create is its launch: it binds and the order buys it.
    h.startMining()
    const [launched] = await h.wallets.submitUserOperations('base', [
      {
        userIndex: owner.record.userIndex,
        calls: [{ to: h.launchpads.doppler.airlock, data: createCall('genuine launch', smartAccount) }],
        id: 'launch',
        callGasLimit: 8_000_000n,
      },
    ])
    expect(launched?.status).toBe('included')
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    const record = (await h.journal.getLaunchBySlug(slug))!
    expect(record.token).not.toBe(fake)
    expect(await h.usdcOf(buyer.wallet)).toBe(60n * USDC)
    expect(await h.tokenBalance(record.token, buyer.wallet)).toBeGreaterThan(0n)
  })

  it('a launch sent by an EIP-7702-delegated account (a sponsor acting for others) awaits confirmation; nothing is bought', async () => {
    // The registered deployer is an EOA delegated (EIP-7702) to a contract: its delegate code may act for anyone.
    const delegated = privateKeyToAccount(generatePrivateKey()).address
    await jsonRpc(h.chain.rpcUrl, 'anvil_setCode', [delegated, `0xef0100${h.chain.addresses.multicall3.slice(2).toLowerCase()}`])
    const { slug } = await h.newProject('aa-7702', 'doppler', delegated)
    const buyer = await h.newBuyer('aa-7702-buyer', '100')
    await h.order(buyer, slug, '40', null)
    h.startMining()
    const launched = await h.launch(slug, 'doppler', delegated, { sender: delegated })
    await h.indexer.caughtUp('base', launched.blockNumber + 4n)
    await h.waitFor('no launch bound, or its buy landed', async () => {
      if ((await h.journal.getLaunchBySlug(slug)) === undefined) return true
      return (await h.getOrder(buyer, slug))?.status === 'filled'
    })
    await h.stopMining()
    const { candidates } = await h.services.launches.candidates({ slug })
    const candidate = candidates.find((c) => c.token === launched.token)
    expect(candidate).toMatchObject({ status: 'awaiting_confirmation', deployer: delegated })
    expect(candidate?.reason).toMatch(/EIP-7702-delegated/)
    expect((await h.services.projects.getProject(slug))?.launch).toBeNull()
    expect(await h.usdcOf(buyer.wallet)).toBe(100n * USDC)
  })
})
