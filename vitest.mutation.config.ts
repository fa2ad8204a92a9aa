// The unit tests mutation testing runs against (stryker.config.mjs): the checkers' and the scenarios' (their `check`
// on recorded runs, and the registry), without the end-to-end tests that run real releases.
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/checker/**/*.test.ts", "test/scenarios/*.test.ts"],
    exclude: [...configDefaults.exclude, "**/*.e2e.test.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
