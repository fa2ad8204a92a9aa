// What a resumed session made of a tool call stopped mid-run. Replays runs recorded from real releases with
// `ccrepro run interrupt-mid-tool-resume --claude V` (SIGKILL 2.5 s into a 30 s foreground wait, then --resume),
// pruned with scripts/prune-run.ts (test/fixtures/runs/README.md); the edge cases edit copies of them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkConformance } from "../../mock-api/conformance.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const fixture = (name: string) => path.join(import.meta.dirname, "..", "fixtures", "runs", name);
const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function copyOf(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-interrupted-call-"));
  copies.push(dir);
  fs.cpSync(fixture(name), dir, { recursive: true });
  return dir;
}

// Rewrites each line of a JSON-lines file; `edit` returns the new line, or null to drop it.
function editLines(file: string, edit: (value: Record<string, unknown>) => Record<string, unknown> | null) {
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "");
  const kept = lines.map((line) => edit(JSON.parse(line) as Record<string, unknown>)).filter((v) => v !== null);
  fs.writeFileSync(file, kept.map((v) => JSON.stringify(v)).join("\n") + "\n");
}

describe("interrupt-mid-tool-resume on recorded runs", () => {
  it("2.1.234: the resumed request has no trace of the call (informational), and conforms", () => {
    const result = checkRecordedRun(fixture("interrupt-erased-2.1.234"), scenarioByName);
    expect(result.verdict).toBe("GREEN");
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ id: "interrupted-call-erased", red: false, where: "request 2 (s2)" });
    expect(result.findings[0]!.data).toMatchObject({ seq: 2, toolUseId: "toolu_mock_1_0", messages: 3 });
    expect(result.findings[0]!.detail.join("\n")).toContain('messages[1] assistant: text "No response requested."');
    expect(result.notes.join("\n")).toMatch(/resumed request 2: 3 messages, conforms/);
  });

  it("2.1.332: keeps the tool_use, answered by a synthetic [Tool call interrupted…] tool_result", () => {
    const result = checkRecordedRun(fixture("interrupt-kept-2.1.332"), scenarioByName);
    expect(result.verdict).toBe("GREEN");
    expect(result.findings).toEqual([]);
    expect(result.notes.join("\n")).toMatch(/kept: tool_use toolu_mock_1_0 at messages\[1\], answered by tool_result "\[Tool call interrupted: the session ended/);
  });

  it("2.1.234 interrupted by the control request: the stop is the stdin line's time, and the call is kept", () => {
    const result = checkRecordedRun(fixture("interrupt-control-2.1.234"), scenarioByName);
    expect(result.verdict).toBe("GREEN");
    expect(result.findings).toEqual([]);
    expect(result.notes.join("\n")).toMatch(/kept: tool_use toolu_mock_1_0 at messages\[1\], answered by tool_result "The user doesn't want to proceed/);
  });

  it("an interrupt sent after the call's tool_result interrupted nothing", () => {
    const dir = copyOf("interrupt-control-2.1.234");
    const stdin = path.join(dir, "sessions", "s1", "stdin.jsonl");
    const toolAt = (JSON.parse(fs.readFileSync(path.join(dir, "sessions", "s1", "stdout.jsonl"), "utf8").split("\n")[1]!) as { t: number }).t;
    editLines(stdin, (v) => (String(v["raw"]).includes("control_request") ? { ...v, t: toolAt + 31_000 } : v));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/had its tool_result \(stdout line \d+\) before the stop: it was not running/);
  });

  it("a session that outlived the tool's own run time interrupted nothing", () => {
    const dir = copyOf("interrupt-erased-2.1.234");
    const sessionJson = path.join(dir, "sessions", "s1", "session.json");
    const toolAt = (JSON.parse(fs.readFileSync(path.join(dir, "sessions", "s1", "stdout.jsonl"), "utf8").split("\n")[1]!) as { t: number }).t;
    fs.writeFileSync(sessionJson, JSON.stringify({ ...JSON.parse(fs.readFileSync(sessionJson, "utf8")), endedAt: toolAt + 31_000 }));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toBe("session s1 was not stopped within the 30000 ms the Bash call runs: nothing was interrupted");
  });

  it("a resumed request that drops the synthetic tool_result is RED through request-rejected-by-api", () => {
    const dir = copyOf("interrupt-kept-2.1.332");
    const bodyFile = path.join(dir, "mock", "requests", "000002.body");
    const body = JSON.parse(fs.readFileSync(bodyFile, "utf8")) as { messages: unknown[] };
    body.messages[2] = { role: "user", content: [{ type: "text", text: "[Request interrupted by user for tool use]" }] };
    fs.writeFileSync(bodyFile, JSON.stringify(body));
    editLines(path.join(dir, "mock", "index.jsonl"), (v) => (v["kind"] === "request" && v["seq"] === 2 ? { ...v, conformance: checkConformance(body) } : v));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("RED");
    expect(result.findings.map((f) => [f.id, f.data["messageIndex"], f.data["rule"]])).toEqual([["request-rejected-by-api", 1, "tool-use-without-result"]]);
    expect(result.notes.join("\n")).toMatch(/kept: tool_use toolu_mock_1_0 at messages\[1\], with no tool_result/);
  });

  it("is INCONCLUSIVE when the call had its result before the stop: nothing was running", () => {
    const dir = copyOf("interrupt-erased-2.1.234");
    const stdout = path.join(dir, "sessions", "s1", "stdout.jsonl");
    const lines = fs.readFileSync(stdout, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { t: number; raw: string });
    const toolAt = lines[1]!.t;
    const early = { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_mock_1_0", content: "Blocked" }] } };
    fs.appendFileSync(stdout, JSON.stringify({ t: toolAt + 100, raw: JSON.stringify(early) }) + "\n");
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/had its tool_result \(stdout line 2\) before the stop: it was not running/);
  });

  it("is INCONCLUSIVE when the resumed session sent no request with the pushed prompt", () => {
    const dir = copyOf("interrupt-erased-2.1.234");
    editLines(path.join(dir, "mock", "index.jsonl"), (v) => (v["seq"] === 2 ? null : v));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toBe("session s2 sent no main request carrying the pushed prompt");
  });

  it("is INCONCLUSIVE when claude never printed the tool call", () => {
    const dir = copyOf("interrupt-erased-2.1.234");
    editLines(path.join(dir, "sessions", "s1", "stdout.jsonl"), (v) => (String(v["raw"]).includes('"tool_use"') ? null : v));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/never printed a tool_use/);
  });
});
