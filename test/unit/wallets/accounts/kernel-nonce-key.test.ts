import { describe, expect, it } from 'vitest'
import { PrebuyError } from '../../../../src/common/errors.ts'
import { KERNEL_ECDSA_VALIDATOR, kernelNonceKey } from '../../../../src/wallets/accounts/kernel-account-provider.ts'

describe('kernel nonce key', () => {
  it('encodes mode, root validator type, validator and the 2-byte stream into 24 bytes', () => {
    const key = kernelNonceKey(0x1234)
    const hex = key.toString(16).padStart(48, '0')
    expect(hex.slice(0, 4)).toBe('0000')
    expect(`0x${hex.slice(4, 44)}`).toBe(KERNEL_ECDSA_VALIDATOR.toLowerCase())
    expect(hex.slice(44)).toBe('1234')
    expect(() => kernelNonceKey(0x10000)).toThrow(PrebuyError)
  })
})
