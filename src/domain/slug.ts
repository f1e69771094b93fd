import { z } from 'zod'

/** Project slugs: lower-case letters, digits and single dashes, 1 to 64 characters; safe inside index keys. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$/
export const isValidSlug = (value: string): boolean => SLUG_PATTERN.test(value)

/** A project slug as zod validates it at the edges: what the project service accepts, so the admin API refuses the same ones. */
export const slugSchema = z.string().regex(SLUG_PATTERN, { error: 'expected a lower-case slug (a-z, 0-9 and single inner dashes; 1 to 64 characters)' })
