import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests drive real claude releases; each owns its run directory and ports.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The JSON report feeds .ci/run's closing "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: "test-output/vitest.json" }]],
  },
});
