import {
  BaseError,
  decodeFunctionResult,
  ExecutionRevertedError,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  isAddressEqual,
  parseEventLogs,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
} from 'viem'
import type { ChainConfig } from '../../../chain/chain-keys.ts'
import type { DevBuyCandidate, DevBuyPlan } from '../domain/dev-buy-eligibility.ts'
import { quoteDevBuy } from '../domain/dev-buy-eligibility.ts'
import { clankerLaunchPool } from '../../../launchpads/clanker/clanker-launch-pool.ts'
import { clankerProtocolFeeOf, clankerTotalFeeFraction } from '../../../pricing/fee-fraction.ts'
import { readEthUsd } from '../../../chain/read-eth-usd.ts'
import { revertDataOf } from '../../../chain/revert-data.ts'
import { decodeRevertReason, revertWithoutReason } from '../../../wallets/bundler/decode-revert-reason.ts'
import { overGasCapReason } from '../../../wallets/over-gas-cap-reason.ts'
import type { DecodedRevert, WalletService } from '../../../wallets/wallet-service.ts'
import { DEV_BUY_COORDINATOR_ABI, launchedToken, quoteStableToEth } from './dev-buy-coordinator-contract.ts'
import type { DevBuyDeployment } from './dev-buy-deployment.ts'
import { planWithQuotes } from './plan-with-quotes.ts'
import type { PooledBuyer } from '../../pooled-buyers.ts'
import type { LockTerms } from '../../vesting/domain/lock-terms.ts'
import type { OrderVesting } from '../../../domain/records.ts'
import { positionsCreated } from '../../vesting/chain/positions-created.ts'
import { getLogsInChunks } from '../../../chain/get-logs-in-chunks.ts'

/** An order taking part in a dev buy: its identity, its wallet (by user index) and its limits. */
export type DevBuyBuyer = PooledBuyer

export interface LaunchDevBuyInput {
  chain: ChainConfig
  /** The PrebuyDevBuyCoordinator deployed with this service's bundler EOA as its operator. */
  coordinator: Address
  launchId: Hex
  buyers: readonly DevBuyBuyer[]
  deployment: DevBuyDeployment
  /** Lock and vesting of the shares (the project's terms); locked shares go into positions on `vesting`. */
  lock: LockTerms
  /** The coordinator's vesting contract (where locked launches create positions); null: none known. */
  vesting: Address | null
  /** How far below the quote the stablecoin's swap to ETH may land (basis points); the tokens' minimum follows. */
  ethSlippageBps?: bigint
  /** Where to look for the launch's log when it already happened (default 0). */
  fromBlock?: bigint
  /** A launch transaction an earlier attempt sent: looked up first when the launch id has launched. */
  launchTx?: Hash
  /**
   * The token an earlier round of this attempt predicted (the same salt): if it has code while the launch id has not
   * launched, someone else deployed it (`squatted`), checked before anything else.
   */
  expectedToken?: Address
  /** Called with the token the launch will deploy (the simulation's answer), before anything is sent; throw to stop. */
  beforeSend?(token: Address): Promise<void>
  /** Called with the launch transaction's hash once sent, before its receipt is awaited. */
  onSent?(txHash: Hash): Promise<void>
}

/** What the chain did for one wallet, read back from the coordinator's BuyerAllocated logs. */
export interface DevBuyFill {
  wallet: Address
  spend: bigint
  /** Tokens credited after the platform fee. */
  tokens: bigint
  /** A locked launch: the position holding those tokens in the wallet's name. */
  vesting?: OrderVesting
}

export interface DevBuyLaunched {
  token: Address
  txHash: Hash
  blockNumber: bigint
  stableIn: bigint
  ethIn: bigint
  bought: bigint
  fee: bigint
  fills: DevBuyFill[]
}

