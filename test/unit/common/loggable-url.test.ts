import { describe, expect, it } from 'vitest'
import { LOGGED_PATH_MAX, loggableUrl } from '../../../src/common/logger.ts'

describe('loggableUrl', () => {
  it('keeps a short path as it is', () => {
    expect(loggableUrl('/api/public/v1/orders')).toBe('/api/public/v1/orders')
  })

  it('replaces any query by its length: a key in ?api_key= never reaches a log', () => {
    expect(loggableUrl('/me?api_key=sk_secret&x=1')).toBe('/me?(query: 21 chars)')
    expect(loggableUrl('/me?')).toBe('/me?(query: 0 chars)')
  })

  it('cuts a long path at LOGGED_PATH_MAX characters and says how long it was', () => {
    const long = `/projects/${'a'.repeat(5_000)}`
    const logged = loggableUrl(`${long}?q=${'x'.repeat(9_000)}`)
    expect(logged).toBe(`${long.slice(0, LOGGED_PATH_MAX)}...(${long.length} chars)?(query: 9002 chars)`)
    expect(logged.length).toBeLessThan(LOGGED_PATH_MAX + 60)
  })
})
