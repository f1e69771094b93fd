import { encodeFunctionData, erc20Abi, isAddressEqual, parseAbiItem, parseEventLogs, type Address, type Hash, type Hex, type PublicClient } from 'viem'
import type { ChainConfig } from '../../../chain/chain-keys.ts'
import { type OtcOrder, type OtcSettlement, settleOtc } from '../domain/otc-fill.ts'
import { describeOtcDifferences, type OtcTermField, type OtcTerms, otcTermsDifferences } from '../domain/otc-terms.ts'
import { overGasCapReason } from '../../../wallets/over-gas-cap-reason.ts'
import type { DecodedRevert, WalletService } from '../../../wallets/wallet-service.ts'
import { type OnChainOffer, OTC_SETTLEMENT_ABI, otcOfferKey, settleTermsArg } from './otc-settlement-contract.ts'
import { getLogsInChunks } from '../../../chain/get-logs-in-chunks.ts'

/** An order taking part in an OTC settlement: its identity, its wallet (by user index) and its limits. */
export interface OtcBuyer extends Omit<OtcOrder, 'balance'> {
  userIndex: number
}

export interface SettleOfferInput {
  chain: ChainConfig
  /** The PrebuyOtcSettlement deployed with this service's bundler EOA as its operator. */
  contract: Address
  offerId: Hex
  /**
   * The terms the service recorded, with the wallet that deposited them (`project`): the offer settled is the one
   * under `otcOfferKey(terms.project, offerId)`, and only when it equals these in every field (checked here before
   * anything is sent, and again by the contract).
   */
  terms: OtcTerms
  buyers: readonly OtcBuyer[]
  /** The block the offer was deposited in: where to look for its settlement log when it is already closed (default 0). */
  depositBlock?: bigint
  /** A settlement transaction an earlier attempt sent (recorded by `onSent`): looked up first when the offer is closed. */
  settlingTx?: Hash
  /** Called with the settlement transaction's hash once it is sent, before its receipt is awaited. */
  onSent?(txHash: Hash): Promise<void>
}

export type SettleOfferOutcome =
  /** Settled now, by this call. */
  | { status: 'settled'; plan: OtcSettlement; txHash: Hash; blockNumber: bigint }
  /** Already closed on chain (settled by an earlier call, perhaps one a crash interrupted, or cancelled): nothing sent. */
  | { status: 'closed'; settledIn: Hash | null }
  | { status: 'no_offer' }
  | { status: 'too_early'; settleAfter: bigint }
  /** The on-chain offer differs from the recorded terms (`fields`): nothing sent; the deposit does not count. */
  | { status: 'mismatch'; fields: OtcTermField[]; reason: string }
  /** The settlement would revert (simulated; nothing sent), or reverted on chain (nothing moved either way). */
  | { status: 'refused'; plan: OtcSettlement; revert: DecodedRevert }
  | { status: 'reverted'; plan: OtcSettlement; txHash: Hash }
  /** Sent with no receipt yet: settle again later, which reconciles from the chain (`closed`). */
  | { status: 'not_mined'; plan: OtcSettlement; txHash: Hash; pending: boolean }
  | { status: 'not_sent'; plan: OtcSettlement; reason: string }
  /** Too many buyers for one transaction (EIP-7825's per-transaction gas cap): nothing sent; `reason` says how many. */
  | { status: 'over_gas_cap'; plan: OtcSettlement; reason: string }

const OFFER_SETTLED = parseAbiItem('event OfferSettled(bytes32 indexed key, uint256 sold, uint256 unsold, uint256 proceeds, uint256 fee)')

/** Call gas of one buyer's operation: approve and contribute (a transferFrom), with room for a proxy stablecoin. */
const CONTRIBUTION_CALL_GAS = 200_000n

/**
 * Gas of the settlement's own work: the checks and transfers (each operation's declared limits are added to it); a
 * locked offer also writes one vesting position per buyer (five new storage slots and a log, ~130k).
 */
const settleGas = (operations: number, locked: boolean): bigint => 300_000n + BigInt(operations) * (locked ? 280_000n : 120_000n)

/**
 * Settles one pooled OTC offer, idempotently: reads the offer (closed already: says so, with the settling transaction
 * when there was one), reads every buyer's stablecoin balance now, plans the fills with the pure rule (`settleOtc`),
 * and sends one `settle` that runs each buyer's operation (approve exactly + contribute) inside it, so the whole
 * settlement moves everything or nothing. Running it twice never settles twice: the contract closes the offer.
 */
