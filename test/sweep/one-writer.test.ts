// One --out has one writer (issue 27, item 9), with a stand-in runner (no claude): a second sweep into a folder a live
// sweep writes refuses, naming it, and runs nothing; once the first is done, the second resumes from its results and
// none is lost; a dead sweep's claim is taken over.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ownerToken } from "../../core/process-owner.ts";
import { afterAll, describe, expect, it } from "vitest";
import { WRITER_FILE } from "../../core/folder-writer.ts";
import type { CheckResult } from "../../core/verdict.ts";
import type { ReleaseRunner } from "../../pipeline/run-scenario.ts";
import type { InstalledRelease } from "../../releases/release-cache.ts";
import { findScenario } from "../../scenarios/index.ts";
import { runSweep } from "../../sweep/run-sweep.ts";

const scenario = findScenario("subagent-resume-notification-header")!;
const VERSIONS = ["2.1.250", "2.1.251", "2.1.270"];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-one-writer-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const GREEN: CheckResult = { verdict: "GREEN", reason: "held", findings: [], notes: [] };

function standIn(outDir: string, ran: string[], delayMs: number): ReleaseRunner {
  return {
    async prefetch(version) {
      return { version, fetchMs: 1, downloadedBytes: 1, fromCache: false } as InstalledRelease;
    },
    async run(_subject, version) {
      ran.push(version);
      const runDir = path.join(outDir, "runs", `run-${version}`);
      fs.mkdirSync(runDir, { recursive: true });
      await new Promise((r) => setTimeout(r, delayMs));
      return { installed: true, runDir, record: { result: GREEN } } as never;
    },
  };
}

const sweep = (outDir: string, runner: ReleaseRunner) => runSweep({ scenario, params: {}, versionsWord: "test", versions: VERSIONS, repeat: 1, concurrency: 1, outDir, runner });

describe("two sweeps into one --out", () => {
  it("the second refuses while the first writes, then resumes from its results; none is lost", async () => {
    const out = path.join(tmp, "shared");
    const first: string[] = [];
    const second: string[] = [];
    const running = sweep(out, standIn(out, first, 100));
    await new Promise((r) => setTimeout(r, 20));
    await expect(sweep(out, standIn(out, second, 1))).rejects.toThrow(`${out} is being written by pid ${process.pid} (ccrepro sweep, since `);
    const done = await running;
    expect(done.file.results.map((r) => r.version)).toEqual(VERSIONS);
    const resumed = await sweep(out, standIn(out, second, 1));
    expect(second).toEqual([]);
    expect(resumed.file.results.map((r) => r.version)).toEqual(VERSIONS);
    expect(fs.existsSync(path.join(out, WRITER_FILE))).toBe(false);
  });

  it("a claim left by a sweep that died is taken over", async () => {
    const out = path.join(tmp, "dead");
    fs.mkdirSync(out, { recursive: true });
    const [, , namespace, boot] = ownerToken().split(":");
    fs.writeFileSync(path.join(out, WRITER_FILE), JSON.stringify({ owner: `999999999:1:${namespace}:${boot}`, what: "ccrepro sweep", since: "2026-12-01T00:00:00.000Z" }));
    const ran: string[] = [];
    const done = await sweep(out, standIn(out, ran, 1));
    expect(ran).toEqual(VERSIONS);
    expect(done.file.results).toHaveLength(VERSIONS.length);
  });

  it("a claim whose owner cannot be judged from here (another pid namespace, an older ccrepro's token) is not taken over", async () => {
    const [, , , boot] = ownerToken().split(":");
    for (const [name, owner] of [["other-namespace", `999999999:1:1:${boot}`], ["legacy", "999999999:1"]] as const) {
      const out = path.join(tmp, name);
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(path.join(out, WRITER_FILE), JSON.stringify({ owner, what: "ccrepro sweep", since: "2026-12-01T00:00:00.000Z" }));
      const ran: string[] = [];
      await expect(sweep(out, standIn(out, ran, 1))).rejects.toThrow(/whether it still runs cannot be told from here: .*; if no ccrepro is writing it, delete /);
      expect(ran).toEqual([]);
    }
  });
});
