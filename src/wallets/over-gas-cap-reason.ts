import type { OperationsCallOutcome } from './wallet-service.ts'

/** Why a pooled call was not sent for EIP-7825's per-transaction cap, in words for the operator (logs, records). */
export function overGasCapReason(outcome: Extract<OperationsCallOutcome, { status: 'over_gas_cap' }>): string {
  return (
    `${outcome.operations} buyers do not fit one transaction: their operations declare ${outcome.declaredGas} gas, over the ` +
    `${outcome.cap} one transaction may ask for (EIP-7825), and the call fails within that cap (${outcome.revert.message}); nothing was sent`
  )
}
