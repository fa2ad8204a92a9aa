// The pty driver with a tiny terminal program (never claude): rendered screen, paste, keys, exit, group signals.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runLayout, terminalFiles } from "../../harness/run-layout.ts";
import type { RunContext } from "../../harness/run-context.ts";
import { executeStep } from "../../harness/step-executor.ts";
import { TerminalSession } from "../../harness/terminal-session.ts";
import { eventually } from "../eventually.ts";

const PROGRAM = path.join(import.meta.dirname, "..", "fixtures", "background", "tty-echo.mjs");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-terminal-"));
const started: TerminalSession[] = [];

afterAll(async () => {
  for (const t of started) t.signal("SIGKILL");
  await Promise.all(started.map((t) => t.exited));
  fs.rmSync(root, { recursive: true, force: true });
});

// A session plus a wait the way the step executor waits: the predicate is re-checked on every change.
function start(label: string, args: string[] = []): { t: TerminalSession; until: (predicate: () => boolean) => Promise<void> } {
  const listeners = new Set<() => void>();
  const t = new TerminalSession({
    label,
    command: process.execPath,
    args: [PROGRAM, ...args],
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", TERM: "xterm-256color" },
    cwd: root,
    cols: 40,
    rows: 10,
    files: terminalFiles(runLayout(root), label),
    onChange: () => listeners.forEach((listener) => listener()),
  });
  started.push(t);
  const until = (predicate: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not reached; the screen:\n${t.screen()}`)), 10_000);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve();
      };
      listeners.add(check);
      check();
    });
  return { t, until };
}

describe("TerminalSession", () => {
  it("keeps the rendered screen, not the raw output", async () => {
    const { t, until } = start("render");
    await until(() => t.screen().includes("ready"));
    expect(t.screen().split("\n")[0]).toBe("BBAA");
    const raw = fs.readFileSync(terminalFiles(runLayout(root), "render").output, "utf8");
    expect(raw).toContain("AAAA\\rBB");
  });

  it("tells whether the program reads keys one at a time, from its terminal's line discipline", async () => {
    const { t, until } = start("line-mode", ["--line-mode-for", "1500"]);
    await until(() => t.screen().includes("ready"));
    expect(t.readsKeys()).toBe(false);
    const { t: raw, until: rawUntil } = start("raw-mode");
    await rawUntil(() => raw.screen().includes("ready"));
    expect(raw.readsKeys()).toBe(true);
    expect(await eventually(() => t.readsKeys() === true, 5_000)).toBe(true);
  });

  it("the type step pastes only once the program reads keys one at a time (its echo in line mode is the terminal's own)", async () => {
    const { t, until } = start("type-waits", ["--line-mode-for", "1500"]);
    await until(() => t.screen().includes("ready"));
    // Whether the program read keys one at a time at the moment of each paste.
    const atPaste: (boolean | undefined)[] = [];
    const paste = t.paste.bind(t);
    t.paste = (text) => {
      atPaste.push(t.readsKeys());
      paste(text);
    };
    const ctx = {
      layout: runLayout(root),
      terminals: new Map([["type-waits", t]]),
      live: { waitUntil: async (predicate: () => boolean, ms: number) => ((await eventually(predicate, ms)) ? "ok" : "timeout") },
      abort: new AbortController().signal,
    } as unknown as RunContext;
    await executeStep(ctx, { kind: "type", session: "type-waits", text: "hello" });
    expect(atPaste).toEqual([true]);
  });

  it("pastes between bracketed-paste markers when the program asked for them, and records what it typed", async () => {
    const { t, until } = start("paste");
    await until(() => t.screen().includes("ready"));
    t.paste("hello");
    await until(() => t.screen().includes("got"));
    expect(t.screen()).toContain(String.raw`got "\u001b[200~hello\u001b[201~"`);
    t.write("\r");
    await until(() => t.screen().includes(String.raw`got "\r"`));
    const input = fs.readFileSync(terminalFiles(runLayout(root), "paste").input, "utf8").trim().split("\n").map((line) => JSON.parse(line).raw);
    expect(input).toEqual(["\x1b[200~hello\x1b[201~", "\r"]);
  });

  it("records the exit code and keeps the last screen after the program exits", async () => {
    const { t, until } = start("exit");
    await until(() => t.screen().includes("ready"));
    t.write("exit:7\r");
    await t.exited;
    expect(t.running).toBe(false);
    expect(t.process).toMatchObject({ exitCode: 7, signal: null });
    expect(t.screen()).toContain("ready");
    const saved = JSON.parse(fs.readFileSync(terminalFiles(runLayout(root), "exit").sessionJson, "utf8"));
    expect(saved).toMatchObject({ label: "exit", exitCode: 7, pid: t.process.pid });
    expect(() => t.write("x")).toThrow(/already exited/);
  });

  it("signals the program's whole process group", async () => {
    const { t, until } = start("group", ["--child"]);
    await until(() => /child \d+/.test(t.screen()));
    const child = Number(/child (\d+)/.exec(t.screen())![1]);
    t.signal("SIGKILL");
    await t.exited;
    expect(t.process).toMatchObject({ exitCode: null, signal: "SIGKILL", stoppedBy: ["SIGKILL"] });
    await until(() => !fs.existsSync(`/proc/${child}`) || fs.readFileSync(`/proc/${child}/stat`, "utf8").includes(") Z"));
  });
});
