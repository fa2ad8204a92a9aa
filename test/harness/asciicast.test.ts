// The .cast writer, on a real recorded terminal run (test/fixtures/background/2.1.332-terminal, see its README).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stepMarkers, toAsciicast, writeSessionCast, writeTerminalCasts } from "../../harness/asciicast.ts";
import { readRunRecord } from "../../harness/run-record.ts";
import { castFile, runLayout, terminalFiles } from "../../harness/run-layout.ts";
import { TerminalSession } from "../../harness/terminal-session.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/background/2.1.332-terminal");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-cast-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

type CastEvent = [number, string, string];

function parseCast(text: string): { header: Record<string, unknown>; events: CastEvent[] } {
  expect(text.endsWith("\n")).toBe(true);
  const [first, ...rest] = text.slice(0, -1).split("\n").map((line) => JSON.parse(line) as unknown);
  return { header: first as Record<string, unknown>, events: rest as CastEvent[] };
}

describe("writeSessionCast on a recorded background-mid-turn run", () => {
  fs.cpSync(FIXTURE, scratch, { recursive: true });
  const record = readRunRecord(runLayout(scratch).runJson);
  const file = writeSessionCast(scratch, "ui", { cols: 120, rows: 40 }, record.steps);
  const chunks = fs.readFileSync(path.join(scratch, "sessions/ui/terminal.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { t: number; data: string });

  it("writes casts/<session>.cast, a v2 header then one JSON array per line", () => {
    expect(file).toBe(castFile(runLayout(scratch), "ui"));
    const { header, events } = parseCast(fs.readFileSync(file!, "utf8"));
    expect(header).toMatchObject({ version: 2, width: 120, height: 40, title: "ui", env: { TERM: "xterm-256color" } });
    // The UI's spawn time (session.json startedAt), in whole seconds.
    expect(header["timestamp"]).toBe(Math.floor(1796064785553 / 1000));
    for (const event of events) {
      expect(event).toHaveLength(3);
      expect(["o", "m"]).toContain(event[1]);
      expect(typeof event[0]).toBe("number");
      expect(typeof event[2]).toBe("string");
    }
  });

  it("keeps every output chunk, in order, with times that never go back", () => {
    const { events } = parseCast(fs.readFileSync(file!, "utf8"));
    const output = events.filter((e) => e[1] === "o");
    expect(output.map((e) => e[2])).toEqual(chunks.map((c) => c.data));
    expect(output.map((e) => e[0])).toEqual(chunks.map((c) => Math.round(c.t - 1796064785553) / 1000));
    expect(output.length).toBeGreaterThan(50);
    const times = events.map((e) => e[0]);
    expect(times.every((t, i) => t >= 0 && (i === 0 || t >= times[i - 1]!))).toBe(true);
  });

  it("marks each step the UI lived through, at the moment it acted or saw", () => {
    const { events } = parseCast(fs.readFileSync(file!, "utf8"));
    const markers = events.filter((e) => e[1] === "m").map((e) => [e[0], e[2]]);
    // Steps 1–8 overlap the UI's life (step 1 spawns it, step 8 sees it exit); the helper commands and the daemon wait
    // come later.
    expect(markers.map((m) => m[1])).toEqual([
      "1 terminal ui",
      "2 type ui",
      "3 press ui",
      "4 the slow tool has run 3 s",
      "5 type ui",
      "6 the input line holds /background",
      "7 press ui",
      "8 the UI backgrounded the session and exited",
    ]);
    // Step 1 began a millisecond before the spawn: its marker is clamped to 0.
    expect(markers[0]![0]).toBe(0);
    // A wait is marked where it was satisfied (its end), a key where it was pressed (its start).
    const wait = record.steps[3]!;
    expect(markers[3]![0]).toBe(Math.round(wait.endedAt - 1796064785553) / 1000);
    const press = record.steps[2]!;
    expect(markers[2]![0]).toBe(Math.round(press.startedAt - 1796064785553) / 1000);
  });

  it("returns null for a session without terminal output", () => {
    expect(writeSessionCast(scratch, "no-such-session", { cols: 80, rows: 24 }, [])).toBeNull();
  });
});

describe("toAsciicast", () => {
  it("keeps output in its recorded order, never lets time go back or before the start, and puts output before a marker of the same time", () => {
    const text = toAsciicast({
      cols: 80,
      rows: 24,
      start: 10_000,
      chunks: [
        { t: 10_500, data: "a" },
        { t: 10_400, data: "b" }, // a clock step backwards
        { t: 11_000, data: "c" },
      ],
      markers: [
        { t: 9_000, label: "before" },
        { t: 11_000, label: "same" },
      ],
    });
    const { events } = parseCast(text);
    expect(events).toEqual([
      [0, "m", "before"],
      [0.5, "o", "a"],
      [0.5, "o", "b"],
      [1, "o", "c"],
      [1, "m", "same"],
    ]);
  });

  it("escapes control bytes as JSON does, so each line parses", () => {
    const { events } = parseCast(toAsciicast({ cols: 1, rows: 1, start: 0, chunks: [{ t: 1, data: "\x1b[2J\r\n\u2028\"" }], markers: [] }));
    expect(events[0]![2]).toBe("\x1b[2J\r\n\u2028\"");
  });

  it("stepMarkers keeps only the steps that overlap the terminal's lifetime", () => {
    const step = (index: number, kind: string, startedAt: number, endedAt: number) => ({ index, kind, label: kind, startedAt, endedAt });
    const steps = [step(0, "terminal", 4, 6), step(1, "screen-wait", 10, 26), step(2, "command", 30, 31), step(3, "press", 1, 3)];
    expect(stepMarkers(steps, { start: 5, end: 25 })).toEqual([
      { t: 4, label: "1 terminal" },
      { t: 26, label: "2 screen-wait" },
    ]);
  });
});

describe("writeTerminalCasts after a terminal session exits", () => {
  // A tiny terminal program (never claude) in a real pty, at a size other than the defaults, as recordRun drives it.
  const PROGRAM = path.resolve(import.meta.dirname, "../fixtures/background/tty-echo.mjs");

  it("writes a cast at the session's own size, holding its output and the steps it lived through", async () => {
    const dir = fs.mkdtempSync(path.join(scratch, "tty-"));
    const layout = runLayout(dir);
    let changed = () => undefined as void;
    const t = new TerminalSession({
      label: "tty",
      command: process.execPath,
      args: [PROGRAM],
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", TERM: "xterm-256color" },
      cwd: dir,
      cols: 50,
      rows: 12,
      files: terminalFiles(layout, "tty"),
      onChange: () => changed(),
    });
    expect([t.cols, t.rows]).toEqual([50, 12]);
    const seen = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${text}"; the screen:\n${t.screen()}`)), 10_000);
        changed = () => {
          if (t.screen().includes(text)) (clearTimeout(timer), resolve());
        };
        changed();
      });
    const spawnedAt = Date.now();
    await seen("ready");
    const typedAt = Date.now();
    t.write("exit:3\r");
    await t.exited;
    const steps = [
      { index: 0, kind: "terminal", label: "terminal tty", startedAt: spawnedAt, endedAt: typedAt, outcome: "ok" as const, detail: "" },
      { index: 1, kind: "press", label: "press tty", startedAt: typedAt, endedAt: Date.now(), outcome: "ok" as const, detail: "" },
    ];

    expect(writeTerminalCasts(dir, [t], steps)).toEqual([castFile(layout, "tty")]);
    const { header, events } = parseCast(fs.readFileSync(castFile(layout, "tty"), "utf8"));
    expect(header).toMatchObject({ version: 2, width: 50, height: 12, title: "tty" });
    const output = events.filter((e) => e[1] === "o").map((e) => e[2]).join("");
    expect(output).toContain("ready");
    expect(output).toContain('got "exit:3\\r"');
    expect(events.filter((e) => e[1] === "m").map((e) => e[2])).toEqual(["1 terminal tty", "2 press tty"]);
  }, 20_000);
});
