import { getAddress, isAddress, type Address } from 'viem'
import { z } from 'zod'

/**
 * The input rules shared by every edge that validates with zod (config file, chain settings, deployment records, the
 * admin API); the slug and decimal rules live with their domain rules (src/domain/slug.ts, decimal.ts), each written once with one message. Messages read after the field's path: "creator: expected ...".
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

/**
 * An address in a configuration: all lower-case (or all upper-case) hex is accepted and normalised to its EIP-55
 * checksum form; mixed case must be a correct checksum (a wrong one means a mistyped character), else it is refused.
 */
export const configAddressSchema = addressSchema
  .refine((value: string) => !(/[a-f]/.test(value.slice(2)) && /[A-F]/.test(value.slice(2))) || isAddress(value, { strict: true }), {
    error: 'mixed-case address with a wrong EIP-55 checksum (a mistyped character?): paste it exactly as published, or all lower-case',
  })
  .transform((value) => getAddress(value))

/** The same rule, normalised to the checksum form (for addresses compared or shown later). */
export const checksumAddressSchema = addressSchema.transform((value) => getAddress(value))

/**
 * A web URL: http or https only. Every URL the service accepts and may later show (registration project URLs, which
 * become the public website URL; the operator's profile edits) goes through it, so `javascript:`, `data:` or `file:`
 * never reach a page or a terminal as a link.
 */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: 'expected an http or https URL' })
