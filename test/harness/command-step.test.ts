// The command step on /bin/echo standing in for claude (never claude): arguments from earlier commands' output, and skips.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunContext } from "../../harness/run-context.ts";
import { runLayout } from "../../harness/run-layout.ts";
import { executeStep } from "../../harness/step-executor.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-command-"));
// The command runs in the run's work directory, as claude would.
fs.mkdirSync(runLayout(root).work, { recursive: true });
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// The command step reads only these parts of a run.
const ctx = {
  layout: runLayout(root),
  env: { PATH: "/usr/bin:/bin" },
  claude: { command: "/bin/echo", args: [] },
  terminals: new Map(),
  live: {},
  abort: new AbortController().signal,
} as unknown as RunContext;

const records = () => fs.readdirSync(runLayout(root).commands).sort();

describe("the command step", () => {
  it("hands later commands the output of earlier ones by label, and skips a command whose arguments are null", async () => {
    await executeStep(ctx, { kind: "command", label: "list", args: ["first"], timeoutMs: 10_000 });
    await executeStep(ctx, { kind: "command", label: "list", args: ["abc123"], timeoutMs: 10_000 });
    const seen: string[] = [];
    const outcome = await executeStep(ctx, {
      kind: "command",
      label: "use",
      args: ({ commands }) => {
        seen.push(JSON.stringify(commands));
        return ["got", commands.list!.stdout];
      },
      timeoutMs: 10_000,
    });
    // The later run under a label wins.
    expect(seen).toEqual([JSON.stringify({ list: { exitCode: 0, stdout: "abc123" } })]);
    expect(outcome.detail).toMatch(/^claude got abc123: exit 0/);
    expect(records()).toEqual(["001-list.json", "002-list.json", "003-use.json"]);

    const skipped = await executeStep(ctx, { kind: "command", label: "stop", args: () => null, timeoutMs: 10_000 });
    expect(skipped).toEqual({ outcome: "ok", detail: "skipped: nothing to run it on" });
    expect(records()).toHaveLength(3);
  });
});
