import { decodeErrorResult, type Hex } from 'viem'

const standardErrors = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
] as const

/**
 * Human-readable form of revert data from UserOperationRevertReason: `Error(string)` gives its message, `Panic(uint)`
 * its code, anything else (custom errors) the raw selector and data, which the caller can still match on.
 */
export function decodeRevertReason(data: Hex): string {
  if (data === '0x' || data.length < 10) return 'reverted without a reason'
  try {
    const decoded = decodeErrorResult({ abi: standardErrors, data })
    if (decoded.errorName === 'Error') return decoded.args[0]
    return `panic 0x${decoded.args[0].toString(16)}`
  } catch {
    return `custom error ${data.length > 138 ? `${data.slice(0, 138)}…` : data}`
  }
}
