import { defineConfig } from "vitest/config";

// Tiers, so each can be run alone: `unit` is pure (no process, no socket, no release: answers in seconds); `local`
// starts fixture programs, loopback servers or the CLI itself; `e2e` drives real claude releases from npm; `browser`
// opens reports in Chromium. `npm test` runs them all.
const E2E = "test/**/*.e2e.test.ts";
const BROWSER = "test/**/*.browser.test.ts";
const LOCAL = [
  "test/harness/**/*.test.ts",
  "test/cli/**/*.test.ts",
  "test/mock-api/server.test.ts",
  // They serve the mock on a loopback port (mock-fixture.ts) to drive it with the Anthropic SDK.
  "test/mock-api/request-log.test.ts",
  "test/mock-api/faults.test.ts",
  "test/mock-api/cache-usage.test.ts",
  "test/mock-api/strict.test.ts",
  "test/mock-api/recorder.test.ts",
  "test/mock-api/client-process.test.ts",
  "test/mock-api/sdk.test.ts",
  "test/mock-api/sdk-faults.test.ts",
  "test/releases/release-cache.test.ts",
  "test/releases/registry.test.ts",
  "test/releases/stale-lock.test.ts",
  // Runs npm to install a fixture dependency from a tarball on disk.
  "test/releases/release-dependencies.test.ts",
  "test/pipeline/confined-check.test.ts",
  "test/bisect/prefetch.test.ts",
  "test/examples/linked-types.test.ts",
  "test/architecture.test.ts",
  "test/knip.test.ts",
  // Builds a TypeScript program of the checkers' entry (seconds, not the unit tier's milliseconds).
  "test/docs/views-reference.test.ts",
  // Reads the built declarations in dist/ (the tier's global setup builds them).
  "test/docs/api-report.test.ts",
];

const shared = {
  // End-to-end tests drive real claude releases; each owns its run directory and ports.
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: "forks" as const,
};

export default defineConfig({
  test: {
    ...shared,
    // The JSON report feeds .ci/run's closing "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: "test-output/vitest.json" }]],
    projects: [
      // Pure tests share one module graph per worker (isolate: false): each file importing the scenarios, the kit and
      // zod afresh in a fresh process was most of the tier's time (120 s on 2 cores, import 46 s of it). A test that
      // needs its own copy of a module's state imports it after vi.resetModules() (test/kit/legacy.test.ts). Nothing
      // here starts a process or opens a port, so it takes every core (vitest's default leaves one free); vitest runs
      // projects of different maxWorkers in separate groups, hence groupOrder: the unit tier first, then the rest.
      { test: { ...shared, name: "unit", include: ["test/**/*.test.ts"], exclude: [E2E, BROWSER, ...LOCAL], isolate: false, maxWorkers: "100%", sequence: { groupOrder: 0 } } },
      // The tiers that start the CLI run it from a current dist/, as a fresh clone and an installed package do.
      { test: { ...shared, name: "local", sequence: { groupOrder: 1 }, include: LOCAL, exclude: [E2E, BROWSER], globalSetup: ["test/build-current.ts"] } },
      // The nightly's end-to-end test opens its report too.
      { test: { ...shared, name: "e2e", sequence: { groupOrder: 1 }, include: [E2E], globalSetup: ["test/build-current.ts", "test/provision-chromium.ts"] } },
      { test: { ...shared, name: "browser", sequence: { groupOrder: 1 }, include: [BROWSER], globalSetup: ["test/build-current.ts", "test/provision-chromium.ts"] } },
    ],
  },
});
