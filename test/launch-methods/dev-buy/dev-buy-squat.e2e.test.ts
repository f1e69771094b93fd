import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  isAddressEqual,
  parseEventLogs,
  toFunctionSelector,
  type Address,
  type Hash,
  type Hex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readDevnetLaunchpads } from '../../../devnet/launchpads/devnet-launchpads.ts'
import { jsonRpc } from '../../../devnet/anvil/json-rpc.ts'
import { chainFromConfig } from '../../../src/chain/clients.ts'
import type { DevBuyParams } from '../../../src/domain/records.ts'
import { clankerDevBuyDeployment } from '../../../src/launch-methods/dev-buy/chain/clanker-dev-buy-deployment.ts'
import { DEV_BUY_COORDINATOR_ABI } from '../../../src/launch-methods/dev-buy/chain/dev-buy-coordinator-contract.ts'
import { CLANKER_TOKEN_CREATED } from '../../../src/launchpads/clanker/clanker-abi.ts'
import { CLANKER_DEPLOY_ABI, type ClankerDeploymentConfig } from '../../../src/launchpads/clanker/clanker-deployment-config.ts'
import { devnetClankerDevBuySetup } from '../../../devnet/launchpads/devnet-dev-buy-setup.ts'
import { ConsoleHarness } from '../../console/console-harness.ts'
import { runCli } from '../../daemon/helpers.ts'

/**
 * Issue 19, item 3: dev-buy token squatting, on a running daemon (devnet, real HTTP, real LevelDB, its coordinator,
 * dev-buy worker, indexer and executor). A stranger (an impersonated anvil account standing in for the attacker's own
 * key) deploys the dev-buy token through the devnet Clanker factory before the service does, in two ways:
 * 1. ahead of the launch, from public data alone (the launch id, name, symbol, token admin, image, metadata, context);
 * 2. in the launch's own block, copying the launch transaction's deployment out of the mempool and paying a higher tip,
 *    once the launch recorded the token it expects.
 * Nothing may be bought on the squatter's token, nothing may stay frozen (orders back to active, the parameters
 * editable again), and the reason must be recorded where the owner and the operator see it.
 */
const HIGH_LIMIT = '10000000000' // $10B FDV: far above any launch price
const ATTACKER: Address = '0x00000000000000000000000000000000a77ac4e1'
const LAUNCH_SELECTOR = toFunctionSelector(DEV_BUY_COORDINATOR_ABI.find((item) => item.type === 'function' && item.name === 'launch') as never)

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
type Json = any

interface Buyer {
  apiKey: string
  wallet: Address
  keyId: string
}

