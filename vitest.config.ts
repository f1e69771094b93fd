import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Suites start real anvil chains and daemons: at most two files at once on CI's 2 cores, and timeouts that only
    // catch a hang. A test's own waits carry their deadlines and say what never happened; the test budget must stay
    // well above them, or a slow machine turns into a bare "timed out" (a CI run under load timed out the console
    // end-to-end test at the former 60 s; end-to-end tests took up to 44 s here with three CPU hogs on two cores).
    testTimeout: 300_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
})
