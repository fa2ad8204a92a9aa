// anthropics/claude-code#5317's class on real releases: claude stopped mid foreground tool, then --resume. The
// bisected boundary (1.0.27 keeps the call without a result, which the API rejects; 1.0.30 erases it), both ends of the
// releases that erase the call after SIGKILL (1.0.128, 2.1.234), the first measured one that keeps it (2.1.332), the
// interrupt control request (keeps it on 2.1.234 too), and a fault run: from 1.0.30 no request is rejected.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "interrupt-mid-tool-resume";
const ids = (findings: { id: string }[]) => findings.map((f) => f.id);

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it("1.0.27 after SIGKILL: RED request-rejected-by-api, the call kept with no tool_result (#5317's 400)", async () => {
    const run = await runOnRelease(SCENARIO, "1.0.27", { how: "sigkill" });
    const { record } = run;
    expect(record.result.verdict, verdictMessage(run)).toBe("RED");
    expect(ids(record.result.findings)).toEqual(["request-rejected-by-api"]);
    expect(record.result.notes.join("\n")).toMatch(/kept: tool_use \S+ at messages\[1\], with no tool_result/);
  });

  it.each(["1.0.30", "1.0.128", "2.1.234"])("%s after SIGKILL: the resumed request conforms, with no trace of the call", async (version) => {
    const run = await runOnRelease(SCENARIO, version, { how: "sigkill" });
    const { record } = run;
    expect(record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(ids(record.result.findings)).toEqual(["interrupted-call-erased"]);
    expect(record.result.findings[0]!.detail.join("\n")).toMatch(/assistant: text "No response requested\."/);
  });

  it("2.1.332 after SIGKILL: keeps the tool_use, answered by a synthetic [Tool call interrupted…] result", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { how: "sigkill" });
    const { record } = run;
    expect(record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(record.result.findings).toEqual([]);
    expect(record.result.notes.join("\n")).toMatch(/kept: tool_use \S+ at messages\[1\], answered by tool_result "\[Tool call interrupted/);
  });

  it("2.1.234 after the interrupt control request: keeps the call with the rejected-tool-use result", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.234", { how: "interrupt" });
    const { record } = run;
    expect(record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(record.result.findings).toEqual([]);
    expect(record.result.notes.join("\n")).toMatch(/kept: .* answered by tool_result "The user doesn't want to proceed/);
  });

  it("2.1.332 with the stream cut mid tool_use: the retry and the resumed request both conform", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { fault: "cut-mid-tool-use" });
    const { record } = run;
    expect(record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(ids(record.result.findings)).not.toContain("request-rejected-by-api");
    expect(record.result.notes.join("\n")).toMatch(/got the fault "drop after 4 events"; the next request, \d+ \(step 0, 1 messages\), conforms/);
  });
});
