// The run directory of a scenario that was not run because the release lacks what it needs: run.json alone, so the
// UNSUPPORTED verdict is reproducible (`ccrepro check`) and shows in reports like any other run.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { BinaryProbe } from "../releases/capabilities.ts";
import type { ResolvedClaude } from "../releases/resolve.ts";
import type { RunPlan } from "./plan.ts";
import { binaryRecord, recordSource, runDirName } from "./record-run.ts";
import { runLayout } from "./run-layout.ts";
import { RUN_FORMAT, writeRunRecord, type RunRecord } from "./run-record.ts";

export interface UnsupportedRun {
  plan: Pick<RunPlan, "scenario" | "params" | "source">;
  // The driver the run would have used (headless, sdk, terminal), as run.json records it for every run.
  driver: string;
  claude: ResolvedClaude;
  probe: BinaryProbe;
  requested: string;
  runsDir: string;
  // The needs the release lacks, and the sentence that names them.
  missing: string[];
  message: string;
}

export function recordUnsupportedRun(run: UnsupportedRun): { runDir: string; record: RunRecord } {
  const { plan, claude, probe } = run;
  const id = crypto.randomBytes(8).toString("hex");
  const now = new Date();
  const layout = runLayout(path.resolve(run.runsDir, runDirName(plan.scenario, claude.version ?? probe.reportedVersion ?? "local", id)));
  fs.mkdirSync(layout.root, { recursive: true });
  const record: RunRecord = {
    format: RUN_FORMAT,
    id,
    scenario: plan.scenario,
    params: plan.params,
    // A file scenario's source is kept even when it did not run, so `ccrepro check` can judge the directory alone.
    source: recordSource(layout, plan.source ?? { kind: "builtin", name: plan.scenario }),
    driver: run.driver,
    sdk: null,
    claude: binaryRecord(claude, probe, run.requested),
    mock: { url: "", script: null },
    platform: `${process.platform}-${process.arch}`,
    hookEvents: [],
    startedAt: now.toISOString(),
    endedAt: now.toISOString(),
    wallMs: 0,
    floorMs: null,
    steps: [],
    stepsSkipped: [],
    sessions: [],
    outbound: { attempts: 0, forwardedToMock: 0 },
    processes: { killedAtEnd: 0, survivors: [], outsideRemoved: [], orphansReaped: [] },
    hooks: { calls: 0, medianMs: null, maxMs: null },
    harnessError: null,
    recordingComplete: true,
    result: null,
    checkMs: null,
    unsupported: { missing: run.missing, message: run.message },
  };
  writeRunRecord(layout.runJson, record);
  return { runDir: layout.root, record };
}
