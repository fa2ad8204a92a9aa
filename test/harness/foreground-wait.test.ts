// foregroundWait as the releases' Bash tool runs it: in bash, the time asked, and never the bare `sleep N` they refuse
// as a first command. Local tier: it spawns bash.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { foregroundWait } from "../../kit/index.ts";

describe("foregroundWait", () => {
  // The releases' check of a foreground Bash call, as their bundles write it (2.1.101 and 2.1.332 alike): the first
  // command of the call, trimmed, against /^sleep\s+N\s*$/; a match of at least the threshold (2 s, 25 s) is refused.
  const firstCommand = (cmd: string) => cmd.trim().split(/[;|&\r\n]/)[0]!.trim();
  it("waits the time asked in one shell, and is not the bare sleep the releases refuse", () => {
    const cmd = `${foregroundWait(300)}; echo fg-done`;
    expect(firstCommand(cmd)).not.toMatch(/^sleep\s+(\d+(?:\.\d*)?)\s*$/);
    const started = performance.now();
    expect(execFileSync("/bin/bash", ["-c", cmd], { encoding: "utf8" })).toBe("fg-done\n");
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });
});
