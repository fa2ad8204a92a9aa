// The words of a request-rejected-by-api finding, pinned exactly: where it points (a message, or a JSONPath for a
// request-wide rule), every violation's detail line, and a verdict reason naming only the RED findings.
import { describe, expect, it } from "vitest";
import { checkApiConformance, disputedApiNotes } from "../../checker/api-conformance.ts";
import { judgeRun } from "../../core/verdict.ts";
import { runEvidence } from "../../pipeline/verdict-rules.ts";

// The run's evidence when every step went through: only the API's rejections.
const withApiConformance = (result: Parameters<typeof judgeRun>[0], requests: Parameters<typeof runEvidence>[1]) => judgeRun(result, runEvidence({ steps: [], stepsSkipped: [] }, requests));
import type { CheckResult } from "../../core/verdict.ts";
import { checkConformance, DISPUTED_RULES, type ConformanceViolation } from "../../mock-api/conformance.ts";
import { requestEntrySchema } from "../../mock-api/log-entry.ts";

// A request log entry as the mock writes it, with the judgement it logged for the body.
const entry = (seq: number, conformance: ConformanceViolation[], at: { stream: string | null; step: number | null }) =>
  requestEntrySchema.parse({
    kind: "request", seq, receivedAt: 0, method: "POST", path: "/v1/messages", query: "", headers: {}, bodyFile: "b", bodyBytes: 0,
    bodySha256: "", stream: at.stream, step: at.step, messageCount: 3, streaming: true, conformance,
    reply: { status: 400, kind: "error", summary: "", fault: null, stopReason: null }, client: { remoteAddress: null, remotePort: null },
  });

const tool = (name: string) => ({ name, description: "", input_schema: { type: "object" } });

describe("request-rejected-by-api wording", () => {
  it("points a request-wide rule at its JSONPath, and marks an unknown stream and step with ?", () => {
    // A log line written outside any step (stream and step null), e.g. a request that arrived after the last step.
    const duplicate = checkConformance({ messages: [{ role: "user", content: "go" }], tools: [tool("Bash"), tool("Bash")] });
    const [rejected] = checkApiConformance([entry(7, duplicate, { stream: null, step: null })]);
    expect(rejected!.where).toBe("request 7 (? stream, step ?), $.tools[1]");
    expect(rejected!.title).toBe("the real API would reject request 7 (duplicate-tool-names): tools: Tool names must be unique.");
    expect(rejected!.detail).toEqual(["duplicate-tool-names at $.tools[1]: 400 invalid_request_error: tools: Tool names must be unique."]);
    expect(rejected!.data).toEqual({
      seq: 7, stream: null, step: null, messageIndex: null, rule: "duplicate-tool-names", message: "tools: Tool names must be unique.", answeredWith: 400, violations: 1,
    });
  });

  it("names the stream and step it knows, the first violation's message, and one detail line per violation", () => {
    const body = {
      messages: [
        { role: "assistant", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_01A", name: "Bash", input: {} }] },
        { role: "user", content: "next" },
      ],
    };
    const [rejected, ...more] = checkApiConformance([entry(2, checkConformance(body), { stream: "main", step: 3 })]);
    expect(more).toEqual([]);
    // The first message not being the user's is a disputed rule: listed, but the finding names the enforced one.
    expect(rejected!.where).toBe("request 2 (main stream, step 3), messages[1]");
    expect(rejected!.detail).toEqual([
      `first-message-not-user at $.messages[0]: 400 invalid_request_error: messages: first message must use the "user" role (disputed: ${DISPUTED_RULES["first-message-not-user"]})`,
      "tool-use-without-result at $.messages[1]: 400 invalid_request_error: messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    ]);
    expect(rejected!.data).toMatchObject({ stream: "main", step: 3, messageIndex: 1, rule: "tool-use-without-result", violations: 1 });
  });

  it("makes no finding of a request that breaks only a disputed rule: a note says what it broke and why that is no finding", () => {
    const body = { messages: [{ role: "assistant", content: "one" }, { role: "user", content: "summarise" }] };
    const requests = [entry(3, checkConformance(body), { stream: "side", step: 1 })];
    expect(checkApiConformance(requests)).toEqual([]);
    expect(disputedApiNotes(requests)).toEqual([
      `request 3 (side stream, step 1), messages[0] breaks first-message-not-user ("messages: first message must use the \"user\" role"), not a finding: ${DISPUTED_RULES["first-message-not-user"]}`,
    ]);
    expect(DISPUTED_RULES["first-message-not-user"]).toMatch(/2024 .*2026-03.*cloudwego\/eino-ext#710/);
  });

  it("says when the mock only guessed the API's wording", () => {
    // The mock's own wording for a body its schema refused (messageVerified false), as conformance.ts logs it.
    const guessed: ConformanceViolation = {
      rule: "request-shape", status: 400, errorType: "invalid_request_error", message: "messages: expected array", messageVerified: false, messageIndex: null, path: "$.messages",
    };
    const [rejected] = checkApiConformance([entry(4, [guessed], { stream: "main", step: 1 })]);
    expect(rejected!.detail).toEqual(["request-shape at $.messages: 400 invalid_request_error: messages: expected array (wording not verified)"]);
    expect(rejected!.where).toBe("request 4 (main stream, step 1), $.messages");
  });
});

describe("judgeRun with the API's rejections's reason", () => {
  it("names the RED findings only, not a scenario's informational ones", () => {
    // A GREEN result that carries an informational finding (red: false), as scenarios report what they observed.
    const green: CheckResult = {
      verdict: "GREEN",
      reason: "resumed",
      findings: [{ id: "observed-only", red: false, title: "t", where: "w", detail: [], data: {} }],
      notes: ["n"],
    };
    const orphaned = checkConformance({ messages: [{ role: "user", content: "go" }, { role: "assistant", content: [{ type: "tool_use", id: "toolu_01A", name: "Bash", input: {} }] }, { role: "user", content: "next" }] });
    const result = withApiConformance(green, [entry(2, orphaned, { stream: "main", step: 1 })]);
    expect(result.verdict).toBe("RED");
    expect(result.reason).toBe("request-rejected-by-api");
    expect(result.findings.map((f) => f.id)).toEqual(["observed-only", "request-rejected-by-api"]);
    expect(result.notes).toEqual(["n"]);
  });

  it("leaves a result alone when every request conformed", () => {
    const green: CheckResult = { verdict: "GREEN", reason: "resumed", findings: [], notes: [] };
    expect(withApiConformance(green, [entry(1, [], { stream: "main", step: 1 })])).toBe(green);
  });
});
