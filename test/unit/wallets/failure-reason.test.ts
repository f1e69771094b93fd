import { describe, expect, it } from 'vitest'
import { failureReason } from '../../../src/wallets/failure-reason.ts'

const [userOpHash, txHash] = [`0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`] as const

describe('failure reasons', () => {
  it('read as logs and journals have always read them', () => {
    const revert = { name: 'TooLittleReceived', args: [90n, 100n], message: 'TooLittleReceived(90, 100)' }
    expect(failureReason({ status: 'reverted', id: 'a', userOpHash, txHash, blockNumber: 1n, revert })).toBe('TooLittleReceived(90, 100)')
    expect(failureReason({ status: 'bundle_reverted', id: 'a', userOpHash, txHash, blockNumber: 1n })).toBe(
      'bundle transaction reverted; the operation did not run',
    )
    expect(failureReason({ status: 'not_mined', id: 'a', userOpHash, txHash })).toMatch(/^not mined yet: /)
    expect(failureReason({ status: 'refused', id: 'a', userOpHash, reason: 'refused by the EntryPoint: AA25 invalid account nonce' })).toBe(
      'refused by the EntryPoint: AA25 invalid account nonce',
    )
    expect(failureReason({ status: 'not_sent', id: 'a', reason: 'not prepared (chain_unavailable); the operation did not run' })).toBe(
      'not prepared (chain_unavailable); the operation did not run',
    )
  })
})
