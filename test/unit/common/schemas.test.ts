import { describe, expect, it } from 'vitest'
import { addressSchema, checksumAddressSchema } from '../../../src/common/schemas.ts'
import { decimalSchema } from '../../../src/domain/decimal.ts'
import { slugSchema } from '../../../src/domain/slug.ts'
import { isValidSlug } from '../../../src/domain/slug.ts'

const ADDRESS_MESSAGE = 'expected a 0x-prefixed 20-byte hex address'
const firstMessage = (result: { error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message

describe('shared input schemas', () => {
  it('address: 0x and 20 bytes of hex in any case, kept as given; one message for every misfit', () => {
    const lower = '0x4200000000000000000000000000000000000006'
    const mixed = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
    expect(addressSchema.parse(lower)).toBe(lower)
    expect(addressSchema.parse(mixed.toLowerCase())).toBe(mixed.toLowerCase())
    for (const bad of ['0x1', `${lower}0`, lower.slice(2), `0x${'g'.repeat(40)}`, 42, null]) {
      expect(firstMessage(addressSchema.safeParse(bad)), String(bad)).toBe(ADDRESS_MESSAGE)
    }
    expect(checksumAddressSchema.parse(mixed.toLowerCase())).toBe(mixed)
    expect(firstMessage(checksumAddressSchema.safeParse('0x1'))).toBe(ADDRESS_MESSAGE)
  })

  it('slug: exactly the slugs the project service accepts', () => {
    for (const value of ['moon', 'a', 'moon-2', 'a'.repeat(64), 'a--b', '-moon', 'moon-', 'Moon', 'a'.repeat(65), '']) {
      expect(slugSchema.safeParse(value).success, value).toBe(isValidSlug(value))
    }
  })

  it('decimal: non-negative plain decimals, with an optional limit on fraction digits', () => {
    expect(decimalSchema().safeParse('12.1234567').success).toBe(true)
    expect(decimalSchema(6).safeParse('12.123456').success).toBe(true)
    expect(firstMessage(decimalSchema(6).safeParse('12.1234567'))).toBe('expected a non-negative decimal amount with at most 6 decimals')
    for (const bad of ['-1', '1.', '.5', '1e3', ' 1', 'x'])
      expect(firstMessage(decimalSchema().safeParse(bad)), bad).toBe('expected a non-negative decimal amount')
  })
})
