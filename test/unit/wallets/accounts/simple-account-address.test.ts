import { describe, expect, it } from 'vitest'
import { simpleAccountImplementation } from '../../../../src/wallets/accounts/simple-account-address.ts'

describe('simple account implementation address', () => {
  it('is the factory constructor CREATE at nonce 1', () => {
    expect(simpleAccountImplementation('0x0000000000000000000000000000000000000001')).toMatch(/^0x[0-9a-fA-F]{40}$/)
  })
})
