import { getAddress, isAddress, type Address } from 'viem'
import { z } from 'zod'
import { REFUSED_CLASS, socialHandleSchema } from './public-text.ts'

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
 * become the public website URL; the operator's profile edits; a dev-buy token's image, written on chain) goes through
 * it, so `javascript:`, `data:`, `ftp:` or `file:` never reach a page or a terminal as a link. The pattern repeats the
 * scheme for the OpenAPI document (where `format: uri` alone allows any scheme) and adds the text rule of
 * public-text.ts: no space, control, bidi or zero-width character anywhere (the URL parser would percent-encode them
 * in its copy, but the string kept and shown is the one given).
 */
export const httpUrlSchema = z
  .string()
  // Before the URL check: zod's URL check drops tabs and newlines from the value it passes on.
  .regex(new RegExp(`^[hH][tT][tT][pP][sS]?://[^\\s${REFUSED_CLASS}]+$`, 'u'), {
    error: 'expected an http or https URL without spaces, control, bidi or zero-width characters',
  })
  .check(z.url({ protocol: /^https?$/, error: 'expected an http or https URL' }))

/** A project URL (spec 2.1 projectUrls: "site, repository, socials"): an http(s) URL or a social handle such as `@moon`. */
export const projectUrlSchema = z.union([httpUrlSchema.max(2000), socialHandleSchema])
