// mcp-tools-first-turn on real releases, with ccrepro's real stdio MCP server taking 3 s to initialise: 2.1.141 waits
// for it and offers mcp__slowfix__lookup in the first request; 2.1.142 sends the first request after ~2 s without it
// (init says "pending"); 2.1.332 waits and names it among the ToolSearch deferred tools. Each run takes ~5 s.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "mcp-tools-first-turn";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.141", "GREEN", /init status connected; mcp__slowfix__lookup in tools in request #1$/],
    ["2.1.142", "RED", /read initialize never; init status pending; mcp__slowfix__lookup not offered in request #1$/],
    ["2.1.332", "GREEN", /init status connected; mcp__slowfix__lookup deferred \(named for ToolSearch\) in request #1$/],
  ])("on %s with a 3 s server: %s", async (release, verdict, seen) => {
    const run = await runOnRelease(SCENARIO, release, { delayMs: 3000 });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe(verdict);
    expect(run.record.result?.notes[0]).toMatch(seen);
  });

  it("is GREEN on 2.1.142 with a server that starts at once: the delay is the trigger", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.142", { delayMs: 0 });
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
  });
});
