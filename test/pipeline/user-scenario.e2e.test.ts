// A user's own scenario, end to end on real releases: examples/my-bug.ts (the README's) copied into a fresh folder
// outside the checkout, run, re-checked from its run directory, bisected and guarded by a nightly through the CLI;
// and `ccrepro new`'s output run unchanged. 2.1.259 → 2.1.260 is where its finding appears (bisected 2026-11-30 from
// 2.1.234 GREEN .. 2.1.281 RED); 2.1.332 stands in for `latest` so the test does not move with each release.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS } from "../e2e-run.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "bin", "ccrepro.mjs");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-user-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
fs.copyFileSync(path.join(ROOT, "examples", "my-bug.ts"), path.join(folder, "my-bug.ts"));

const ccrepro = (args: string[]) => execa("node", [CLI, ...args], { cwd: folder, reject: false, timeout: E2E_TIMEOUT_MS });
const runsDir = path.join(folder, "runs");

describe("a scenario file outside the checkout", () => {
  expect(path.relative(ROOT, folder).startsWith("..")).toBe(true);

  it("runs on a real release and gives the verdict its check computes; check re-judges it from the run's copy", async () => {
    const run = await ccrepro(["run", "./my-bug.ts", "--claude", "2.1.260", "--json", "--runs-dir", runsDir]);
    expect(run.exitCode, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout) as { runDir: string; verdict: string; findings: { id: string; red: boolean }[] };
    expect(result.verdict).toBe("RED");
    expect(result.findings.filter((f) => f.red).map((f) => f.id)).toEqual(["synthetic-prompt-indistinguishable"]);
    expect(fs.readFileSync(path.join(result.runDir, "scenario", "my-bug.ts"), "utf8")).toBe(fs.readFileSync(path.join(folder, "my-bug.ts"), "utf8"));
    // The original may change or go; the run directory's copy judges the run.
    fs.renameSync(path.join(folder, "my-bug.ts"), path.join(folder, "my-bug.ts.moved"));
    try {
      const check = await ccrepro(["check", result.runDir, "--json"]);
      expect(check.exitCode, check.stderr).toBe(1);
      const { verdict, findings } = JSON.parse(check.stdout) as typeof result;
      expect({ verdict, findings }).toEqual({ verdict: result.verdict, findings: result.findings });
      const issue = await ccrepro(["report", result.runDir, "--format", "issue"]);
      expect(issue.stdout).toContain("### my-hook-bug: RED on Claude Code 2.1.260");
      expect(issue.stdout).toContain("ccrepro run ./my-bug.ts --claude 2.1.260");
    } finally {
      fs.renameSync(path.join(folder, "my-bug.ts.moved"), path.join(folder, "my-bug.ts"));
    }
  }, E2E_TIMEOUT_MS);

  it("bisects between two releases", async () => {
    const bisect = await ccrepro(["bisect", "./my-bug.ts", "--old", "2.1.259", "--new", "2.1.260", "--json", "--runs-dir", runsDir]);
    expect(bisect.exitCode, bisect.stderr).toBe(0);
    const result = JSON.parse(bisect.stdout) as { answer: { lastOld: string; firstNew: string }; old: { outcome: unknown }; new: { outcome: unknown } };
    expect(result.answer).toMatchObject({ lastOld: "2.1.259", firstNew: "2.1.260" });
  }, E2E_TIMEOUT_MS);

  it("is a nightly cell when the config names its path", async () => {
    const config = {
      scenarios: ["./my-bug.ts"],
      versions: ["2.1.260"],
      expectations: [{ scenario: "./my-bug.ts", versions: ">=2.1.260", verdict: "RED", finding: "synthetic-prompt-indistinguishable", reason: "bisected: appears in 2.1.260" }],
    };
    fs.writeFileSync(path.join(folder, "nightly.json"), JSON.stringify(config));
    const out = path.join(folder, "nightly");
    const nightly = await ccrepro(["nightly", "--config", "nightly.json", "--out", out]);
    expect(nightly.exitCode, nightly.stderr).toBe(0);
    const summary = JSON.parse(fs.readFileSync(path.join(out, "summary.json"), "utf8")) as { cells: { key: string; verdict: string; status: string }[] };
    expect(summary.cells.map((c) => [c.key, c.verdict, c.status])).toEqual([["my-hook-bug@2.1.260", "RED", "expected"]]);
  }, E2E_TIMEOUT_MS);
});

describe("ccrepro new", () => {
  it("writes a scenario that runs unchanged and gives a real verdict", async () => {
    const written = await ccrepro(["new", "my-first-bug"]);
    expect(written.exitCode, written.stderr).toBe(0);
    const run = await ccrepro(["run", "./my-first-bug.ts", "--claude", "2.1.332", "--json", "--runs-dir", runsDir]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ verdict: "GREEN", findings: [] });
  }, E2E_TIMEOUT_MS);

  it("--from copies a built-in that loads under its new name", async () => {
    const written = await ccrepro(["new", "my-hooks", "--from", "hook-task-notification-prompt"]);
    expect(written.exitCode, written.stderr).toBe(0);
    const text = fs.readFileSync(path.join(folder, "my-hooks.ts"), "utf8");
    expect(text).toContain('from "ccrepro"');
    expect(text).toContain('name: "my-hooks"');
    // The mock serves the copy's script: the file loads as a scenario (then the mock is stopped).
    const mock = execa("node", [CLI, "mock", "--scenario", "./my-hooks.ts", "--log-dir", path.join(folder, "mock")], { cwd: folder, reject: false });
    const url = await new Promise<string>((resolve, reject) => {
      mock.stdout!.on("data", (chunk: Buffer) => {
        const m = /mock Messages API at (\S+)/.exec(String(chunk));
        if (m) resolve(m[1]!);
      });
      mock.on("exit", () => reject(new Error("the mock exited")));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    mock.kill("SIGTERM");
    await mock;
  }, 60_000);

  it("refuses a bad name or an existing file, exit 3", async () => {
    expect((await ccrepro(["new", "My Bug"])).exitCode).toBe(3);
    const again = await ccrepro(["new", "my-first-bug"]);
    expect(again.exitCode).toBe(3);
    expect(again.stderr).toContain("my-first-bug.ts already exists");
  });
});
