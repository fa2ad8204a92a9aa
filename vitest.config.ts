import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests drive real claude releases; each owns its run directory and ports.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