export type LaunchDevBuyOutcome =
  /** Launched now, by this call. */
  | { status: 'launched'; plan: DevBuyPlan; result: DevBuyLaunched }
  /** Launched before (an earlier call, perhaps one a crash interrupted): nothing sent; the result when found. */
  | { status: 'already_launched'; token: Address; result: DevBuyLaunched | null }
  /** No order can take part (limits below the launch price, empty wallets): nothing sent. */
  | { status: 'nothing_to_buy'; plan: DevBuyPlan }
  /**
   * The launch would revert (simulated; nothing sent; plan null: the token's deployment itself would revert), or
   * reverted on chain (nothing moved either way).
   */
  | { status: 'refused'; plan: DevBuyPlan | null; revert: DecodedRevert }
  | { status: 'reverted'; plan: DevBuyPlan; txHash: Hash }
  /**
   * The token's address already has code, deployed by someone else: found before sending (nothing sent), or as the
   * reason a sent launch reverted (`txHash`: someone deployed it first in the same block). Nothing moved; the salt
   * is burnt (the next attempt draws another).
   */
  | { status: 'squatted'; token: Address; txHash?: Hash }
  /** Sent with no receipt yet: launch again later, which reconciles from the chain (`already_launched`). */
  | { status: 'not_mined'; plan: DevBuyPlan; txHash: Hash; pending: boolean }
  | { status: 'not_sent'; plan: DevBuyPlan; reason: string }
  /** Too many buyers for one transaction (EIP-7825's per-transaction gas cap): nothing sent; `reason` says how many. */
  | { status: 'over_gas_cap'; plan: DevBuyPlan; reason: string }

/** Call gas of one buyer's operation: approve and contribute (a transferFrom), with room for a proxy stablecoin. */
const CONTRIBUTION_CALL_GAS = 200_000n
/** Gas of the launch's own work: the swap, the deployment with its dev buy, the transfers (plus each operation's limits). */
const launchGas = (operations: number): bigint => 9_000_000n + BigInt(operations) * 120_000n
const DEFAULT_ETH_SLIPPAGE_BPS = 50n

/**
 * Launches a project's token with one dev buy for its orders, idempotently: reads whether the launch id launched (then
 * reports it, from its logs), reads every buyer's stablecoin balance now, predicts the token (the factory deploys it by
 * CREATE2), plans the buy on the pool the deployment will create (`planDevBuy`, the stablecoin's swap to ETH quoted on
 * chain), and sends one `launch` in which every contributing wallet's operation runs, the token is deployed and the
 * dev buy split pro rata: everything or nothing. Running it twice never launches twice: the coordinator keeps the id.
 */
