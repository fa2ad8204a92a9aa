// Mutation testing of the checker and the scenarios' check functions against the unit tests (`npm run mutation`;
// slow, outside CI). Stryker 9.x: 10.x needs Node 22.
import fs from "node:fs";

// Each scenario's `check(…) { … }` method, as a line range, found afresh so edits above it do not shift the range.
function checkRanges() {
  return fs
    .readdirSync("scenarios")
    .filter((name) => name.endsWith(".ts") && name !== "index.ts")
    .flatMap((name) => {
      const lines = fs.readFileSync(`scenarios/${name}`, "utf8").split("\n");
      // `check(rec) { … },` or `check: (rec) => …,`: it ends where the next property of the scenario begins.
      const start = lines.findIndex((line) => /^ {2}check[(:]/.test(line));
      const next = lines.findIndex((line, i) => i > start && /^ {2}\S/.test(line));
      if (start === -1 || next === -1) return [];
      const end = lines[next] === "  }," ? next : next - 1;
      return [`scenarios/${name}:${start + 1}-${end + 1}`];
    });
}

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: [
    "checker/**/*.ts",
    // Human-readable layout only (timeline columns, hook timing tables, unified diffs): no verdict depends on them.
    "!checker/format-hooks.ts",
    "!checker/timeline-format.ts",
    "!checker/text-diff.ts",
    ...checkRanges(),
  ],
  coverageAnalysis: "perTest",
  // Static mutants (module-level constants) would each rerun the whole suite; the README's score leaves them out too.
  ignoreStatic: true,
  concurrency: 2,
  reporters: ["clear-text", "progress"],
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  // Results of unchanged mutants and tests are reused from the last run (reports/stryker-incremental.json).
  incremental: true,
  tempDirName: ".stryker-tmp",
  timeoutMS: 20_000,
  cleanTempDir: "always",
};
