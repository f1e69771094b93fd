import {
  BaseError,
  encodeFunctionData,
  erc20Abi,
  ExecutionRevertedError,
  getAddress,
  isAddress,
  RawContractError,
  zeroAddress,
  type Address,
  type PublicClient,
} from 'viem'
import { isChainKey, NATIVE_ETH_ADDRESS, type ChainConfig, type ChainKey } from '../chain/chain-keys.ts'
import type { ErrorCode } from '../common/error-codes.ts'
import { PrebuyError } from '../common/errors.ts'
import type { Logger } from '../common/logger.ts'
import type { KeyedMutex } from '../common/keyed-mutex.ts'
import { failureReason } from './failure-reason.ts'
import { isAmountSyntax, parseTokenAmount } from './parse-token-amount.ts'
import { createL1DataFeeReader, type L1DataFeeReader, sampleBundleTransaction } from '../chain/l1-data-fee.ts'
import type { ChainBalanceReader } from './read-balances.ts'
import { knownSinkReason } from './known-sinks.ts'
import { isNativeEth } from './token-metadata.ts'
import { formatDecimal } from '../domain/decimal.ts'
import { VESTING_ABI } from '../launch-methods/vesting/chain/vesting-contract.ts'
import type { AccountCall, UserOperationRequest, UserOperationResult, VestedTokens, WithdrawRequest, WithdrawResult } from './wallet-service.ts'
import type { WithdrawalCounter, WithdrawalPolicy } from './withdrawal-policy.ts'

export interface WithdrawDeps {
  chains: Record<ChainKey, ChainConfig>
  clients: Record<ChainKey, PublicClient>
  readers: Record<ChainKey, ChainBalanceReader>
  walletAddress(userIndex: number): Promise<Address>
  submit(chain: ChainKey, requests: UserOperationRequest[]): Promise<UserOperationResult[]>
  mutex: KeyedMutex
  /** Atomic amounts promised to withdrawals in flight, per wallet+chain+token. */
  reserved: Map<string, bigint>
  logger: Logger
  policy: WithdrawalPolicy
  /** Withdrawals per wallet in the last hour (policy.perKeyPerHour). */
  counter: WithdrawalCounter
  /** The EOA paying the gas on each chain; undefined where an external bundler serves (the wallet pays its own). */
  gasPayer(chain: ChainKey): Address | undefined
}

const badRequest = (code: ErrorCode, message: string, details?: Record<string, unknown>) => new PrebuyError(code, message, details ? { details } : {})

/**
 * One withdrawal: every check that needs no chain first, then the token, then, under a per wallet+chain+token lock,
 * balance minus what other in-flight withdrawals reserved. The reservation is held until the operation is mined, so
 * two withdrawals racing for one balance can never both pass the check: the second sees the first's reservation.
 */