export async function settleOffer(deps: { wallets: WalletService; client: PublicClient }, input: SettleOfferInput): Promise<SettleOfferOutcome> {
  const { wallets, client } = deps
  const key = otcOfferKey(input.terms.project as Address, input.offerId)
  const offer = await readOffer(client, input.contract, key)
  if (offer.project === '0x0000000000000000000000000000000000000000') return { status: 'no_offer' }
  if (offer.closed) {
    const known = input.settlingTx && (await settledBy(client, input.contract, key, input.settlingTx)) ? input.settlingTx : undefined
    return { status: 'closed', settledIn: known ?? (await settlingTransaction(client, input.contract, key, input.depositBlock ?? 0n)) }
  }
  const fields = otcTermsDifferences(input.terms, offer)
  if (fields.length > 0) return { status: 'mismatch', fields, reason: describeOtcDifferences(input.terms, offer, fields) }
  const now = (await client.getBlock()).timestamp
  if (now < offer.settleAfter) return { status: 'too_early', settleAfter: offer.settleAfter }
  if (!wallets.runOperationsInCall) throw new Error('the wallet service cannot run operations inside a call')

  const balances = await wallets.stablecoinBalances(
    input.chain.key,
    input.buyers.map((b) => b.userIndex),
  )
  const plan = settleOtc(
    { fdv: offer.fdv, totalSupply: offer.totalSupply, offered: offer.offered },
    input.buyers.map((b) => ({ id: b.id, limitFdv: b.limitFdv, maxSpend: b.maxSpend, balance: balances.get(b.userIndex) ?? 0n })),
  )
  const byId = new Map(input.buyers.map((b) => [b.id, b]))
  const requests = plan.fills.map((fill) => ({
    id: fill.id,
    userIndex: byId.get(fill.id)!.userIndex,
    // approve + contribute (two token transfers' worth): far below the swap-sized default, so hundreds fit one settle.
    callGasLimit: CONTRIBUTION_CALL_GAS,
    calls: [
      { to: input.chain.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [input.contract, fill.spend] }) },
      { to: input.contract, data: encodeFunctionData({ abi: OTC_SETTLEMENT_ABI, functionName: 'contribute', args: [key, fill.spend] }) },
    ],
  }))
  const walletsOf = await Promise.all(requests.map((r) => wallets.walletAddress(r.userIndex)))
  const fills = plan.fills.map((fill, i) => ({ wallet: walletsOf[i]!, spend: fill.spend, tokens: fill.tokens }))
  const outcome = await wallets.runOperationsInCall(input.chain.key, {
    requests,
    build: (operations) => ({
      to: input.contract,
      data: encodeFunctionData({ abi: OTC_SETTLEMENT_ABI, functionName: 'settle', args: [input.offerId, settleTermsArg(input.terms), operations, fills] }),
    }),
    gas: settleGas(requests.length, offer.lockSeconds > 0n || offer.vestingSeconds > 0n),
    errors: OTC_SETTLEMENT_ABI,
    ...(input.onSent ? { onSent: input.onSent } : {}),
  })
  switch (outcome.status) {
    case 'included':
      return { status: 'settled', plan, txHash: outcome.txHash, blockNumber: outcome.blockNumber }
    case 'reverted':
      return { status: 'reverted', plan, txHash: outcome.txHash }
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

/** The offer stored under `key` (`otcOfferKey(project, offerId)`). */
export async function readOffer(client: PublicClient, contract: Address, key: Hex): Promise<OnChainOffer> {
  const [project, token, offered, fdv, totalSupply, settleAfter, lockSeconds, vestingSeconds, closed] = (await client.readContract({
    address: contract,
    abi: OTC_SETTLEMENT_ABI,
    functionName: 'offers',
    args: [key],
  })) as [Address, Address, bigint, bigint, bigint, bigint, bigint, bigint, boolean]
  return { project, token, offered, fdv, totalSupply, settleAfter, lockSeconds, vestingSeconds, closed }
}

/** Whether `txHash` is the transaction that settled the offer (its receipt carries the offer's OfferSettled log). */
async function settledBy(client: PublicClient, contract: Address, key: Hex, txHash: Hash): Promise<boolean> {
  const receipt = await client.getTransactionReceipt({ hash: txHash }).catch(() => undefined)
  if (receipt?.status !== 'success') return false
  return parseEventLogs({ abi: [OFFER_SETTLED], logs: receipt.logs }).some((log) => isAddressEqual(log.address, contract) && log.args.key === key)
}

/** The transaction that settled the offer `key` (null: it was cancelled, or the log is out of the node's reach). */
export async function settlingTransaction(client: PublicClient, contract: Address, key: Hex, fromBlock: bigint): Promise<Hash | null> {
  // In slices a provider serves (a settlement searched long after the offer's block spans many blocks).
  const logs = await getLogsInChunks(
    client,
    { fromBlock, toBlock: 'latest' },
    (from, to) => client.getLogs({ address: contract, event: OFFER_SETTLED, args: { key }, fromBlock: from, toBlock: to }),
    { firstOnly: true },
  )
  return logs[0]?.transactionHash ?? null
}
