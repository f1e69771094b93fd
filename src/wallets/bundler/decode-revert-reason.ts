import { decodeErrorResult, type Abi, type Hex } from 'viem'
import { KNOWN_ERRORS } from './known-errors.ts'

const standardErrors = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
] as const

/**
 * Human-readable form of revert data from UserOperationRevertReason: `Error(string)` gives its message, `Panic(uint)`
 * its code, a known custom error `Name(arg, ...)` (see known-errors.ts), anything else the raw data, whose selector the
 * caller can still match on.
 */
export function decodeRevertReason(data: Hex, knownErrors: Abi = KNOWN_ERRORS): string {
  if (data === '0x' || data.length < 10) return 'reverted without a reason'
  try {
    const decoded = decodeErrorResult({ abi: standardErrors, data })
    if (decoded.errorName === 'Error') return decoded.args[0]
    return `panic 0x${decoded.args[0].toString(16)}`
  } catch {
    // Not a standard error.
  }
  try {
    const decoded = decodeErrorResult({ abi: knownErrors, data })
    return `${decoded.errorName}(${(decoded.args ?? []).map((arg) => String(arg)).join(', ')})`
  } catch {
    return `custom error ${data.length > 138 ? `${data.slice(0, 138)}…` : data}`
  }
}
