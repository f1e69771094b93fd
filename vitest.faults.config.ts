import { defineConfig } from 'vitest/config'

/**
 * `npm run test:faults`: the long fault-injection suites (crash rounds, ...). One file at a time: each starts its own
 * daemons and chains and measures; figures land in fault-report/ and are merged into fault-report.json.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.faults.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
})
