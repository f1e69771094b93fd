import { describe, expect, it } from 'vitest'
import { API_ERROR_CODES, ERROR_CODES, type ErrorCode } from '../../../src/common/error-codes.ts'
import { PrebuyError, isPrebuyError } from '../../../src/common/errors.ts'

describe('PrebuyError', () => {
  it('carries kind, code, details and cause', () => {
    const cause = new Error('rpc down')
    const error = new PrebuyError('invalid_amount', 'Amount must be positive.', { details: { field: 'amount' }, cause })
    expect(isPrebuyError(error)).toBe(true)
    expect(error.kind).toBe('bad_request')
    expect(error.code).toBe('invalid_amount')
    expect(error.details).toEqual({ field: 'amount' })
    expect(error.cause).toBe(cause)
    expect(isPrebuyError(new Error('x'))).toBe(false)
  })
  it('takes its kind from the catalogue: one kind per code, and no public code is internal', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) expect(new PrebuyError(code, 'x').kind).toBe(ERROR_CODES[code].kind)
    expect(API_ERROR_CODES.length).toBeGreaterThan(0)
    for (const code of API_ERROR_CODES) expect(ERROR_CODES[code].kind, code).not.toBe('internal')
    expect(new PrebuyError('label_taken', 'x').kind).toBe('conflict')
  })
})
