// What a run's ERROR says when a release reports no version: why, in one line, from what `--version` did.
import { describe, expect, it } from "vitest";
import { versionFailure } from "../../releases/capabilities.ts";

describe("versionFailure", () => {
  it("names the first error line of stderr (0.2.100's missing dependency), a hang, or the exit", () => {
    const stderr = "node:internal/modules/esm/resolve:873\n  throw new ERR_MODULE_NOT_FOUND(...)\n        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'better-sqlite3' imported from /x/cli.js\n    at packageResolve";
    expect(versionFailure({ stderr, exitCode: 1, timedOut: false })).toBe("`--version` failed: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'better-sqlite3' imported from /x/cli.js");
    expect(versionFailure({ stderr: "", exitCode: null, timedOut: true })).toBe("`--version` hung");
    expect(versionFailure({ stderr: "nothing to see", exitCode: 0, timedOut: false })).toBe("`--version` printed no version (exit 0)");
  });
});