export async function launchDevBuy(deps: { wallets: WalletService; client: PublicClient }, input: LaunchDevBuyInput): Promise<LaunchDevBuyOutcome> {
  const { wallets, client } = deps
  const done = await launchedToken(client, input.coordinator, input.launchId)
  if (done) return { status: 'already_launched', token: done, result: await findLaunch(client, input, done) }
  if (!wallets.runOperationsInCall) throw new Error('the wallet service cannot run operations inside a call')
  // The predicted address checked for code before anything is sent: someone else's token there would make the launch
  // revert, and must never be taken for this launch's.
  // Code found: read the launch id again, since this launch's own earlier transaction may have landed in between.
  const takenBy = async (token: Address, txHash?: Hash): Promise<LaunchDevBuyOutcome | null> => {
    if (!(await hasCode(client, token))) return null
    const landed = await launchedToken(client, input.coordinator, input.launchId)
    if (landed) return { status: 'already_launched', token: landed, result: await findLaunch(client, input, landed) }
    return { status: 'squatted', token, ...(txHash ? { txHash } : {}) }
  }
  const earlier = input.expectedToken ? await takenBy(input.expectedToken) : null
  if (earlier) return earlier
  const predicted = await predictToken(client, input)
  if ('revert' in predicted) return { status: 'refused', plan: null, revert: predicted.revert }
  const taken = await takenBy(predicted.token)
  if (taken) return taken

  const { chain, deployment } = input
  const { plan, token, minEth, minTokens } = await planDevBuyLaunch(deps, { ...input, token: predicted.token })
  if (!plan.quote || !plan.allocation || plan.included.length === 0) return { status: 'nothing_to_buy', plan }

  const byId = new Map(input.buyers.map((b) => [b.id, b]))
  const requests = plan.included.map((c) => ({
    id: c.id,
    userIndex: byId.get(c.id)!.userIndex,
    callGasLimit: CONTRIBUTION_CALL_GAS,
    calls: [
      { to: chain.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [input.coordinator, c.spend] }) },
      { to: input.coordinator, data: encodeFunctionData({ abi: DEV_BUY_COORDINATOR_ABI, functionName: 'contribute', args: [input.launchId, c.spend] }) },
    ],
  }))
  const walletsOf = await Promise.all(requests.map((r) => wallets.walletAddress(r.userIndex)))
  // In the plan's order: the contract gives the dust to the first of the largest contributions, as allocateDevBuy does.
  const contributions = plan.included.map((c, i) => ({ wallet: walletsOf[i]!, amount: c.spend }))
  const limits = {
    minEth,
    minTokens,
    devBuyIndex: BigInt(deployment.devBuyIndex),
    lockSeconds: BigInt(input.lock.lockSeconds),
    vestingSeconds: BigInt(input.lock.vestingSeconds),
  }
  const outcome = await wallets.runOperationsInCall(chain.key, {
    requests,
    build: (operations) => ({
      to: input.coordinator,
      data: encodeFunctionData({
        abi: DEV_BUY_COORDINATOR_ABI,
        functionName: 'launch',
        args: [input.launchId, operations, contributions, limits, deployment.config],
      }),
    }),
    gas: launchGas(requests.length),
    errors: DEV_BUY_COORDINATOR_ABI,
    beforeSend: async (returned) => {
      const simulated = decodeFunctionResult({ abi: DEV_BUY_COORDINATOR_ABI, functionName: 'launch', data: returned }) as Address
      if (!isAddressEqual(simulated, token)) throw new Error(`the launch would deploy ${simulated}, not the predicted ${token}`)
      await input.beforeSend?.(token)
    },
    ...(input.onSent ? { onSent: input.onSent } : {}),
  })
  switch (outcome.status) {
    case 'included': {
      const result = await readLaunch(client, input, outcome.txHash)
      if (!result) throw new Error(`launch ${outcome.txHash} mined without its DevBuyLaunched log`)
      return { status: 'launched', plan, result }
    }
    case 'reverted':
      // A token at the predicted address now: deployed first by someone else, in the launch's own block.
      return (await takenBy(token, outcome.txHash)) ?? { status: 'reverted', plan, txHash: outcome.txHash }
    case 'refused':
      return { status: 'refused', plan, revert: outcome.revert }
    case 'not_mined':
      return { status: 'not_mined', plan, txHash: outcome.txHash, pending: outcome.pending }
    case 'not_sent':
      return { status: 'not_sent', plan, reason: outcome.reason }
    case 'over_gas_cap':
      return { status: 'over_gas_cap', plan, reason: overGasCapReason(outcome) }
  }
}

/** The plan of a dev-buy launch as it would run now, and the bounds the coordinator checks it against. */
export interface DevBuyLaunchPlan {
  plan: DevBuyPlan
  /** The token the deployment will create (CREATE2: known before it exists). */
  token: Address
  /** The ETH the planned stablecoin buys now (the quote), and the least the launch accepts. */
  quotedEth: bigint
  minEth: bigint
  /** The least tokens the dev buy must bring at minEth: every buyer's price bound. */
  minTokens: bigint
}

/**
 * Plans a dev-buy launch on the chain as it is now, sending nothing (the launch and the owner's simulation both use it):
 * predicts the token (the factory deploys it by CREATE2), reads every buyer's stablecoin balance, and plans the buy on
 * the pool the deployment will create (`planDevBuy`), the stablecoin's swap to ETH quoted on chain by the coordinator.
 */
