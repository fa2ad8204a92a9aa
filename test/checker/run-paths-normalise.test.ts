// The run-paths rule on the directories a real run has: names with regex metacharacters, an empty prefix from a
// layout field left blank, and the placeholders runPathsOf gives each isolated directory.
import { describe, expect, it } from "vitest";
import { CROSS_RUN_RULES, normaliseAcrossRuns, runPathsOf } from "../../checker/cross-run-normalise.ts";
import { runLayout } from "../../harness/run-layout.ts";

const runPathsRule = CROSS_RUN_RULES.find((r) => r.name === "run-paths")!;

describe("run-paths", () => {
  it("matches a directory name holding regex metacharacters literally", () => {
    // mkdtemp names and version-stamped run directories carry dots, plus signs and brackets.
    const runPaths = [{ prefix: "/tmp/run.2.1+[x]", placeholder: "<run>" }];
    expect(runPathsRule.apply("cwd /tmp/run.2.1+[x]/iso/work", { runPaths })).toBe("cwd <run>/iso/work");
    expect(runPathsRule.apply("cwd /tmp/runX2Y11x/iso/work", { runPaths })).toBe("cwd /tmp/runX2Y11x/iso/work");
  });

  it("skips an empty prefix instead of stamping its placeholder between every character", () => {
    const runPaths = [
      { prefix: "", placeholder: "<tmp>" },
      { prefix: "/runs/r1", placeholder: "<run>" },
    ];
    expect(runPathsRule.apply("ab /runs/r1/x", { runPaths })).toBe("ab <run>/x");
  });
});

describe("runPathsOf", () => {
  it("gives each isolated directory its own placeholder, the run root last", () => {
    const layout = runLayout("/runs/r9");
    expect(runPathsOf(layout)).toEqual([
      { prefix: layout.tmp, placeholder: "<tmp>" },
      { prefix: layout.work, placeholder: "<work>" },
      { prefix: layout.home, placeholder: "<home>" },
      { prefix: layout.config, placeholder: "<config>" },
      { prefix: "/runs/r9", placeholder: "<run>" },
    ]);
    expect(normaliseAcrossRuns(`${layout.home}/.bashrc ${layout.config}/settings.json`, { runPaths: runPathsOf(layout) })).toBe("<home>/.bashrc <config>/settings.json");
  });
});
