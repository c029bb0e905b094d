import { configDefaults, defineConfig } from "vitest/config";

/**
 * Two tiers, every check kept. `npm test` runs the fast tier (every `*.test.ts` that is not slow);
 * `npm run test:slow` the slow one (`*.slow.test.ts`: full-size Monte Carlo runs, the path sweep,
 * the packed package, the soak, the browser, the reference harness, the kill -9 suites, and the
 * files that start many child processes or fault-injecting servers);
 * `npm run test:all` both, which is what CI runs. A test is slow because of what it does (a
 * simulation at full size, many child processes), never because of the machine it runs on.
 */
const SLOW = "test/**/*.slow.test.ts";

export default defineConfig({
  test: {
    // The CLI tests spawn the real binary a few times; give them room on a shared machine.
    testTimeout: 30_000,
    // Setup hooks run a small reference run or start servers; on a loaded machine 10 s is not enough.
    hookTimeout: 120_000,
    // Fixtures many files read (a reference run and its summary) are built once per test run.
    globalSetup: ["test/helpers/global-setup.ts"],
    // No test writes the user's cache folder (~/.cache/fabench): every CLI a test spawns with this
    // process's environment inherits this; the cache's own tests give FABENCH_CACHE_DIR a temp folder.
    env: { FABENCH_NO_CACHE: "1" },
    projects: [
      {
        extends: true,
        // Most fast tests wait on child processes and loopback servers, so two workers on a 2-core
        // machine keep both cores busy (vitest's default there is one).
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, SLOW],
          maxWorkers: 2,
          // Projects with different worker counts must run in groups of their own: the fast tier
          // first, then the slow one (whose long, CPU-bound runs keep vitest's default of one).
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "slow", include: [SLOW], testTimeout: 900_000, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