export async function withdraw(deps: WithdrawDeps, request: WithdrawRequest): Promise<WithdrawResult> {
  if (!isChainKey(request.chain)) throw badRequest('invalid_chain', 'The chain must be base or second_chain.')
  if (typeof request.to !== 'string' || !isAddress(request.to) || request.to.toLowerCase() === zeroAddress) {
    throw badRequest('invalid_address', 'The destination must be a non-zero 20-byte hex address (0x…).', { field: 'to' })
  }
  if (typeof request.tokenAddress !== 'string' || !isAddress(request.tokenAddress)) {
    throw badRequest('invalid_address', 'The token address must be a 20-byte hex address (0x…).', { field: 'tokenAddress' })
  }
  if (typeof request.amount !== 'string' || !isAmountSyntax(request.amount)) {
    throw badRequest('invalid_amount', 'The amount must be a positive decimal number or "max".')
  }
  const chain = deps.chains[request.chain]
  const client = deps.clients[request.chain]
  const native = isNativeEth(request.tokenAddress)
  const token: Address = native ? NATIVE_ETH_ADDRESS : getAddress(request.tokenAddress)
  const to = getAddress(request.to)
  const wallet = await deps.walletAddress(request.userIndex)

  const decimals = native ? 18 : await tokenDecimals(deps, request.chain, token)
  const wanted = request.amount === 'max' ? 'max' : parseTokenAmount(request.amount, decimals)
  if (!native && to === token) {
    throw badRequest('invalid_destination', 'The destination is the token contract itself: tokens sent there are lost.', { field: 'withdrawAddress' })
  }
  if (to === wallet) throw badRequest('invalid_destination', 'The destination is the wallet itself.', { field: 'withdrawAddress' })
  const sink = knownSinkReason(to, chain.addresses)
  if (sink) {
    throw badRequest('destination_unrecoverable', `The destination is ${sink}: what is sent there cannot be got back.`, { field: 'withdrawAddress' })
  }
  await keepGasForLaunches(deps, request.chain)

  const readBalance = async (): Promise<bigint> => {
    try {
      if (native) return await client.getBalance({ address: wallet })
      return await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })
    } catch (error) {
      throw new PrebuyError('chain_unavailable', `The balance on ${chain.key} could not be read.`, { cause: error })
    }
  }

  const key = `${request.chain}:${wallet.toLowerCase()}:${token.toLowerCase()}`
  // Vesting positions of this token (never of ETH): what has vested counts as available and is released first.
  const vested = native ? undefined : request.vested
  const releasable = (vested?.releasable ?? []).reduce((sum, p) => sum + p.amount, 0n)
  let free = 0n
  const amount = await deps.mutex.run(key, async () => {
    free = (await readBalance()) - (deps.reserved.get(key) ?? 0n)
    const available = free + releasable
    const value = wanted === 'max' ? available : wanted
    if (value <= 0n || value > available) {
      const locked = (vested?.locked ?? []).reduce((sum, p) => sum + p.amount, 0n)
      // Refused because of the lock (also "max" with nothing vested yet): say what is locked until when.
      if (locked > 0n) throw lockedError(vested!, available, locked, decimals)
      throw badRequest('insufficient_balance', 'The wallet does not hold enough of this token for the withdrawal.', {
        available: (available > 0n ? available : 0n).toString(),
      })
    }
    const minimum = minimumOf(deps.policy, chain, token, decimals)
    if (value < minimum && value !== available) {
      throw badRequest('amount_below_minimum', 'The amount is below the minimum withdrawal of this token; the whole balance can always be withdrawn.', {
        minimum: minimum.toString(),
      })
    }
    // Checked with what the wallet holds before any release: the transfer of the part it holds, to this destination.
    // Before the quota: a destination that cannot receive is refused without using it.
    const transfer = (units: bigint): AccountCall =>
      native ? { to, value: units, data: '0x' } : { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] }) }
    await checkReceivable(client, wallet, transfer(value > free ? (free > 0n ? free : 0n) : value), chain.key)
    // Counted here, once the withdrawal will be sent: a refused request costs the service nothing.
    const quota = deps.counter.take(wallet.toLowerCase())
    if (!quota.allowed) {
      throw new PrebuyError('withdrawal_rate_limited', 'Too many withdrawals from this wallet in the last hour.', {
        // The limit that refused it, for the 429's X-RateLimit-* headers (not the per-minute request limit's).
        details: { retryAfterSeconds: quota.retryAfterSeconds, rateLimit: { limit: quota.limit, remaining: 0, resetAt: quota.resetAt } },
      })
    }
    deps.reserved.set(key, (deps.reserved.get(key) ?? 0n) + value)
    return value
  })

  try {
    const call: AccountCall = native
      ? { to, value: amount, data: '0x' }
      : { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) }
    const releases = amount > free ? releaseCalls(vested!, amount - free) : []
    // One operation: the releases pay the wallet, then the transfer sends it on; all or nothing (executeBatch).
    const [result] = await deps.submit(request.chain, [{ userIndex: request.userIndex, calls: [...releases, call], id: `withdraw:${key}:${amount}` }])
    if (result?.status === 'not_mined') {
      throw new PrebuyError('withdrawal_pending', 'The withdrawal was submitted but is not confirmed yet; check the balance before retrying.', {
        details: { txHash: result.txHash },
      })
    }
    if (result?.status !== 'included') {
      const reason = result ? failureReason(result) : undefined
      deps.logger.warn({ chain: chain.key, wallet, token, reason }, 'withdrawal operation failed')
      throw new PrebuyError('withdrawal_failed', 'The withdrawal transaction did not succeed; nothing was sent.', {
        details: { reason: reason ?? 'unknown' },
      })
    }
    deps.logger.info({ chain: chain.key, wallet, token, to, amount: amount.toString(), txHash: result.txHash }, 'withdrawal mined')
    return { txHash: result.txHash, chain: request.chain, tokenAddress: token, to, amount: amount.toString() }
  } finally {
    const left = (deps.reserved.get(key) ?? 0n) - amount
    if (left > 0n) deps.reserved.set(key, left)
    else deps.reserved.delete(key)
  }
}

/**
 * `release(id)` calls for the positions that cover `needed` (largest first: fewest calls). Each releases everything
 * vested in its position, so the wallet may end with more than it sent; that stays in it, free.
 */
function releaseCalls(vested: VestedTokens, needed: bigint): AccountCall[] {
  const calls: AccountCall[] = []
  let covered = 0n
  for (const position of [...vested.releasable].sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0))) {
    if (covered >= needed) break
    calls.push({ to: position.contract, data: encodeFunctionData({ abi: VESTING_ABI, functionName: 'release', args: [position.positionId] }) })
    covered += position.amount
  }
  return calls
}

