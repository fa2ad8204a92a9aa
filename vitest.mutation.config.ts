// The unit tests mutation testing runs against (stryker.config.mjs): the checker's and the scenario registry's.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/checker/**/*.test.ts", "test/scenarios/registry.test.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
