import { configDefaults, defineConfig } from 'vitest/config'

const TEST_FILES = ['test/**/*.test.ts', 'test/**/*.test.tsx']
const UNIT_FILES = ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx']
/**
 * Pure tests that measure the heap (retained bytes after a full collection): in a shared worker another file's leftovers
 * (a pending timer's allocation, its module graph) count in their measurement (a CI run measured 348 kB against a
 * bound of 330 kB), so they run isolated.
 */
const HEAP_MEASURING_FILES = ['test/unit/common/compact-strings.test.ts', 'test/unit/daemon/process/bound-heap-growth.test.ts']

export default defineConfig({
  test: {
    // Each project names its own files (an `include` here would be added to both projects' lists).
    // Suites start real anvil chains and daemons: at most two files at once on CI's 2 cores, and timeouts that only
    // catch a hang. A test's own waits carry their deadlines and say what never happened; the test budget must stay
    // well above them, or a slow machine turns into a bare "timed out" (a CI run under load timed out the console
    // end-to-end test at the former 60 s; end-to-end tests took up to 44 s here with three CPU hogs on two cores).
    testTimeout: 300_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      {
        extends: true,
        // The pure tests (no chain, no daemon, no files, no network) share their worker's module graph instead of
        // loading it again for each of their ~130 files: 77 s of CPU became 32 s for the same 734 tests
        // (docs/test-timing.md). A pure test that changes global state (fake timers, spies) restores it in its own hooks.
        test: { name: 'unit', include: UNIT_FILES, exclude: [...configDefaults.exclude, ...HEAP_MEASURING_FILES], isolate: false },
      },
      {
        extends: true,
        test: { name: 'unit-heap', include: HEAP_MEASURING_FILES },
      },
      {
        extends: true,
        // Every other file keeps a fresh module graph: they hold daemons, stores and process-wide
        // hooks (signal handlers, the in-process CLI runner's output routing) that must not reach another file.
        test: { name: 'integration', include: TEST_FILES, exclude: [...configDefaults.exclude, 'test/unit/**'] },
      },
    ],
  },
})