/** The refusal of an amount above free + vested: how much is locked, and until when (the next unlock and the last). */
function lockedError(vested: VestedTokens, available: bigint, locked: bigint, decimals: number): PrebuyError {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
  const now = vested.now
  const lastEnd = Math.max(...vested.locked.map((p) => p.vestingEnd))
  // The next time more becomes releasable: a lockup end still ahead, else vesting goes on every second.
  const nextUnlock = Math.min(...vested.locked.map((p) => (p.lockupEnd > now ? p.lockupEnd : now)))
  const units = (atoms: bigint) => formatDecimal(atoms < 0n ? 0n : atoms, decimals)
  return badRequest(
    'tokens_locked',
    `Only ${units(available)} can be withdrawn now; ${units(locked)} more is locked in vesting until ${iso(lastEnd)} (the next part unlocks at ${iso(nextUnlock)}).`,
    {
      available: (available > 0n ? available : 0n).toString(),
      locked: locked.toString(),
      nextUnlockAt: iso(nextUnlock),
      lockedUntil: iso(lastEnd),
    },
  )
}

/** The policy's minimum for the stablecoin and native ETH, atomic units; 0 for any other token. */
function minimumOf(policy: WithdrawalPolicy, chain: ChainConfig, token: Address, decimals: number): bigint {
  if (token === NATIVE_ETH_ADDRESS) return parseTokenAmount(policy.minEth, 18)
  if (token.toLowerCase() === chain.addresses.stablecoin.toLowerCase()) return parseTokenAmount(policy.minStablecoin, decimals)
  return 0n
}

const l1FeeReaders = new WeakMap<PublicClient, L1DataFeeReader>()

/** The L1 data fee of a one-operation handleOps (a withdrawal), wei; 0 where the chain has no GasPriceOracle. */
function withdrawalL1DataFee(deps: WithdrawDeps, chain: ChainKey): Promise<bigint> {
  const client = deps.clients[chain]
  let reader = l1FeeReaders.get(client)
  if (!reader) {
    reader = createL1DataFeeReader(client)
    l1FeeReaders.set(client, reader)
  }
  const config = deps.chains[chain]
  return reader.feeOf(sampleBundleTransaction(config.chainId, config.addresses.entryPoint, 1))
}

/** Refuses (503) while the gas payer's ETH is below the reserve kept for launch buys (plus this withdrawal's L1 data fee). */
async function keepGasForLaunches(deps: WithdrawDeps, chain: ChainKey): Promise<void> {
  const payer = deps.gasPayer(chain)
  if (!payer) return
  let balance: bigint
  let l1DataFee: bigint
  try {
    ;[balance, l1DataFee] = await Promise.all([deps.clients[chain].getBalance({ address: payer }), withdrawalL1DataFee(deps, chain)])
  } catch (error) {
    throw new PrebuyError('chain_unavailable', `The balance on ${chain} could not be read.`, { cause: error })
  }
  // The reserve is what is left for launch buys after this withdrawal's own L1 data fee (OP-stack chains; 0 on the
  // devnet), charged from the same balance as its gas.
  if (balance < parseTokenAmount(deps.policy.bundlerReserveEth, 18) + l1DataFee) {
    deps.logger.warn({ chain, balance: balance.toString() }, 'withdrawal refused: the bundler’s gas is kept for launch buys')
    throw new PrebuyError('gas_reserved_for_launches', 'Withdrawals are paused while the service’s gas is low; try again later.', {
      details: { retryAfterSeconds: 600 },
    })
  }
}

/** Whether a revert (not a transport failure) ended the call. */
const isRevert = (error: unknown): boolean =>
  error instanceof BaseError && error.walk((e) => e instanceof ExecutionRevertedError || e instanceof RawContractError) !== null

/**
 * Simulates the wallet's transfer (eth_call from the wallet's address, which holds the balance): a destination that
 * cannot receive (a contract with no payable receive, a token refusing the recipient) is refused now with a 400,
 * instead of an operation whose gas the service pays and that sends nothing.
 */
async function checkReceivable(client: PublicClient, wallet: Address, call: AccountCall, chain: ChainKey): Promise<void> {
  try {
    await client.call({ account: wallet, to: call.to, data: call.data, ...(call.value ? { value: call.value } : {}) })
  } catch (error) {
    if (isRevert(error)) {
      throw badRequest('destination_cannot_receive', 'The transfer to this destination reverts: it cannot receive this asset.', { field: 'withdrawAddress' })
    }
    throw new PrebuyError('chain_unavailable', `The transfer could not be checked on ${chain}.`, { cause: error })
  }
}

async function tokenDecimals(deps: WithdrawDeps, chainKey: ChainKey, token: Address): Promise<number> {
  const client = deps.clients[chainKey]
  const known = await deps.readers[chainKey].knownTokens()
  for (const info of [known.stablecoin, known.weth]) if (info.address.toLowerCase() === token.toLowerCase()) return info.decimals
  let code: string | undefined
  try {
    code = await client.getCode({ address: token })
  } catch (error) {
    throw new PrebuyError('chain_unavailable', `The token on ${chainKey} could not be checked.`, { cause: error })
  }
  if (!code || code === '0x') throw badRequest('token_not_contract', `The token address is not a contract on ${chainKey}.`)
  try {
    return await client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' })
  } catch {
    throw badRequest('token_not_contract', `The token address is not an ERC-20 token contract on ${chainKey}.`)
  }
}
