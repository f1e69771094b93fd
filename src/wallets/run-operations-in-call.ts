import type { Address, Hex, PublicClient } from 'viem'
import { revertDataOf } from '../chain/revert-data.ts'
import { toPackedUserOperation } from 'viem/account-abstraction'
import type { Bundler } from './bundler/bundler.ts'
import { minGas, withMargin } from './bundler/bundle-gas.ts'
import { decodeRevertReason, revertWithoutReason } from './bundler/decode-revert-reason.ts'
import type { OperationPreparer } from './prepare/operation-preparer.ts'
import type { OperationsCallOutcome, OperationsCallRequest } from './wallet-service.ts'

/**
 * WalletService.runOperationsInCall: the operations are signed as one chunk (the same preparer as bundles: nonce
 * streams, initCode for undeployed wallets, zero fees), packed, handed to `build`, the resulting transaction simulated
 * from the bundler EOA and, if it passes, sent through the bundler's own nonce manager. The nonce streams are held
 * while the transaction may still land (a second operation on the same nonce would collide with it).
 */
export async function runOperationsInCall(
  parts: { preparer: OperationPreparer; bundler: Bundler; client: PublicClient; from: Address; txGasCap: bigint },
  request: OperationsCallRequest,
): Promise<OperationsCallOutcome> {
  const { preparer, bundler, client, from, txGasCap } = parts
  if (!bundler.sendCall) return { status: 'not_sent', reason: 'this chain submits through an external bundler, which cannot run operations inside a call' }
  const prepared = await preparer.prepare(request.requests)
  let stillPending: Set<`0x${string}`> | undefined
  try {
    const missing = prepared.items.findIndex((item) => item === undefined)
    if (missing >= 0) return { status: 'not_sent', reason: prepared.unprepared.get(missing) ?? 'an operation could not be signed' }
    const items = prepared.items.map((item) => item!)
    const call = request.build(items.map((item) => toPackedUserOperation(item.userOperation)))
    // handleOps refuses to start an operation with less gas left than it declared (AA95), so the declared limits go on top.
    const declared = items.reduce((sum, { userOperation: op }) => sum + op.verificationGasLimit + op.callGasLimit + op.preVerificationGas, request.gas)
    // Never more than one transaction may ask for (EIP-7825), in the simulation as in the transaction.
    const overCap = declared > txGasCap
    let gas = overCap ? txGasCap : declared
    let simulated: Hex
    try {
      simulated = (await client.call({ account: from, to: call.to, data: call.data, gas })).data ?? '0x'
      // The declared sum is a bound, far above what the call uses: over the cap, the call is measured instead (the
      // least gas at which it succeeds, an eighth more for a chain that moved), within the cap.
      if (overCap) gas = minGas(withMargin(await client.estimateGas({ account: from, to: call.to, data: call.data, gas: txGasCap })), txGasCap)
    } catch (error) {
      const data = revertDataOf(error)
      const revert = data ? decodeRevertReason(data, request.errors) : revertWithoutReason()
      if (overCap) return { status: 'over_gas_cap', operations: items.length, declaredGas: declared, cap: txGasCap, revert }
      return { status: 'refused', revert }
    }
    try {
      await request.beforeSend?.(simulated)
    } catch (error) {
      return { status: 'not_sent', reason: `not sent: ${error instanceof Error ? error.message : String(error)}` }
    }
    const sent = await bundler.sendCall({ ...call, gas }, { operations: items.length })
    try {
      await request.onSent?.(sent.hash)
    } catch {
      // Not recorded: whoever reconciles finds the transaction from the chain instead. The receipt is awaited anyway.
    }
    const landed = await sent.landed
    if (!landed.receipt) {
      if (landed.pending) stillPending = new Set(items.map((item) => item.userOpHash))
      return { status: 'not_mined', txHash: sent.hash, pending: landed.pending }
    }
    const { status, blockNumber } = landed.receipt
    return status === 'success' ? { status: 'included', txHash: sent.hash, blockNumber } : { status: 'reverted', txHash: sent.hash, blockNumber }
  } finally {
    prepared.finish(stillPending)
  }
}
