import { getAddress, type Address } from 'viem'
import { z } from 'zod'
import { DECIMAL_PATTERN } from '../domain/decimal.ts'
import { SLUG_PATTERN } from '../domain/slug.ts'

/**
 * The input rules shared by every edge that validates with zod (config file, chain settings, deployment records, the
 * admin API), each written once with one message. Messages read after the field's path: "creator: expected ...".
 */

const ADDRESS_MESSAGE = 'expected a 0x-prefixed 20-byte hex address'

/**
 * An EVM address: 0x and 20 bytes of hex in any case, kept as given. The checksum is not enforced, as viem's
 * `isAddress(value, { strict: false })`: operators paste lower-case addresses.
 */
export const addressSchema = z.string({ error: ADDRESS_MESSAGE }).regex(/^0x[0-9a-fA-F]{40}$/, { error: ADDRESS_MESSAGE }) as unknown as z.ZodType<
  Address,
  string
>

/** The same rule, normalised to the checksum form (for addresses compared or shown later). */
export const checksumAddressSchema = addressSchema.transform((value) => getAddress(value))

/** A project slug (src/domain/slug.ts): what the project service accepts, so the admin API refuses the same ones. */
export const slugSchema = z.string().regex(SLUG_PATTERN, { error: 'expected a lower-case slug (a-z, 0-9 and single inner dashes; 1 to 64 characters)' })

/** A non-negative decimal amount as a string ("12.5"), as src/domain/decimal.ts parses it; at most `maxDecimals` fraction digits when given. */
export function decimalSchema(maxDecimals?: number) {
  const error =
    maxDecimals === undefined ? 'expected a non-negative decimal amount' : `expected a non-negative decimal amount with at most ${maxDecimals} decimals`
  const amount = z.string({ error }).regex(DECIMAL_PATTERN, { error })
  return maxDecimals === undefined ? amount : amount.refine((value) => (value.split('.')[1] ?? '').length <= maxDecimals, { error })
}
