import fc from 'fast-check'

/**
 * A random launch book for the batch clearing's property tests (plan-batch-ahead.test.ts, compact-batch-commit.test.ts):
 * up to 40 orders, each limited or not and spending a share (`cut`, per mille) of its max, limits on or off, a gas cut
 * per transaction, and the pool function (the formula, the real swap's quote, a quote returning nothing). Spread into a
 * test's own `fc.record` beside what that test varies.
 */
export const randomBatchBook = {
  orders: fc.array(fc.record({ limited: fc.boolean(), cut: fc.oneof(fc.constant(1000), fc.integer({ min: 0, max: 1000 })) }), {
    minLength: 1,
    maxLength: 40,
  }),
  withLimits: fc.boolean(),
  maxBuyersPerTransaction: fc.integer({ min: 1, max: 50 }),
  pool: fc.constantFrom('formula' as const, 'quote' as const, 'empty' as const),
}
