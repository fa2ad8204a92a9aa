// Unused files, exports and dependencies are found by a tool, not by a reviewer's memory: knip (knip.config.ts) over
// the whole tree, and again without the tests, where an export only a test uses must be tagged @internal.
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..");
const knip = (...args: string[]) => execa(process.execPath, [path.join(ROOT, "node_modules", "knip", "bin", "knip.js"), "--no-progress", "--no-config-hints", ...args], { cwd: ROOT, reject: false });

describe("knip", () => {
  it.each([
    { mode: "the whole tree", args: [] },
    { mode: "production: the tests left out", args: ["--production"] },
  ])("finds nothing unused in $mode", async ({ args }) => {
    const result = await knip(...args);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  }, 120_000);
});
