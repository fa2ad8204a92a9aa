// Every recorded time comes from the one clock (core/time.ts clockNow), the mock's: with Date.now drifting away from
// it (an NTP step, a suspended VM), session and step times still order correctly against the mock's request times.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { absenceWindow } from "../../checker/absence-window.ts";
import { clockNow } from "../../core/time.ts";
import { HeadlessSession } from "../../harness/headless-session.ts";
import { startingProcess, type Recordings } from "../../harness/recordings.ts";
import { runLayout, sessionLayout, terminalFiles } from "../../harness/run-layout.ts";
import { TerminalSession } from "../../harness/terminal-session.ts";
import type { RequestEntry } from "../../mock-api/log-entry.ts";

const DRIFT_MS = 10_000;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-clock-"));
const drift = () => {
  const real = Date.now.bind(Date);
  vi.spyOn(Date, "now").mockImplementation(() => real() + DRIFT_MS);
};

afterEach(() => vi.restoreAllMocks());
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const near = (t: number) => expect(Math.abs(t - clockNow())).toBeLessThan(DRIFT_MS / 2);

describe("one clock", () => {
  it("a session's start orders before the mock's first request, so the run's pace is measured", () => {
    drift();
    const process = startingProcess("s1", [], null);
    near(process.startedAt);
    // The mock stamps the first request 100 ms later, on its clock.
    const request = { seq: 1, receivedAt: clockNow() + 100 } as RequestEntry;
    const rec: Pick<Recordings, "requests" | "responseEnds" | "sessions"> = {
      requests: [request],
      responseEnds: new Map(),
      sessions: [{ label: "s1", stdout: [], stdin: [], process }],
    };
    expect(absenceWindow(rec).timeToFirstRequestMs).not.toBeNull();
  });

  it("a headless session stamps stdout, stdin and its exit on the mock's clock", async () => {
    drift();
    const session = new HeadlessSession({
      label: "echo",
      command: "/bin/sh",
      args: ["-c", "read line; echo '{\"type\":\"system\",\"subtype\":\"x\"}'"],
      env: { PATH: "/usr/bin:/bin" },
      cwd: root,
      files: sessionLayout(runLayout(root), "echo"),
      resumeOf: null,
      onChange: () => undefined,
    });
    session.send(JSON.stringify({ type: "user", message: { role: "user", content: "hi" } }));
    await session.exited;
    const { stdout, stdin, process } = session.recording;
    near(stdin[0]!.t);
    near(stdout[0]!.t);
    near(process!.endedAt!);
  });

  it("a terminal session stamps its input, output and exit on the mock's clock", async () => {
    drift();
    const t = new TerminalSession({
      label: "tty",
      command: "/bin/sh",
      args: ["-c", "read line; echo done"],
      env: { PATH: "/usr/bin:/bin", TERM: "xterm-256color" },
      cwd: root,
      cols: 40,
      rows: 10,
      files: terminalFiles(runLayout(root), "tty"),
      onChange: () => undefined,
    });
    t.write("x\r");
    await t.exited;
    near(t.recording.stdin[0]!.t);
    near(t.recording.process!.endedAt!);
    const output = fs.readFileSync(terminalFiles(runLayout(root), "tty").output, "utf8").trim().split("\n");
    near((JSON.parse(output[0]!) as { t: number }).t);
  });
});
