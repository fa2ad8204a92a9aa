// The sdk child's plan and commands, and its mapping of commands onto query(), against a stand-in SDK (no claude).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { END_MARKER, parseCommand, parsePlan, userMessage } from "../../harness/sdk-child-protocol.mjs";

const CHILD = path.resolve(import.meta.dirname, "../../harness/sdk-child.mjs");
const FAKE_SDK = path.resolve(import.meta.dirname, "fixtures/fake-sdk");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-sdk-child-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const plan = { sdkDir: FAKE_SDK, pathToClaudeCodeExecutable: "/bin/false", env: { HOME: root }, cwd: root, model: "m", resume: null };

describe("parsePlan", () => {
  it("fills the defaults and keeps extra options as they are", () => {
    expect(parsePlan({ ...plan, options: { permissionMode: "bypassPermissions" } })).toEqual({
      ...plan,
      options: { permissionMode: "bypassPermissions" },
      cliStreams: null,
    });
  });
  it("refuses unknown keys and non-string environment values", () => {
    expect(() => parsePlan({ ...plan, extra: 1 })).toThrow();
    expect(() => parsePlan({ ...plan, env: { A: 1 } })).toThrow();
    expect(() => parsePlan({ ...plan, resume: "" })).toThrow();
  });
});

describe("parseCommand", () => {
  it("accepts each operation", () => {
    for (const command of [
      { op: "send", text: "hi" },
      { op: "send", json: { type: "user", message: { role: "user", content: [] } } },
      { op: "end-input" },
      { op: "interrupt" },
      { op: "abort" },
      { op: "close-then-abort", ms: 4000 },
    ]) {
      expect(parseCommand(JSON.stringify(command))).toEqual({ ok: true, command });
    }
  });
  it("says what is wrong with a bad line instead of throwing", () => {
    expect(parseCommand("{").ok).toBe(false);
    expect(parseCommand(JSON.stringify({ op: "send" })).ok).toBe(false);
    expect(parseCommand(JSON.stringify({ op: "close-then-abort", ms: -1 })).ok).toBe(false);
    expect(parseCommand(JSON.stringify({ op: "sigkill" })).ok).toBe(false);
  });
  it("shapes a text message as the headless driver writes it", () => {
    expect(userMessage({ op: "send", text: "hi" })).toEqual({ type: "user", message: { role: "user", content: "hi" } });
  });
});

// Runs the child on the stand-in SDK, feeding commands as soon as the previous reply shows up.
async function drive(script: Array<{ after: (types: string[]) => boolean; command: object }>, options: Record<string, unknown> = {}) {
  const planFile = path.join(root, `plan-${script.length}-${Date.now()}.json`);
  fs.writeFileSync(planFile, JSON.stringify({ ...plan, options }));
  const child = execa(process.execPath, [CHILD, planFile], { stdin: "pipe", stdout: "pipe", stderr: "pipe", reject: false, buffer: { stdout: false }, timeout: 20_000 });
  const events: Array<{ type: string; subtype?: string; message?: unknown; t: number }> = [];
  const pending = [...script];
  readline.createInterface({ input: child.stdout }).on("line", (raw) => {
    events.push({ ...(JSON.parse(raw) as (typeof events)[number]), t: Date.now() });
    const types = events.map((e) => (e.subtype ? `${e.type}/${e.subtype}` : e.type));
    while (pending[0]?.after(types)) child.stdin.write(`${JSON.stringify(pending.shift()!.command)}\n`);
  });
  const result = await child;
  const lastLine = String(result.stderr).trim().split("\n").at(-1) ?? "";
  return { events, endedAt: Date.now(), exitCode: result.exitCode, end: (JSON.parse(lastLine) as Record<string, { outcome: string }>)[END_MARKER], stderr: String(result.stderr) };
}

describe("sdk-child", () => {
  it("pushes sends into the streaming input, forwards interrupt, and ends when the input ends", async () => {
    const { events, exitCode, end, stderr } = await drive([
      { after: (t) => t.includes("system/init"), command: { op: "send", text: "one" } },
      { after: (t) => t.includes("echo"), command: { op: "interrupt" } },
      { after: (t) => t.includes("system/interrupted"), command: { op: "end-input" } },
    ]);
    expect(events.map((e) => e.subtype ?? e.type)).toEqual(["init", "echo", "interrupted", "input_ended"]);
    expect(events[1]?.message).toEqual({ type: "user", message: { role: "user", content: "one" } });
    expect(end?.outcome).toBe("completed");
    expect(exitCode).toBe(0);
    // Without cliStreams the SDK's own stderr option carries the CLI's stderr through.
    expect(stderr).toContain("fake cli stderr");
  });

  it("close-then-abort ends the input first and aborts only after the delay", async () => {
    const { events, end, endedAt } = await drive(
      [{ after: (t) => t.includes("system/init"), command: { op: "close-then-abort", ms: 600 } }],
      { keepOpenAfterInput: true },
    );
    const inputEnded = events.find((e) => e.subtype === "input_ended");
    expect(inputEnded).toBeDefined();
    expect(end?.outcome).toBe("aborted");
    expect(endedAt - inputEnded!.t).toBeGreaterThanOrEqual(550);
  });

  it("close-then-abort does not abort a query that ended by itself", async () => {
    const { end } = await drive([{ after: (t) => t.includes("system/init"), command: { op: "close-then-abort", ms: 600 } }]);
    expect(end?.outcome).toBe("completed");
  });

  it("abort ends the query as aborted, which is not an error", async () => {
    const { end, exitCode } = await drive([{ after: (t) => t.includes("system/init"), command: { op: "abort" } }]);
    expect(end?.outcome).toBe("aborted");
    expect(exitCode).toBe(0);
  });

  it("reports a bad command line on stderr and keeps going", async () => {
    const { stderr, end } = await drive([
      { after: (t) => t.includes("system/init"), command: { op: "nonsense" } },
      { after: (t) => t.includes("system/init"), command: { op: "end-input" } },
    ]);
    expect(stderr).toContain("ccreproSdkChildCommandError");
    expect(end?.outcome).toBe("completed");
  });
});