export async function planDevBuyLaunch(
  deps: { wallets: Pick<WalletService, 'stablecoinBalances'>; client: PublicClient },
  input: Pick<LaunchDevBuyInput, 'chain' | 'coordinator' | 'buyers' | 'deployment' | 'ethSlippageBps'> & { token?: Address },
): Promise<DevBuyLaunchPlan> {
  const { wallets, client } = deps
  const { deployment, chain } = input
  const token = input.token ?? (await predictedOrThrow(client, input))
  const tokenIsCurrency0 = BigInt(token) < BigInt(deployment.config.poolConfig.pairedToken)
  const pairedUsd = await readEthUsd(client, chain)
  const launch = {
    pool: clankerLaunchPool({ ...deployment.pool, poolSupply: deployment.totalSupply, tokenIsCurrency0 }),
    tokenIsCurrency0,
    lpFeePips: deployment.lpFeePips,
    hookInputFee: (paired: bigint) => clankerProtocolFeeOf(paired, deployment.lpFeePips),
    totalFee: clankerTotalFeeFraction(deployment.lpFeePips),
    totalSupply: deployment.totalSupply,
    pairedUsd,
  }
  const balances =
    input.buyers.length === 0
      ? new Map<number, bigint>()
      : await wallets.stablecoinBalances(
          chain.key,
          input.buyers.map((b) => b.userIndex),
        )
  const candidates: DevBuyCandidate[] = input.buyers.map((b) => ({
    id: b.id,
    spend: min(b.maxSpend, balances.get(b.userIndex) ?? 0n),
    limitFdv: b.limitFdv,
  }))
  const { plan, quotes } = await planWithQuotes(launch, candidates, (stable) => quotedOrThrow(client, input.coordinator, stable))
  if (!plan.quote) return { plan, token, quotedEth: 0n, minEth: 0n, minTokens: 0n }
  const slippage = input.ethSlippageBps ?? DEFAULT_ETH_SLIPPAGE_BPS
  const quotedEth = quotes.get(plan.quote.stableIn)!
  const minEth = (quotedEth * (10_000n - slippage)) / 10_000n
  const atMinEth = quoteDevBuy({ ...launch, stableToPaired: () => minEth }, plan.quote.stableIn)
  return { plan, token, quotedEth, minEth, minTokens: atMinEth?.tokensOut ?? plan.quote.tokensOut }
}

/**
 * The token the deployment will create: the factory deploys it by CREATE2 from the token config alone (clanker-devco/
 * v4-contracts `src/utils/ClankerDeployer.sol`), so the deployment simulated without extensions, from the coordinator,
 * returns its address. A revert (the factory deprecated, a module not enabled, the address taken) is answered, short.
 */
export async function predictToken(
  client: PublicClient,
  input: Pick<LaunchDevBuyInput, 'coordinator' | 'deployment'>,
): Promise<{ token: Address } | { revert: DecodedRevert }> {
  const config = { ...input.deployment.config, extensionConfigs: [] }
  let data: Hex | undefined
  try {
    ;({ data } = await client.call({
      account: input.coordinator,
      to: input.deployment.factory,
      data: encodeFunctionData({ abi: input.deployment.factoryAbi, functionName: 'deployToken', args: [config] }),
    }))
  } catch (error) {
    const revert = revertDataOf(error)
    if (revert === undefined && !isRevert(error)) throw error
    const decoded = revert ? decodeRevertReason(revert, input.deployment.factoryAbi) : revertWithoutReason()
    return { revert: { ...decoded, message: `the token's deployment would revert: ${decoded.message}` } }
  }
  return { token: decodeFunctionResult({ abi: input.deployment.factoryAbi, functionName: 'deployToken', data: data ?? '0x' }) as Address }
}

/**
 * An expected chain condition a dev-buy plan cannot get past: the token's deployment would revert (the factory refuses
 * the config, is deprecated, a module is not enabled) or the stablecoin's quote to ETH would (no liquidity for it).
 * Typed so the owner's simulation answers it as a 4xx with its reason (issue 24: it was a 500), never as a failure of
 * the service; an RPC failure stays an ordinary error.
 */
export class DevBuyPlanReverted extends Error {
  constructor(
    readonly stage: 'deployment' | 'quote',
    readonly revert: DecodedRevert,
  ) {
    super(revert.message)
    this.name = 'DevBuyPlanReverted'
  }
}

