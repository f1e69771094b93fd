import { decodeErrorResult, type Abi, type Hex } from 'viem'
import type { DecodedRevert } from '../wallet-service.ts'
import { KNOWN_ERRORS } from './known-errors.ts'

const standardErrors = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
] as const

/** The name of a revert that left no data at all (told apart from 'unknown': data that is no error we know). */
export const WITHOUT_REASON = 'without_reason'

/** A failed call that left no revert data (or none the EntryPoint reported). */
export const revertWithoutReason = (): DecodedRevert => ({ name: WITHOUT_REASON, args: [], message: 'reverted without a reason' })

/**
 * Decodes revert data from UserOperationRevertReason: `Error(string)` gives its message, `Panic(uint)` its code, a
 * known custom error `Name(arg, ...)` (see known-errors.ts); anything else is named 'unknown' and its message holds
 * the raw data.
 */
export function decodeRevertReason(data: Hex, knownErrors: Abi = KNOWN_ERRORS): DecodedRevert {
  if (data === '0x' || data.length < 10) return revertWithoutReason()
  try {
    const decoded = decodeErrorResult({ abi: standardErrors, data })
    if (decoded.errorName === 'Error') return { name: 'Error', args: decoded.args, message: decoded.args[0] }
    return { name: 'Panic', args: decoded.args, message: `panic 0x${decoded.args[0].toString(16)}` }
  } catch {
    // Not a standard error.
  }
  try {
    const decoded = decodeErrorResult({ abi: knownErrors, data })
    const args = decoded.args ?? []
    if (decoded.errorName === 'WrappedError') {
      // A hook's revert wrapped by the PoolManager: the hook's own error is what happened (its name decides).
      const [target, , reason] = args as readonly [string, Hex, Hex, Hex]
      const inner = decodeRevertReason(reason, knownErrors)
      return { ...inner, message: `${inner.message} (in ${target})` }
    }
    return { name: decoded.errorName, args, message: `${decoded.errorName}(${args.map((arg) => String(arg)).join(', ')})` }
  } catch {
    return { name: 'unknown', args: [], message: `custom error ${data.length > 138 ? `${data.slice(0, 138)}…` : data}` }
  }
}
