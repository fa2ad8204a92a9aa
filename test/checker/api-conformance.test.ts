// The API's rejections join every scenario's result. The runs replayed here were recorded from real releases
// (test/fixtures/runs, see its README); a violation is injected into a copy of a run's request log, the way the mock
// logs one, because no recorded release sent a request the API would reject.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkApiConformance } from "../../checker/api-conformance.ts";
import { judgeRun } from "../../core/verdict.ts";
import { runEvidence } from "../../pipeline/verdict-rules.ts";

// The run's evidence when every step went through: only the API's rejections.
const withApiConformance = (result: Parameters<typeof judgeRun>[0], requests: Parameters<typeof runEvidence>[1]) => judgeRun(result, runEvidence({ steps: [], stepsSkipped: [] }, requests));
import { checkConformance } from "../../mock-api/conformance.ts";
import { requestEntrySchema } from "../../mock-api/log-entry.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { API_FINDINGS } from "../../kit/checkers.ts";
import { defineScenario, z } from "../../kit/index.ts";
import { scenarioProblems } from "../../kit/scenario.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const fixture = (name: string) => path.join(import.meta.dirname, "..", "fixtures", "runs", name);
const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// The orphaned tool_use of anthropics/claude-code#5317: the assistant's tool_use, then a user text with no tool_result.
const orphaned = {
  messages: [
    { role: "user", content: "go" },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_01A", name: "Bash", input: {} }] },
    { role: "user", content: "next" },
  ],
};

// A copy of a recorded run whose request `seq` carries the violations the mock would log for `body`.
function runWithViolation(name: string, seq: number, body: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-api-conformance-"));
  copies.push(dir);
  fs.cpSync(fixture(name), dir, { recursive: true });
  const index = path.join(dir, "mock", "index.jsonl");
  const lines = fs.readFileSync(index, "utf8").split("\n");
  const edited = lines.map((line) => {
    if (line.trim() === "") return line;
    const entry = JSON.parse(line) as { kind: string; seq: number };
    return entry.kind === "request" && entry.seq === seq ? JSON.stringify({ ...entry, conformance: checkConformance(body) }) : line;
  });
  fs.writeFileSync(index, edited.join("\n"));
  return dir;
}

describe("request-rejected-by-api on recorded runs", () => {
  it("a run recorded before the mock judged requests checks as before", () => {
    const raw = fs.readFileSync(path.join(fixture("orphan-control-2.1.234"), "mock", "index.jsonl"), "utf8");
    expect(raw).not.toContain('"conformance"');
    const result = checkRecordedRun(fixture("orphan-control-2.1.234"), scenarioByName);
    expect(result.verdict).toBe("GREEN");
    expect(result.findings).toEqual([]);
  });

  it("turns a GREEN run RED, naming the request, the message index, the rule and the API's message", () => {
    const result = checkRecordedRun(runWithViolation("orphan-control-2.1.234", 2, orphaned), scenarioByName);
    expect(result.verdict).toBe("RED");
    expect(result.reason).toBe("request-rejected-by-api");
    const [rejected, ...others] = result.findings;
    expect(others).toEqual([]);
    expect(rejected).toMatchObject({ id: "request-rejected-by-api", red: true });
    expect(rejected!.where).toMatch(/^request 2 \(.+ stream, step \d+\), messages\[1\]$/);
    expect(rejected!.title).toContain("tool-use-without-result");
    expect(rejected!.title).toContain("messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A.");
    expect(rejected!.data).toMatchObject({ seq: 2, messageIndex: 1, rule: "tool-use-without-result", violations: 1 });
  });

  it("adds to a scenario's own RED findings", () => {
    const result = checkRecordedRun(runWithViolation("orphan-red-2.1.234", 1, { messages: [{ role: "user", content: [] }] }), scenarioByName);
    expect(result.verdict).toBe("RED");
    expect(result.findings.map((f) => f.id)).toEqual(["prompt-settled-by-extra-result", "request-rejected-by-api"]);
    expect(result.reason).toBe("prompt-settled-by-extra-result, request-rejected-by-api");
    expect(result.findings[1]!.data).toMatchObject({ seq: 1, messageIndex: 0, rule: "empty-message-content" });
  });

  it("leaves a GREEN run GREEN when its one violation is of a disputed rule, and says so in a note", () => {
    const result = checkRecordedRun(runWithViolation("orphan-control-2.1.234", 2, { messages: [{ role: "assistant", content: "hi" }, { role: "user", content: "go" }] }), scenarioByName);
    expect(result.verdict).toBe("GREEN");
    expect(result.findings.filter((f) => f.id === "request-rejected-by-api")).toEqual([]);
    expect(result.notes.find((n) => n.includes("first-message-not-user"))).toMatch(/^request 2 .* not a finding: /);
  });
});

describe("judgeRun with the API's rejections", () => {
  const entry = (seq: number, body: unknown) =>
    requestEntrySchema.parse({
      kind: "request", seq, receivedAt: 0, method: "POST", path: "/v1/messages", query: "", headers: {}, bodyFile: "b", bodyBytes: 0,
      bodySha256: "", stream: "main", step: 1, messageCount: 3, streaming: true, conformance: checkConformance(body),
      reply: { status: 400, kind: "error", summary: "", fault: null, stopReason: null }, client: { remoteAddress: null, remotePort: null },
    });

  it("one finding per rejected request; conforming requests add none", () => {
    const ok = { messages: [{ role: "user", content: "go" }] };
    expect(checkApiConformance([entry(1, ok), entry(2, orphaned), entry(3, ok), entry(4, orphaned)]).map((f) => f.data["seq"])).toEqual([2, 4]);
    expect(checkApiConformance([entry(1, ok)])).toEqual([]);
  });

  it("an INCONCLUSIVE run with a rejected request is RED; ERROR stays ERROR", () => {
    const inconclusive = { verdict: "INCONCLUSIVE" as const, reason: "never resumed", findings: [], notes: [] };
    expect(withApiConformance(inconclusive, [entry(2, orphaned)]).verdict).toBe("RED");
    const error = { verdict: "ERROR" as const, reason: "harness", findings: [], notes: [] };
    expect(withApiConformance(error, [entry(2, orphaned)])).toBe(error);
  });
});

describe("API_FINDINGS in a scenario's known list", () => {
  it("is allowed without being declared; an unknown id is still refused", () => {
    const base = {
      name: "x", summary: "x", source: "x", params: z.strictObject({}), findings: [] as const, mockScript: () => ({}), steps: () => [],
      check: () => ({ reached: { ok: true as const }, findings: [] }), timeoutMs: 1,
    };
    expect(scenarioProblems({ ...base, known: [{ versions: "*", verdict: "RED", finding: API_FINDINGS[0], note: "" }] })).toEqual([]);
    expect(() => defineScenario({ ...base, known: [{ versions: "*", verdict: "RED", finding: "nope" as never, note: "" }] })).toThrow(/"nope"/);
  });
});
