// Process hygiene with tiny fixture programs (never claude): the reaper ends every process of a run, by group and by marker.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { HeadlessSession } from "../../harness/headless-session.ts";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { reapRun } from "../../harness/processes.ts";
import { runLayout, sessionLayout } from "../../harness/run-layout.ts";
import { eventually } from "../eventually.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/processes/", import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-processes-"));
// Every run id this file used: whatever carries one of them is cleaned up even when a test fails half-way.
const usedRunIds: string[] = [];

interface Fixture {
  session: HeadlessSession;
  leader: number;
  // The leader and every descendant the fixture reported (children, grandchildren).
  pids: number[];
}

function newRunId(): string {
  const id = `test-${crypto.randomBytes(6).toString("hex")}`;
  usedRunIds.push(id);
  return id;
}

// Started the way the harness starts claude: a HeadlessSession, its own process group, an allow-listed environment.
async function startFixture(runId: string, name: string, args: string[] = []): Promise<Fixture> {
  const label = `${name}-${crypto.randomBytes(3).toString("hex")}`;
  let wake = () => undefined as void;
  const session = new HeadlessSession({
    label,
    command: "/bin/bash",
    args: [path.join(FIXTURES, `${name}.sh`), ...args],
    env: { PATH: "/usr/bin:/bin", [RUN_MARKER_VAR]: runId },
    cwd: root,
    files: sessionLayout(runLayout(path.join(root, runId)), label),
    resumeOf: null,
    onChange: () => wake(),
  });
  const ready = () => session.recording.stdout.some((line) => line.raw.startsWith("ready "));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture ${name} never printed "ready"`)), 10_000);
    wake = () => {
      if (ready()) {
        clearTimeout(timer);
        resolve();
      }
    };
    wake();
  });
  const pids = session.recording.stdout.flatMap((line) => line.raw.split(" ").slice(1).map(Number));
  return { session, leader: session.process.pid!, pids };
}

// Independent of harness/processes.ts: every pid whose environment has exactly this run's marker entry.
function scanForRun(runId: string): number[] {
  const entry = `${RUN_MARKER_VAR}=${runId}`;
  return fs.readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      return fs.readFileSync(`/proc/${name}/environ`).toString("latin1").split("\0").includes(entry) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

function stat(pid: number): { state: string; pgid: number; sid: number; ppid: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid, pgid, sid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: state!, ppid: Number(ppid), pgid: Number(pgid), sid: Number(sid) };
  } catch {
    return null;
  }
}

const alive = (pid: number) => {
  const s = stat(pid);
  return s !== null && s.state !== "Z";
};

type FixtureSet = Record<"hang" | "ignoreTerm" | "forkChild" | "doubleFork" | "backgroundGrandchild", Fixture>;

async function startAll(runId: string): Promise<FixtureSet> {
  return {
    hang: await startFixture(runId, "hang"),
    ignoreTerm: await startFixture(runId, "ignore-term"),
    forkChild: await startFixture(runId, "fork-child"),
    doubleFork: await startFixture(runId, "double-fork-setsid", ["quiet"]),
    backgroundGrandchild: await startFixture(runId, "background-grandchild"),
  };
}

afterEach(async () => {
  for (const id of usedRunIds) await reapRun({ name: RUN_MARKER_VAR, value: id }, []);
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("process fixtures", () => {
  it("set up the trees they claim: a forked child in the group, a setsid grandchild outside it, a re-parented grandchild inside it", async () => {
    const runId = newRunId();
    const f = await startAll(runId);
    const [, child] = f.forkChild.pids;
    expect(stat(child!)).toMatchObject({ ppid: f.forkChild.leader, pgid: f.forkChild.leader });
    const [escaped] = f.doubleFork.pids;
    expect(stat(escaped!)?.sid).toBe(escaped);
    expect(stat(escaped!)?.pgid).not.toBe(f.doubleFork.leader);
    expect(stat(escaped!)?.ppid).not.toBe(f.doubleFork.leader);
    const [grandchild] = f.backgroundGrandchild.pids;
    expect(stat(grandchild!)?.pgid).toBe(f.backgroundGrandchild.leader);
    expect(stat(grandchild!)?.ppid).not.toBe(f.backgroundGrandchild.leader);
    // Every process of the run carries the marker, so the scan sees all of them. A grandchild may still be between
    // fork and exec when "ready" is printed, and reads an empty environment for that moment: hence `eventually`.
    const all = Object.values(f).flatMap((x) => x.pids);
    expect(all).toHaveLength(8);
    await eventually(() => all.every((pid) => scanForRun(runId).includes(pid)));
    expect(scanForRun(runId)).toEqual(expect.arrayContaining(all));
  });

  it("ignore-term survives SIGTERM", async () => {
    const f = await startFixture(newRunId(), "ignore-term");
    f.session.signal("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(alive(f.leader)).toBe(true);
    expect(f.session.running).toBe(true);
  });
});

describe("reapRun", () => {
  it("by process group alone ends everything that stayed in the groups, but not the setsid escapee", async () => {
    const runId = newRunId();
    const f = await startAll(runId);
    // A marker no process carries: only the group signals act.
    const report = await reapRun({ name: RUN_MARKER_VAR, value: `${runId}-none` }, Object.values(f).map((x) => x.leader));
    expect(report).toEqual({ killed: [], survivors: [] });
    const inGroups = Object.values(f).flatMap((x) => (x === f.doubleFork ? [x.leader] : x.pids));
    expect(await eventually(() => inGroups.every((pid) => !alive(pid)))).toBe(true);
    const [escaped] = f.doubleFork.pids;
    expect(alive(escaped!)).toBe(true);
    expect(scanForRun(runId)).toEqual([escaped]);
  });

  it("by env marker alone ends every process of the run, the setsid escapee and re-parented grandchildren included", async () => {
    const runId = newRunId();
    const f = await startAll(runId);
    const all = Object.values(f).flatMap((x) => x.pids);
    const report = await reapRun({ name: RUN_MARKER_VAR, value: runId }, []);
    expect(report.survivors).toEqual([]);
    expect(report.killed).toEqual(expect.arrayContaining(all));
    expect(all.filter(alive)).toEqual([]);
    expect(scanForRun(runId)).toEqual([]);
  });

  it("leaves no process of a run alive, records each session's SIGKILL, and spares another run's processes", async () => {
    const runId = newRunId();
    const otherRun = newRunId();
    const other = await startFixture(otherRun, "hang");
    const f = await startAll(runId);
    // An escapee that keeps the session's stdout open, besides the quiet one.
    const holder = await startFixture(runId, "double-fork-setsid");
    const sessions = [...Object.values(f), holder];
    // As runScenario ends a run: close every stdin, then reap by the session groups and the marker.
    for (const s of sessions) s.session.closeStdin();
    const report = await reapRun({ name: RUN_MARKER_VAR, value: runId }, sessions.map((s) => s.leader));
    expect(report.survivors).toEqual([]);
    expect(scanForRun(runId)).toEqual([]);
    expect(sessions.flatMap((s) => s.pids).filter(alive)).toEqual([]);
    await Promise.all(sessions.map((s) => s.session.exited));
    for (const s of sessions) expect(s.session.process).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(alive(other.leader)).toBe(true);
    expect(scanForRun(otherRun)).toEqual(other.pids);
  });
});

describe("HeadlessSession", () => {
  it("records its process's exit even while an escaped descendant still holds stdout open", async () => {
    const runId = newRunId();
    const f = await startFixture(runId, "double-fork-setsid");
    const [escaped] = f.pids;
    const signalledAt = Date.now();
    f.session.signal("SIGKILL");
    await f.session.exited;
    expect(Date.now() - signalledAt).toBeLessThan(5000);
    expect(alive(escaped!)).toBe(true);
    expect(f.session.running).toBe(false);
    expect(f.session.process).toMatchObject({ exitCode: null, signal: "SIGKILL", stoppedBy: ["SIGKILL"] });
    const persisted = JSON.parse(fs.readFileSync(sessionLayout(runLayout(path.join(root, runId)), f.session.process.label).sessionJson, "utf8"));
    expect(persisted).toMatchObject({ signal: "SIGKILL", endedAt: f.session.process.endedAt });
  });

  it("records a program that cannot start as ended, without a pid", async () => {
    const dir = path.join(root, "missing");
    const session = new HeadlessSession({
      label: "missing",
      command: path.join(dir, "no-such-program"),
      args: [],
      env: { PATH: "/usr/bin:/bin" },
      cwd: root,
      files: sessionLayout(runLayout(dir), "missing"),
      resumeOf: null,
      onChange: () => undefined,
    });
    await session.exited;
    expect(session.process).toMatchObject({ pid: null, exitCode: null, signal: null });
    expect(session.running).toBe(false);
  });
});
