import { API_ERROR_CODES } from '../common/error-codes.ts'
import { STATUS_TITLES } from './http-status.ts'

/**
 * Examples for the OpenAPI document (issue 24: an example on every request and response), built from the document's
 * own schemas so they cannot disagree with them: a field's `examples` (set on the zod schema with `.meta`) wins, else
 * a value that fits its type, format, pattern and bounds. test/api/openapi.test.ts validates every example against its
 * schema.
 */
type Json = Record<string, unknown>

const EXAMPLE_BY_PATTERN: Record<string, string> = {
  '^0x[0-9a-fA-F]{40}$': '0x4200000000000000000000000000000000000006',
  '^[0-9]+(\\.[0-9]{1,6})?$': '100',
  '^[0-9]+(\\.[0-9]+)?$': '1.5',
}

const EXAMPLE_BY_FORMAT: Record<string, string> = {
  'date-time': '2026-11-26T06:00:00.000Z',
  email: 'team@example.com',
  uri: 'https://example.com',
}

function stringExample(schema: Json): string {
  const pattern = typeof schema.pattern === 'string' ? EXAMPLE_BY_PATTERN[schema.pattern] : undefined
  if (pattern !== undefined) return pattern
  const format = typeof schema.format === 'string' ? EXAMPLE_BY_FORMAT[schema.format] : undefined
  if (format !== undefined) return format
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY
  return 'example'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 7)))
}

/** An example value fitting `schema`; `$ref`s resolve against `components`. */
export function exampleOf(schema: Json, components: Record<string, Json>, depth = 0): unknown {
  if (depth > 20) return null
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if ('example' in schema) return schema.example
  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.replace('#/components/schemas/', '')]
    if (!target) throw new Error(`unknown $ref ${schema.$ref}`)
    return exampleOf(target, components, depth + 1)
  }
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  if ('default' in schema) return schema.default
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (Array.isArray(options) && schema.type === undefined && schema.properties === undefined) {
    const chosen = options.find((option) => option.type !== 'null') ?? options[0]
    return chosen ? exampleOf(chosen, components, depth + 1) : null
  }
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>
      return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, exampleOf(property, components, depth + 1)]))
    }
    case 'array': {
      const item = exampleOf((schema.items ?? {}) as Json, components, depth + 1)
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1)
      return Array.from({ length: count }, () => item)
    }
    case 'string':
      return stringExample(schema)
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return null
  }
}

/** The error body a documented status sends: its title, the documented text, and the first public code it names. */
export function errorExample(status: number, description: string): Json {
  const code = description.match(/[a-z][a-z0-9]*(?:_[a-z0-9]+)+/g)?.find((word) => (API_ERROR_CODES as readonly string[]).includes(word))
  return { error: STATUS_TITLES[status] ?? 'Error', message: description, ...(code ? { code } : {}) }
}
