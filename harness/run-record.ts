// run.json: everything needed to reproduce and audit a run from its directory alone.
import fs from "node:fs";
import path from "node:path";
import { readInside } from "./run-files.ts";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { checkResultSchema, type CheckResult } from "../core/verdict.ts";
import { writeFileWhole } from "../core/write-whole.ts";

export const stepRecordSchema = z.object({
  index: z.number().int(),
  kind: z.string(),
  label: z.string(),
  startedAt: z.number(),
  endedAt: z.number(),
  outcome: z.enum(["ok", "timeout", "error"]),
  detail: z.string().nullable(),
  // A timeout the scenario allowed (a watch, a wait with onTimeout "continue"): the run went on, and the verdict
  // stands, with the timeout printed beside it. Any other timeout leaves the run short of its point.
  mayTimeOut: z.boolean().optional(),
});
export type StepRecord = z.infer<typeof stepRecordSchema>;

// The run.json format this ccrepro writes. Older ones are migrated when read, in migrateRunRecord and nowhere else.
export const RUN_FORMAT = 2;

export const runRecordSchema = z.object({
  format: z.literal(RUN_FORMAT),
  id: z.string(),
  scenario: z.string(),
  // Where the scenario came from: a built-in by name, or a file copied into the run directory.
  source: z
    .discriminatedUnion("kind", [
      z.object({ kind: z.literal("builtin"), name: z.string() }),
      // `copy`: the file's source as it ran, relative to the run directory.
      // `data`: the files it read while loading (a recording beside it), copied at the same place beside the copy.
      z.object({ kind: z.literal("file"), path: z.string(), sha256: z.string(), copy: z.string(), data: z.array(z.object({ copy: z.string(), sha256: z.string() })).optional() }),
    ]),
  params: z.record(z.string(), z.unknown()),
  claude: z.object({
    // What the user asked for: a version word or a path.
    requested: z.string(),
    era: z.enum(["js", "native", "local"]),
    // What `--version` printed, parsed; null when the probe failed.
    reportedVersion: z.string().nullable(),
    executable: z.string(),
    command: z.string(),
    args: z.array(z.string()),
    sha256: z.string(),
    // The npm package@version the executable came from; null for a local binary and in runs recorded before.
    package: z.string().nullable().default(null),
    // The npm dependencies installed beside that package (name → version), where it declares any (0.2.90–0.2.109).
    dependencies: z.record(z.string(), z.string()).optional(),
  }),
  // How the sessions were driven (headless, sdk, terminal); null in runs recorded before it was recorded.
  driver: z.string().nullable().default(null),
  // The Agent SDK the sessions went through (driver "sdk"), next to the CLI version; null for other drivers.
  sdk: z.object({ requested: z.string(), version: z.string(), packageDir: z.string().optional() }).nullable().default(null),
  mock: z.object({ url: z.string(), script: z.unknown() }),
  // planFingerprint of what the run did (script, steps, limits): a recorded run is reused only for the same. Absent in
  // runs recorded before 2026-12-07 and in UNSUPPORTED ones, which are never reused.
  planSha256: z.string().optional(),
  // The machine the run was recorded on, e.g. linux-x64; absent in runs recorded before it was kept.
  platform: z.string().optional(),
  hookEvents: z.array(z.string()),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  // The whole recording: from its start to the end of cleanup.
  wallMs: z.number().nullable(),
  // From the first session's start to the moment the last awaited event was recorded.
  floorMs: z.number().nullable(),
  steps: z.array(stepRecordSchema),
  // The labels of the plan's steps that never ran, because an earlier one timed out (or the UI exited early).
  stepsSkipped: z.array(z.string()).default([]),
  sessions: z.array(
    z.object({
      label: z.string(),
      pid: z.number().nullable(),
      sessionId: z.string().nullable(),
      exitCode: z.number().nullable(),
      signal: z.string().nullable(),
    }),
  ),
  // attempts: connections the trap refused; forwardedToMock: CONNECTs to the mock it tunnelled (releases that ignore
  // NO_PROXY), absent in runs recorded before the tunnel existed.
  outbound: z.object({ attempts: z.number().int(), forwardedToMock: z.number().int().default(0) }),
  // The permission flags the harness chose for this release, and why; absent in older runs. `rules`: a plan's own
  // permission mode and allow/deny rules (mode "permission-mode"), written into the settings of `settings.hookSource`.
  permissions: z
    .object({
      mode: z.enum(["skip-permissions", "allowed-tools", "permission-mode"]),
      args: z.array(z.string()),
      why: z.string(),
      rules: z.object({ mode: z.string(), allow: z.array(z.string()), deny: z.array(z.string()) }).optional(),
      unavailable: z.string().optional(),
    })
    .optional(),
  // What the sessions read settings from: the setting sources asked for (passed where the release has
  // --setting-sources), the --settings file (relative to the run directory) or null, where the hook entries and
  // permission rules were declared, and the hook answer rules as the plan gave them. Absent in older runs (user only).
  settings: z
    .object({
      sources: z.array(z.enum(["user", "project", "local"])),
      flagFile: z.string().nullable(),
      hookSource: z.enum(["user", "project", "flag"]),
      hookAnswers: z.array(
        z.object({
          event: z.string(),
          matcher: z.string().optional(),
          replies: z.array(z.union([z.object({ exitCode: z.number().int(), stdout: z.string().optional(), stderr: z.string().optional() }), z.object({ shell: z.string() })])),
          timeoutSeconds: z.number().int().optional(),
        }),
      ),
    })
    .optional(),
  // The MCP servers every session was given (`--mcp-config mcp-config.json`), as the plan listed them; absent without.
  mcpServers: z.array(z.object({ name: z.string(), tools: z.array(z.string()), startupDelayMs: z.number().int().nonnegative() })).optional(),
  // Set when the scenario was not run because the release lacks what it needs (verdict UNSUPPORTED).
  unsupported: z.object({ missing: z.array(z.string()), message: z.string() }).optional(),
  processes: z.object({
    killedAtEnd: z.number().int(),
    survivors: z.array(z.number().int()),
    // What the run's processes left outside the run directory (daemon socket dirs, per-process sockets), now removed.
    outsideRemoved: z.array(z.string()).default([]),
    // What this run's ccrepro ended before it started: processes of other runs whose ccrepro is provably gone (same
    // user, same pid namespace), each with why; null when the automatic reap was off (CCREPRO_NO_REAP=1, --no-reap).
    orphansReaped: z
      .array(z.object({ runId: z.string(), owner: z.string(), why: z.string(), killed: z.array(z.number().int()), survivors: z.array(z.number().int()) }))
      .nullable()
      .default([]),
  }),
  hooks: z.object({ calls: z.number().int(), medianMs: z.number().nullable(), maxMs: z.number().nullable() }),
  // A failure of the harness itself (not of the binary): makes the verdict ERROR.
  harnessError: z.string().nullable(),
  // True once the harness finished writing the run; false means it was cut short and the logs may be partial.
  // Absent in run directories recorded before the flag existed, which were complete.
  recordingComplete: z.boolean().default(true),
  // The checker's verdict, added once by recordVerdict; null until judged.
  result: checkResultSchema.nullable(),
  // How long judging took, added with the verdict: wallMs + checkMs is the run as a caller waits for it.
  checkMs: z.number().nullable().default(null),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

export function writeRunRecord(file: string, record: RunRecord): void {
  writeFileWhole(file, `${JSON.stringify(record, null, 2)}\n`);
}


// run.json changed as text and written to `to` (the file itself, or a copy's): the anonymisers (report/anonymise.ts,
// report/pack.ts, report/prune-fixture.ts) put placeholders for machine paths. Everything else keeps its bytes, its
// format included (a recorded format-1 fixture stays the proof of the migration), and the result must still read
// as a run record: a placeholder never makes a run.json ccrepro refuses. Says whether the text changed.
export function rewriteRunRecordText(from: string, change: (text: string) => string, to = from): boolean {
  const text = readInside(path.dirname(from), from, "utf8");
  const changed = change(text);
  runRecordSchema.parse(migrateRunRecord(JSON.parse(changed), to));
  if (changed === text && to === from) return false;
  writeFileWhole(to, changed);
  return changed !== text;
}

// The one place a verdict enters run.json: the recording stays as the harness wrote it, timings included.
export function recordVerdict(file: string, result: CheckResult, checkMs: number): RunRecord {
  const judged = { ...readRunRecord(file), result, checkMs };
  writeRunRecord(file, judged);
  return judged;
}

export function readRunRecord(file: string): RunRecord {
  // run.json itself must not be a link out of its run directory.
  return runRecordSchema.parse(migrateRunRecord(JSON.parse(readInside(path.dirname(file), file, "utf8")), file));
}

// Format 1 (before 2026-12-02) let `source` be absent for a built-in named by `scenario`; format 2 always says.
// A format newer than this ccrepro's is refused: guessing at its fields could judge a run wrongly.
export function migrateRunRecord(raw: unknown, file: string): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const record = raw as Record<string, unknown>;
  const format = record["format"];
  if (typeof format === "number" && Number.isInteger(format) && format > RUN_FORMAT) {
    throw new UserError(`${file} is run.json format ${format}, newer than this ccrepro reads (${RUN_FORMAT}): judge it with the ccrepro that recorded it, or a newer one`, "BAD_RUN_DIR");
  }
  if (format !== 1) return raw;
  return { ...record, format: 2, source: record["source"] ?? { kind: "builtin", name: record["scenario"] } };
}
