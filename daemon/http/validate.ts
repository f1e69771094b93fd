import type { z } from 'zod'
import { PrebuyError } from '../../src/common/errors.ts'

const issuesOf = (error: z.ZodError) => error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))

/** safeParse of a body: anything that does not fit is 400 Bad request / Invalid request body. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body)
  if (!result.success) {
    throw new PrebuyError('invalid_body', 'Invalid request body', { details: { issues: issuesOf(result.error) } })
  }
  return result.data
}

export function parseQuery<T extends z.ZodType>(schema: T, query: unknown): z.output<T> {
  const result = schema.safeParse(query)
  if (!result.success) {
    throw new PrebuyError('invalid_query', 'Invalid query parameters', { details: { issues: issuesOf(result.error) } })
  }
  return result.data
}

export const DEFAULT_PAGE_SIZE = 20
/** The spec clamps page sizes to 1..100 instead of rejecting them. */
export function clampLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PAGE_SIZE
  const value = Number(raw)
  return Math.min(100, Math.max(1, Number.isFinite(value) ? value : DEFAULT_PAGE_SIZE))
}
