import type { z } from 'zod'
import { PrebuyError } from '../../src/common/errors.ts'

/**
 * The admin API's one validation step, for the core and the devnet routes alike: a params, query or body that does not
 * fit its schema is a 400 `invalid_request`. The message is the first issue, path first ("creator: expected a
 * 0x-prefixed 20-byte hex address"), because the CLI prints it as the whole answer. A missing body counts as `{}`.
 */
export function parseRequest<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
  throw new PrebuyError('invalid_request', `${where}${issue?.message ?? 'invalid request'}`)
}
