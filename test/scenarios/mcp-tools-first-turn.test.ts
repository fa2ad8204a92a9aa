// mcp-tools-first-turn's check on recorded runs of real releases (test/fixtures/runs README), 3 s server: 2.1.141
// offers the tool in `tools`, 2.1.142 sends its first request without it (init "pending"), 2.1.332 names it for
// ToolSearch; and edited copies: a run whose server never started is INCONCLUSIVE, a tool taken out is RED.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

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

  // Premises, one taken away at a time from the 2.1.141 run (its request #1 arrived at 1796175709518.9456).
  const OFFERED = "mcp-offered-2.1.141";
  const NO_TURN = "the turn never made its first model request and printed a result";
  const dropStdout = (dir: string, type: string) =>
    editFile(dir, path.join("sessions", "s1", "stdout.jsonl"), (text) => text.split("\n").filter((line) => !line.includes(`\\"type\\":\\"${type}\\"`)).join("\n"));
  const editEvents = (dir: string, edit: (events: Record<string, unknown>[]) => Record<string, unknown>[]) => editJsonLines(dir, path.join("mcp", "slowfix.jsonl"), edit);

  it.each([
    ["no init line", (dir: string) => dropStdout(dir, "system")],
    ["no result", (dir: string) => dropStdout(dir, "result")],
    ["no request of the main conversation", (dir: string) => editJsonLines(dir, path.join("mock", "index.jsonl"), (lines) => lines.map((l) => (l.kind === "request" ? { ...l, stream: "sub" } : l)))],
  ])("INCONCLUSIVE with %s", (_label, edit) => {
    const dir = copyRun(recordedRun(OFFERED));
    edit(dir);
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: NO_TURN, findings: [] });
  });

  it("INCONCLUSIVE when the server started only as the first request arrived, though its later events came before", () => {
    const dir = copyRun(recordedRun(OFFERED));
    editEvents(dir, (events) => events.map((e) => (e.event === "started" ? { ...e, t: 1796175709518.9456 } : e)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "claude never started the MCP server before its first request" });
  });

  it("times initialize from the process claude started, not another one's", () => {
    const dir = copyRun(recordedRun(OFFERED));
    editEvents(dir, (events) => [events[0]!, { t: 1796175706610.6394, event: "request", pid: 1, method: "initialize", id: 0 }, ...events.slice(1)]);
    expect(check(dir).notes[0]).toBe(
      "server started 3.4 s before request #1, read initialize 3.0 s after it started; init status connected; mcp__slowfix__lookup in tools in request #1",
    );
  });

  it("reads the server's status from its own entry of init, absent when init does not list it", () => {
    const other = copyRun(recordedRun(OFFERED));
    editFile(other, path.join("sessions", "s1", "stdout.jsonl"), (text) => text.replace('mcp_servers\\":[', 'mcp_servers\\":[{\\"name\\":\\"other\\",\\"status\\":\\"failed\\"},'));
    expect(check(other).notes[0]).toContain("; init status connected;");
    const absent = copyRun(recordedRun(OFFERED));
    editFile(absent, path.join("sessions", "s1", "stdout.jsonl"), (text) => text.replace('{\\"name\\":\\"slowfix\\",\\"status\\":\\"connected\\"}', ""));
    expect(check(absent).notes[0]).toContain("; init status absent;");
  });

  it("RED's finding says what the first request lacked and what init said", () => {
    const [f] = check(recordedRun("mcp-missing-2.1.142")).findings;
    expect(f).toMatchObject({ title: "the first request offers no mcp__slowfix__lookup (the server took 3000 ms to initialise; init says pending)" });
    expect(f!.where).toMatch(/^request #1; s1 stdout line \d+$/);
  });
});
