import { z } from 'zod'
import { plainText, publicText, tokenSymbol } from '../common/public-text.ts'
import { httpUrlSchema } from '../common/schemas.ts'

/** Bounds of the dev-buy token's texts (Clanker stores them as strings; long ones cost gas and clutter every listing). */
export const DEV_BUY_TEXT_LIMITS = { name: 64, symbol: 16, image: 512, metadata: 2_000 } as const

/**
 * The dev-buy token's texts, written on chain by the launch and shown on the public project: the name under the text
 * rule, the symbol in a plain ASCII set, the image an http(s) URL (or empty), the metadata plain text without markup
 * (`<` and `>` refused, not escaped: no escaping of ours follows the value on chain). One definition for the public
 * API's body, the admin API's (the same body) and the service's own check.
 */
export const devBuyTextFields = {
  name: publicText({ max: DEV_BUY_TEXT_LIMITS.name }).describe(
    'Token name, 1 to 64 characters (trimmed; one line, no control, bidi or zero-width characters).',
  ),
  symbol: tokenSymbol(DEV_BUY_TEXT_LIMITS.symbol).describe('Token symbol, 1 to 16 ASCII letters, digits or $ . _ - (trimmed).'),
  image: z
    .union([httpUrlSchema.max(DEV_BUY_TEXT_LIMITS.image), z.literal('')])
    .optional()
    .describe('Image URL (http or https), up to 512 characters; empty for none.'),
  metadata: plainText({ max: DEV_BUY_TEXT_LIMITS.metadata })
    .optional()
    .describe(
      'Plain text stored with the token on chain (description, links; JSON is fine), up to 2,000 characters: newlines and tabs allowed, no other control, bidi or zero-width characters, and no < or > (refused, not escaped: the value is written on chain).',
    ),
}

export const devBuyTextSchema = z.object(devBuyTextFields)
