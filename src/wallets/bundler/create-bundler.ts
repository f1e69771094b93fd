import type { Address, Hex, LocalAccount, PublicClient } from 'viem'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import type { Logger } from '../../common/logger.ts'
import { createBlockGasLimit } from './block-gas-limit.ts'
import type { Bundler, SentCall } from './bundler.ts'
import { createBundlerContext } from './bundler-context.ts'
import { createChainNowReader, type SendMoment } from './chain-now.ts'
import { createAccountDeployer } from './deploy-accounts.ts'
import { createFeeBumper } from './fee-bumper.ts'
import { createReceiptPoller, followLanding } from './poll-receipt.ts'
import { DEFAULT_PRIORITY_FEE_POLICY, type PriorityFeePolicy } from './priority-fee-policy.ts'
import { createTransactionSender, type SenderChoice } from './send-transaction.ts'
import { createBundleSettler } from './settle-bundle.ts'
import { createBundleSimulator } from './simulate-bundle.ts'
import { createBundleSubmitter } from './submit-bundles.ts'

export interface BundlerOptions {
  chain: ChainConfig
  client: PublicClient
  signer: LocalAccount
  /**
   * Further sender accounts beside `signer` (the bundler EOA): bundles, deployments and pool sends go out from the
   * freest of them, each with its own nonces (wallet.senderAccounts; sender-pool.ts). None: the bundler EOA alone.
   */
  extraSigners?: readonly LocalAccount[]
  logger: Logger
  /** How long to wait for a receipt before checking whether the transaction was dropped or replaced. */
  receiptTimeoutMs?: number
  pollingIntervalMs?: number
  /** How many dropped/replaced rounds to reconcile before giving up. */
  maxReconcileRounds?: number
  /** Share of the block gas limit one handleOps may use, leaving room for others' transactions. */
  blockGasShare?: number
  /** The tip policy of every transaction the bundler EOA sends (config wallet.priorityFee). */
  priorityFee?: PriorityFeePolicy
  /**
   * How long a pending-nonce check of the sender accounts stands for a send (default NONCE_OBSERVATION_FRESH_MS, 2 s:
   * chain-now.ts says why). A test on a loaded host sets it long, so that what it asserts does not rest on the 2 s.
   */
  nonceCheckFreshMs?: number
}

/**
 * Our own ERC-4337 bundler: the bundler EOA puts signed operations into handleOps transactions on the EntryPoint.
 * Simulation (simulate-bundle.ts), gas sizing (bundle-gas.ts), chain reads (block-gas-limit.ts, chain-now.ts),
 * sending (send-transaction.ts), settling (settle-bundle.ts) and deployments ahead (deploy-accounts.ts) share one
 * context: the chain, its client, the EOA and the EOA's nonce manager.
 */
export function createBundler(options: BundlerOptions): Bundler {
  const ctx = createBundlerContext(options)
  const blockGasLimit = createBlockGasLimit(ctx.client)
  const feePolicy = options.priorityFee ?? DEFAULT_PRIORITY_FEE_POLICY
  const chainNow = createChainNowReader(ctx, feePolicy, options.nonceCheckFreshMs)
  const simulator = createBundleSimulator(ctx)
  const timing = { receiptTimeoutMs: options.receiptTimeoutMs ?? 30_000, pollingIntervalMs: options.pollingIntervalMs ?? 250 }
  // Every wait for one of our transactions goes through the fee bumper: stuck for a block, it is replaced (same
  // nonce, higher fees); the sender tells it what each transaction signed.
  const bumper = createFeeBumper(ctx, { base: createReceiptPoller(ctx.client, timing), chainNow, feePolicy, ...timing })
  const sender = createTransactionSender(ctx, chainNow, { feePolicy, onSent: (send) => bumper.record(send) })
  const receipts = bumper.receipts
  const settler = createBundleSettler(ctx, { receipts, simulator, sender, blockGasLimit, maxRounds: options.maxReconcileRounds ?? 5 })
  const deployer = createAccountDeployer(ctx, { sender, chainNow, receipts })
  const submitter = createBundleSubmitter(ctx, { simulator, blockGasLimit, chainNow, sender, settler, blockGasShare: options.blockGasShare ?? 0.9 })
  let warming: Promise<void> | undefined
  async function sendPlain(
    call: { to: Address; data: Hex; gas: bigint },
    logFields: Record<string, unknown>,
    account: SenderChoice,
    moment: SendMoment | undefined,
  ): Promise<SentCall> {
    // The account is taken before the fee read is awaited (send's order): cached fees, as for a bundle.
    const sent = await sender.send(call.to, call.data, call.gas, await chainNow.recent(moment), logFields, account)
    const resync = () => ctx.senders.of(sent.from).nonces.resync()
    const landed = followLanding({ client: ctx.client, receipts, resync, log: ctx.log }, sent.hash, 'call transaction')
    return {
      hash: sent.hash,
      from: sent.from,
      nonce: sent.nonce,
      landed,
      ...(sent.maxPriorityFeePerGas === undefined ? {} : { maxPriorityFeePerGas: sent.maxPriorityFeePerGas }),
    }
  }

  return {
    // The readying pass's prepareAhead and the executor's warmSends both warm on a block: one read serves both.
    warm() {
      // A send is expected soon: our sends from now on are each followed by a pending-nonce check (chain-now.ts).
      chainNow.keepChecked()
      warming ??= Promise.all([chainNow.refresh(), blockGasLimit.get()])
        .then(() => undefined)
        .finally(() => {
          warming = undefined
        })
      return warming
    },
    forgetChecks: () => chainNow.forget(),
    deployAccounts: (deployments) => deployer.deploy(deployments),
    // From the bundler EOA itself: the contracts called this way (the OTC settlement) name it as their operator.
    sendCall: (call, logFields = {}) => sendPlain(call, logFields, 'primary', undefined),
    sendFromPool: (call, logFields = {}, moment) => sendPlain(call, logFields, 'pool', moment),
    sendFromAccount: (account, call, logFields = {}, options = {}) =>
      sendPlain(call, logFields, { account, ...(options.tipAtMost === undefined ? {} : { tipAtMost: options.tipAtMost }) }, options.moment),
    senderAddresses: () => ctx.senders.lanes.map((lane) => lane.signer.address),
    submit: (items, submitOptions) => submitter.submit(items, submitOptions),
  }
}
