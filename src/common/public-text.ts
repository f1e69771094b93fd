import { z } from 'zod'

/**
 * The one text rule for every field someone outside the operators types and someone else later reads (labels,
 * registration and key-request fields, feedback, profile fields, dev-buy token name and metadata): such text is shown
 * on public pages, in the operator's terminal and, for a dev-buy token, written on chain, so it must not be able to
 * change how the text around it reads. Refused (issue 24):
 * - C0 controls (U+0000-U+001F) except a newline and a tab in multi-line fields, DEL (U+007F), C1 controls
 *   (U+0080-U+009F): they drive terminals (ESC, CSI, a carriage return rewriting the line);
 * - the bidi controls: embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069, the marks U+200E and U+200F
 *   (U+202E turns "gpj.exe" into what reads as "exe.jpg");
 * - zero-width characters U+200B-U+200D, the word joiner U+2060 and U+FEFF (a name that looks identical to another);
 * - the line and paragraph separators U+2028 and U+2029 (a line break no one sees as one).
 * Text is trimmed first; lengths are bounded per field. The rule is a pattern, so the OpenAPI document shows it.
 */
export const REFUSED_CLASS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u200b-\\u200f\\u2028-\\u202e\\u2060\\u2066-\\u2069\\ufeff'

/** One line: the tab and newline refused as well. */
const SINGLE_LINE = new RegExp(`^[^\\t\\n${REFUSED_CLASS}]*$`, 'u')
/** Several lines: a newline and a tab allowed, nothing else of the classes above (a carriage return neither). */
const MULTI_LINE = new RegExp(`^[^${REFUSED_CLASS}]*$`, 'u')

const SINGLE_LINE_MESSAGE = 'must be one line of text without control, bidi or zero-width characters'
const MULTI_LINE_MESSAGE = 'must be text without control (other than newline and tab), bidi or zero-width characters'

/** Whether a value passes the text rule (used where a value is checked outside zod, e.g. a label made by the service). */
export const isPublicText = (value: string, options: { multiline?: boolean } = {}): boolean => (options.multiline ? MULTI_LINE : SINGLE_LINE).test(value)

export interface PublicTextOptions {
  /** Fewest characters after trimming; default 1 (0 allows an empty value). */
  min?: number
  max: number
  /** Newlines and tabs allowed (descriptions, paragraphs, messages). */
  multiline?: boolean
}

/** The text rule as a zod schema: trimmed, bounded, one line unless `multiline`. */
export const publicText = ({ min = 1, max, multiline = false }: PublicTextOptions) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .regex(multiline ? MULTI_LINE : SINGLE_LINE, { error: multiline ? MULTI_LINE_MESSAGE : SINGLE_LINE_MESSAGE })

/**
 * Plain text that is never markup: the text rule plus no `<` or `>`. Refused rather than escaped, because the value is
 * written on chain (a dev-buy token's metadata) where every reader renders it its own way and no escaping of ours
 * follows it; JSON (Clanker's metadata is a JSON string of description and links) needs neither character.
 */
export const plainText = ({ min = 0, max }: { min?: number; max: number }) =>
  publicText({ min, max, multiline: true }).regex(/^[^<>]*$/, { error: 'must be plain text: no < or >' })

/**
 * A token symbol: ASCII letters, digits and `$ . _ -`, 1 to `max` characters (no spaces, nothing invisible, nothing
 * that reads differently from what it is). Launchpads take any string; wallets and explorers show symbols next to
 * prices, where a look-alike is the attack.
 */
export const tokenSymbol = (max: number) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^[A-Za-z0-9$._-]{1,${max}}$`), { error: `must be 1 to ${max} ASCII letters, digits or $ . _ -` })

/** A social handle: `@` and 1 to 64 letters, digits, `_`, `.` or `-` (spec 2.1's projectUrls: "site, repository, socials"). */
export const SOCIAL_HANDLE_PATTERN = /^@[A-Za-z0-9_.-]{1,64}$/
export const socialHandleSchema = z
  .string()
  .regex(SOCIAL_HANDLE_PATTERN, { error: 'expected an http or https URL, or a social handle (@ and 1 to 64 letters, digits, _ . -)' })
