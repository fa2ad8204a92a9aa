// mcp-tools-first-turn's check on recorded runs of real releases (test/fixtures/runs README), 3 s server: 2.1.141
// offers the tool in `tools`, 2.1.142 sends its first request without it (init "pending"), 2.1.332 names it for
// ToolSearch; and edited copies: a run whose server never started is INCONCLUSIVE, a tool taken out is RED.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("mcp-tools-first-turn")!;
const check = (dir: string) => scenario.check(loadRecordings(dir), scenario.params.parse({ delayMs: 3000 }));

describe("mcp-tools-first-turn's check", () => {
  it("2.1.141: GREEN — it waited for the server, and the first request offers mcp__slowfix__lookup", () => {
    const result = check(recordedRun("mcp-offered-2.1.141"));
    expect(result.verdict).toBe("GREEN");
    expect(result.notes[0]).toMatch(/read initialize 3\.\d s after it started; init status connected; mcp__slowfix__lookup in tools in request #1$/);
  });

  it("2.1.142: RED mcp-tools-missing-first-turn — the first request left before the server answered initialize", () => {
    const result = check(recordedRun("mcp-missing-2.1.142"));
    expect(result.verdict).toBe("RED");
    expect(result.findings.map((f) => f.id)).toEqual(["mcp-tools-missing-first-turn"]);
    expect(result.notes[0]).toMatch(/read initialize never; init status pending; mcp__slowfix__lookup not offered in request #1$/);
  });

  it("2.1.332: GREEN — the tool is named among the deferred tools ToolSearch loads", () => {
    const result = check(recordedRun("mcp-deferred-2.1.332"));
    expect(result.verdict).toBe("GREEN");
    expect(result.notes[0]).toContain("mcp__slowfix__lookup deferred (named for ToolSearch) in request #1");
  });

  it("INCONCLUSIVE when the recordings do not show the server started: the trigger never happened", () => {
    const dir = copyRun(recordedRun("mcp-missing-2.1.142"));
    fs.rmSync(path.join(dir, "mcp"), { recursive: true });
    const result = check(dir);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toContain("claude never started the MCP server before its first request");
  });

  it("RED when the 2.1.141 request is edited to offer no MCP tool", () => {
    const dir = copyRun(recordedRun("mcp-offered-2.1.141"));
    editBody(dir, 1, (body) => {
      body.tools = (body.tools as { name: string }[]).filter((t) => !t.name.startsWith("mcp__"));
    });
    expect(check(dir).verdict).toBe("RED");
  });
});