describe('dev-buy token squatting (issue 19, item 3)', () => {
  let h: ConsoleHarness
  let viewer: string
  const chain = () => h.daemon.chains.base
  const client = () => createPublicClient({ transport: http(chain().rpcUrl) })
  const attacker = () => createWalletClient({ chain: chainFromConfig(chain()), account: ATTACKER, transport: http(chain().rpcUrl) })
  const balance = (of: Address, token: Address) => client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [of] })
  const waitFor = async <T>(what: () => string, read: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`never saw ${what()}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
  /**
   * The project as the operator reads it (polled: the public API's per-key rate limit is for clients): its dev-buy view
   * and its launch (null until the indexer binds one).
   */
  const project = async (slug: string): Promise<Json> => {
    const [devBuy, detail] = await Promise.all([h.admin.getDevBuy(slug), h.admin.getProject(slug)])
    return { devBuy: devBuy.devBuy, launch: detail.project.launch }
  }
  /** The project as a key sees it on the public API (the owner's view). */
  const publicView = async (slug: string, key: string): Promise<Json> => {
    const answer = await h.call('GET', `/projects/${slug}`, key)
    if (answer.status !== 200) throw new Error(`GET /projects/${slug} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    return answer.body
  }
  const orderOf = async (b: Buyer): Promise<Json> => (await h.call('GET', '/orders', b.apiKey)).body.data[0]
  let projects = 0
  const approve = async (name: string, slug: string) =>
    h.admin.approveRegistration(await h.submitRegistration(name), {
      slug,
      creator: `0x${(0x5a0b0 + ++projects).toString(16).padStart(40, '0')}`,
      launchpad: 'clanker',
      chain: 'base',
      method: 'dev_buy',
    })
  const buyer = async (slug: string, label: string, usdc: string): Promise<Buyer> => {
    const created = await h.call('POST', '/api-keys', undefined, { label })
    await h.admin.devnetFund({ address: created.body.serviceWalletAddress, chain: 'base', usdc })
    const placed = await h.call('POST', '/orders', created.body.apiKey, {
      items: [{ slug, maxSpendUsdc: usdc, maxFdvUsdc: HIGH_LIMIT, expiresInMs: 3_600_000 }],
    })
    expect(placed.body.results[0].ok, JSON.stringify(placed.body)).toBe(true)
    const keyId = (await h.admin.listKeys()).find((k) => k.label === label)!.keyId
    return { apiKey: created.body.apiKey as string, wallet: getAddress(created.body.serviceWalletAddress), keyId }
  }
  /** The attacker's deployment through the Clanker factory; returns the token it created. */
  const squat = async (config: ClankerDeploymentConfig, fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | null): Promise<{ hash: Hash }> => {
    const hash = await attacker().writeContract({
      address: (await clanker()).factory,
      abi: CLANKER_DEPLOY_ABI,
      functionName: 'deployToken',
      // The attacker pays for no dev buy: the token's address follows from its token config alone.
      args: [{ ...config, extensionConfigs: [] }],
      gas: 12_000_000n,
      ...(fees ?? {}),
    } as never)
    return { hash }
  }
  const tokenCreatedBy = async (hash: Hash): Promise<Address> => {
    const receipt = await client().waitForTransactionReceipt({ hash })
    expect(receipt.status, `the squatter's deployment ${hash}`).toBe('success')
    const [created] = parseEventLogs({ abi: [CLANKER_TOKEN_CREATED], logs: receipt.logs })
    expect(getAddress(created!.args.msgSender)).toBe(getAddress(ATTACKER))
    return getAddress(created!.args.tokenAddress)
  }
  const clanker = async () => (await readDevnetLaunchpads(h.dataDir)).base!.clanker
  /** What the operator is told about launches that touched the project without binding it. */
  const candidates = async (slug: string): Promise<Json[]> => ((await h.admin.launchCandidates({ slug })) as Json).candidates
  /** Nothing of the squatter's token anywhere: no order filled with it, no wallet holding it, the project not bound to it. */
  const nothingBoughtOn = async (slug: string, token: Address, buyers: Buyer[]) => {
    expect((await project(slug)).launch, 'bound to the squatter').toBeNull()
    for (const b of buyers) {
      expect(await balance(b.wallet, token), `${b.keyId} holds the squatter's token`).toBe(0n)
      expect((await orderOf(b)).status, `${b.keyId}'s order`).not.toBe('filled')
    }
  }

  beforeAll(async () => {
    h = await ConsoleHarness.start('dev-buy-squat')
    viewer = (await h.call('POST', '/api-keys', undefined, { label: 'viewer' })).body.apiKey
    await jsonRpc(chain().rpcUrl, 'anvil_impersonateAccount', [ATTACKER])
    await jsonRpc(chain().rpcUrl, 'anvil_setBalance', [ATTACKER, '0x56BC75E2D63100000']) // 100 ETH
  })
  afterAll(async () => {
    await h?.remove()
  })

  it('a token deployed ahead from public data: the launch still deploys its own token, nothing buys the squatter’s, it binds nothing', async () => {
    const approved = await approve('Early', 'early')
    const buyers = [await buyer('early', 'early-a', '300'), await buyer('early', 'early-b', '200')]
    const set = await h.call('PATCH', '/projects/early/dev-buy', approved.key.apiKey, { name: 'Early', symbol: 'ERLY', metadata: 'an early token' })
    expect(set.status, JSON.stringify(set.body)).toBe(200)

    // Everything the token's address follows from is public: the project's dev-buy view and the devnet's Clanker modules.
    const shown = (await publicView('early', viewer)).devBuy
    const params: DevBuyParams = {
      name: shown.name,
      symbol: shown.symbol,
      image: shown.image,
      metadata: shown.metadata,
      tokenAdmin: shown.tokenAdmin,
      lock: { lockSeconds: shown.lockSeconds, vestingSeconds: shown.vestingSeconds },
    }
    const setup = devnetClankerDevBuySetup(chain(), await clanker())
    // The launch id is the salt a predictable launch uses; the extension's recipient does not enter the address.
    const predictable = clankerDevBuyDeployment(setup, params, ATTACKER, shown.launchId as Hex)
    const squatted = await tokenCreatedBy((await squat(predictable.config, null)).hash)

    const asked = await h.call('POST', '/projects/early/dev-buy/launch', approved.key.apiKey)
    expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    let last: Json
    const launched = await waitFor(
      () => `early's dev buy launched (last seen: ${JSON.stringify(last)})`,
      async () => {
        last = (await project('early')).devBuy.state
        return last?.status === 'launched' ? last : undefined
      },
    )
    const token = getAddress(launched.tokenAddress)
    expect(token).not.toBe(squatted)
    for (const b of buyers) {
      const order = await orderOf(b)
      expect(order.status).toBe('filled')
      expect(order.execution.txHash).toBe(launched.txHash)
      expect(await balance(b.wallet, token)).toBeGreaterThan(0n)
      expect(await balance(b.wallet, squatted)).toBe(0n)
    }
    // The indexer binds the service's own launch; the squatter's deployment is recorded, rejected, for the operator.
    const bound = await waitFor(
      () => 'early bound to its dev-buy token',
      async () => {
        return (await project('early')).launch ?? undefined
      },
    )
    expect(getAddress(bound.tokenAddress)).toBe(token)
    // The squatter's token named no registered deployer: it touched the project in no way the indexer acts on.
    expect((await candidates('early')).find((c) => isAddressEqual(c.token, squatted))).toBeUndefined()
  })

  it('a launch front-run in its own block with its own deployment: it reverts, nothing buys the squatter’s token, the orders are active again, the reason is shown, the owner changes the parameters and launches', async () => {
    const approved = await approve('Front', 'front')
    const owner = approved.key.apiKey
    const buyers = [await buyer('front', 'front-a', '300'), await buyer('front', 'front-b', '200')]
    expect((await h.call('PATCH', '/projects/front/dev-buy', owner, { name: 'Front', symbol: 'FRNT' })).status).toBe(200)

    // The executor deploys waiting buyers' wallets ahead of launches: once that is done and nothing is pending, no other
    // transaction of the service stands in the launch's way while blocks are stopped.
    await waitFor(
      () => "front's buyers' wallets deployed ahead, nothing pending",
      async () => {
        const codes = await Promise.all(buyers.map((b) => client().getCode({ address: b.wallet })))
        const pool = await jsonRpc<{ pending: Record<string, unknown> }>(chain().rpcUrl, 'txpool_content')
        return codes.every((code) => code !== undefined && code !== '0x') && Object.keys(pool.pending).length === 0 ? true : undefined
      },
    )
    // Blocks stop: the launch transaction waits in the mempool, where the attacker reads it.
    await jsonRpc(chain().rpcUrl, 'evm_setIntervalMining', [0])
    let launchTx: { hash: Hash; input: Hex; maxFeePerGas: Hex; maxPriorityFeePerGas: Hex } | undefined
    let squatterTx: Hash
    try {
      expect((await h.call('POST', '/projects/front/dev-buy/launch', owner)).status).toBe(202)
      let state: Json
      launchTx = await waitFor(
        () => `the launch transaction in the mempool (front's dev buy: ${JSON.stringify(state)})`,
        async () => {
          state = (await project('front')).devBuy.state
          const pool = await jsonRpc<{ pending: Record<string, Record<string, { hash: Hash; input: Hex; maxFeePerGas: Hex; maxPriorityFeePerGas: Hex }>> }>(
            chain().rpcUrl,
            'txpool_content',
          )
          return Object.values(pool.pending)
            .flatMap((byNonce) => Object.values(byNonce))
            .find((tx) => tx.input.startsWith(LAUNCH_SELECTOR))
        },
      )
      // The expected token is recorded before the launch is sent.
      expect((await project('front')).devBuy.state).toMatchObject({ status: 'launching', tokenAddress: expect.stringMatching(/^0x/) })
      const call = decodeFunctionData({ abi: DEV_BUY_COORDINATOR_ABI, data: launchTx.input })
      const config = call.args![4] as ClankerDeploymentConfig
      const tip = BigInt(launchTx.maxPriorityFeePerGas) + 10n ** 9n
      squatterTx = (await squat(config, { maxPriorityFeePerGas: tip, maxFeePerGas: BigInt(launchTx.maxFeePerGas) + 2n * tip })).hash
      await jsonRpc(chain().rpcUrl, 'evm_mine', [])
    } finally {
      await jsonRpc(chain().rpcUrl, 'evm_setIntervalMining', [1])
    }
    const squatted = await tokenCreatedBy(squatterTx)
    const launchReceipt = await client().waitForTransactionReceipt({ hash: launchTx.hash })
    expect(launchReceipt.status).toBe('reverted')
    expect(launchReceipt.blockNumber).toBe((await client().getTransactionReceipt({ hash: squatterTx })).blockNumber)

    // The squatter's deployment binds nothing: the indexer records it as a rejected candidate, for the operator.
    let last: Json
    const seen = await waitFor(
      () => `the squatter's token ${squatted} judged for front (candidates: ${JSON.stringify(last)})`,
      async () => {
        const bound = (await project('front')).launch
        if (bound) return { bound }
        last = await candidates('front')
        const candidate = (last as Json[]).find((c) => isAddressEqual(c.token, squatted))
        return candidate ? { candidate } : undefined
      },
    )
    expect(seen.bound, "front bound to the squatter's token").toBeUndefined()
    expect(seen.candidate).toMatchObject({ status: 'rejected', reason: expect.stringContaining('someone deployed it first') })
    expect((await publicView('front', owner)).launch.status).toBe('pending')

    // Not frozen: the orders are active again and the launch says why, to the owner (API) and the operator (CLI).
    const failed = await waitFor(
      () => `front's dev buy back from its failed launch (last seen: ${JSON.stringify(last)})`,
      async () => {
        last = (await project('front')).devBuy
        return last.state?.status === 'retrying' || last.state?.status === 'not_launched' ? last : undefined
      },
    )
    expect(failed.state.reason).toContain(squatted)
    expect((await publicView('front', owner)).devBuy.state.reason).toBe(failed.state.reason)
    for (const b of buyers) expect((await orderOf(b)).status).toBe('active')
    const shown = await runCli(h.dataDir, ['devbuy', 'show', 'front'], { human: true })
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain(squatted)

    // A trade on the squatter's pool makes a price tick: the executor would buy now if the project were bound to it.
    await h.admin.devnetSwap({ token: squatted, usdc: '5', chain: 'base' })
    await nothingBoughtOn('front', squatted, buyers)
    for (const b of buyers) expect((await orderOf(b)).status).toBe('active')

    // The owner can change the parameters again, and asks to launch with them: the token is the service's own.
    const changed = await h.call('PATCH', '/projects/front/dev-buy', owner, { name: 'Front Two', symbol: 'FRNT2' })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).toMatchObject({ name: 'Front Two', requestedAt: null })
    expect((await h.call('POST', '/projects/front/dev-buy/launch', owner)).status).toBe(202)
    const launched = await waitFor(
      () => `front launched after the squat (last seen: ${JSON.stringify(last)})`,
      async () => {
        last = (await project('front')).devBuy.state
        return last?.status === 'launched' ? last : undefined
      },
    )
    const token = getAddress(launched.tokenAddress)
    expect(token).not.toBe(squatted)
    expect(await client().readContract({ address: token, abi: erc20Abi, functionName: 'symbol' })).toBe('FRNT2')
    for (const b of buyers) {
      expect((await orderOf(b)).status).toBe('filled')
      expect(await balance(b.wallet, squatted)).toBe(0n)
    }
    const bound = await waitFor(
      () => 'front bound to its own dev-buy token',
      async () => {
        return (await project('front')).launch ?? undefined
      },
    )
    expect(getAddress(bound.tokenAddress)).toBe(token)
  })
})
