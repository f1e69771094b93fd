import { describe, expect, it } from 'vitest'
import { PrebuyError, isPrebuyError } from '../../../src/common/errors.ts'

describe('PrebuyError', () => {
  it('carries kind, code, details and cause', () => {
    const cause = new Error('rpc down')
    const error = new PrebuyError('bad_request', 'invalid_amount', 'Amount must be positive.', { details: { field: 'amount' }, cause })
    expect(isPrebuyError(error)).toBe(true)
    expect(error.kind).toBe('bad_request')
    expect(error.code).toBe('invalid_amount')
    expect(error.details).toEqual({ field: 'amount' })
    expect(error.cause).toBe(cause)
    expect(isPrebuyError(new Error('x'))).toBe(false)
  })
})