async function predictedOrThrow(client: PublicClient, input: Pick<LaunchDevBuyInput, 'coordinator' | 'deployment'>): Promise<Address> {
  const predicted = await predictToken(client, input)
  if ('revert' in predicted) throw new DevBuyPlanReverted('deployment', predicted.revert)
  return predicted.token
}

async function quotedOrThrow(client: PublicClient, coordinator: Address, stableIn: bigint): Promise<bigint> {
  try {
    return await quoteStableToEth(client, coordinator, stableIn)
  } catch (error) {
    const revert = revertDataOf(error)
    if (revert === undefined && !isRevert(error)) throw error
    const decoded = revert ? decodeRevertReason(revert, DEV_BUY_COORDINATOR_ABI) : revertWithoutReason()
    throw new DevBuyPlanReverted('quote', { ...decoded, message: `the stablecoin's quote to ETH would revert: ${decoded.message}` })
  }
}

const hasCode = async (client: PublicClient, address: Address): Promise<boolean> => {
  const code = await client.getCode({ address })
  return code !== undefined && code !== '0x'
}

/** An execution revert (as opposed to a transport failure, which is thrown on). */
const isRevert = (error: unknown): boolean => error instanceof BaseError && error.walk((e) => e instanceof ExecutionRevertedError) !== null

const LAUNCH_EVENTS = DEV_BUY_COORDINATOR_ABI.filter((item) => item.type === 'event' && (item.name === 'DevBuyLaunched' || item.name === 'BuyerAllocated'))

/** The launch's result from its transaction's logs (null: not this launch's transaction, or it failed). */
async function readLaunch(client: PublicClient, input: LaunchDevBuyInput, txHash: Hash): Promise<DevBuyLaunched | null> {
  const receipt = await client.getTransactionReceipt({ hash: txHash }).catch(() => undefined)
  if (!receipt || receipt.status !== 'success') return null
  const logs = parseEventLogs({ abi: LAUNCH_EVENTS, logs: receipt.logs }).filter(
    (log) => isAddressEqual(log.address, input.coordinator) && (log.args as { launchId: Hex }).launchId === input.launchId,
  )
  const launched = logs.find((log) => log.eventName === 'DevBuyLaunched')
  if (!launched) return null
  const args = launched.args as unknown as { token: Address; stableIn: bigint; ethIn: bigint; bought: bigint; fee: bigint }
  const positions = positionsCreated(input.chain.key, receipt.logs, input.vesting)
  const fills = logs
    .filter((log) => log.eventName === 'BuyerAllocated')
    .map((log) => {
      const a = log.args as unknown as { wallet: Address; spend: bigint; tokens: bigint }
      const vesting = positions.get(getAddress(a.wallet))
      return { wallet: a.wallet, spend: a.spend, tokens: a.tokens, ...(vesting ? { vesting } : {}) }
    })
  return { token: args.token, txHash, blockNumber: receipt.blockNumber, stableIn: args.stableIn, ethIn: args.ethIn, bought: args.bought, fee: args.fee, fills }
}

/** A launch already made: its recorded transaction, else its DevBuyLaunched log searched from `fromBlock`. */
async function findLaunch(client: PublicClient, input: LaunchDevBuyInput, token: Address): Promise<DevBuyLaunched | null> {
  if (input.launchTx) {
    const known = await readLaunch(client, input, input.launchTx)
    if (known) return known
  }
  const event = LAUNCH_EVENTS.find((item) => item.type === 'event' && item.name === 'DevBuyLaunched')!
  // In slices a provider serves: the search may start long before the head.
  const logs = await getLogsInChunks(
    client,
    { fromBlock: input.fromBlock ?? 0n, toBlock: 'latest' },
    (from, to) =>
      client.getLogs({
        address: input.coordinator,
        event: event as Extract<typeof event, { type: 'event' }>,
        args: { launchId: input.launchId, token },
        fromBlock: from,
        toBlock: to,
      } as Parameters<PublicClient['getLogs']>[0]),
    { firstOnly: true },
  )
  const hash = logs[0]?.transactionHash
  return hash ? readLaunch(client, input, hash) : null
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b)
