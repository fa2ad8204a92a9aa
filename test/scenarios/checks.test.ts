// Each built-in scenario's `check` on runs recorded from real releases (test/fixtures/background and
// test/fixtures/runs: their READMEs say how each was recorded), and on edits of them that change one fact the check reads.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const background = (name: string) => path.join(import.meta.dirname, "..", "fixtures", "background", name);

function check(scenarioName: string, dir: string, params: Record<string, string> = {}) {
  const scenario = findScenario(scenarioName)!;
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id), red: result.findings.filter((f) => f.red).map((f) => f.id) };
}

describe("background-mid-turn's check", () => {
  const bgCheck = (dir: string) => check("background-mid-turn", dir);

  it("2.1.332 (a whole terminal run): GREEN, the background session re-ran the turn once", () => {
    const result = bgCheck(background("2.1.332-terminal"));
    expect(result.verdict).toBe("GREEN");
    expect(result.ids).toEqual(["turn-rerun"]);
  });

  it("2.1.150: RED turn-dropped, and tool-killed when the exiting UI reported the kill", () => {
    expect(bgCheck(background("2.1.150-dropped"))).toMatchObject({ verdict: "RED", red: ["turn-dropped"] });
    expect(bgCheck(background("2.1.150-killed-in-foreground"))).toMatchObject({ verdict: "RED", red: ["turn-dropped", "tool-killed"] });
  });

  it("tells the UI from the background session by the UI's pid, not by the session id the requests carry", () => {
    // 2.1.332-terminal with the background session's requests (3–7, pid 8531) carrying the UI's session id: only the
    // recorded UI pid (8127) still says another process answered the turn.
    const dir = copyRun(background("2.1.332-terminal"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => {
      const uiSession = (lines[0]!.headers as Record<string, string>)["x-claude-code-session-id"];
      return lines.map((line) =>
        line.kind === "request" && (line.client as { pid: number }).pid === 8531
          ? { ...line, headers: { ...(line.headers as Record<string, string>), "x-claude-code-session-id": uiSession } }
          : line,
      );
    });
    expect(bgCheck(dir)).toMatchObject({ verdict: "GREEN", ids: ["turn-rerun"] });
  });

  it("judges by session id when the UI's process record is missing (no session.json)", () => {
    const dir = copyRun(background("2.1.332-terminal"));
    fs.rmSync(path.join(dir, "sessions", "ui", "session.json"));
    expect(bgCheck(dir)).toMatchObject({ verdict: "GREEN", ids: ["turn-rerun"] });
  });

  it("is RED turn-dropped when the UI's own process sent the answer and nobody else did", () => {
    const dir = copyRun(background("2.1.332-terminal"));
    editJsonLines(dir, "mock/index.jsonl", (lines) =>
      lines.map((line) => (line.kind === "request" ? { ...line, client: { ...(line.client as object), pid: 8127 } } : line)),
    );
    expect(bgCheck(dir)).toMatchObject({ verdict: "RED", red: ["turn-dropped"] });
  });
});

describe("interrupt-mid-tool-resume's check", () => {
  it("2.1.234 SIGKILL: GREEN with the call erased (informational)", () => {
    const result = check("interrupt-mid-tool-resume", recordedRun("interrupt-erased-2.1.234"));
    expect(result).toMatchObject({ verdict: "GREEN", ids: ["interrupted-call-erased"], red: [] });
  });

  it("2.1.332 SIGKILL and 2.1.234 interrupt: GREEN with the call kept", () => {
    expect(check("interrupt-mid-tool-resume", recordedRun("interrupt-kept-2.1.332"))).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(check("interrupt-mid-tool-resume", recordedRun("interrupt-control-2.1.234"), { how: "interrupt" })).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  it("is INCONCLUSIVE, never GREEN, when the resumed session's prompt never reached the mock", () => {
    const dir = copyRun(recordedRun("interrupt-kept-2.1.332"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.filter((line) => line.seq !== 2));
    const result = check("interrupt-mid-tool-resume", dir);
    expect(result.verdict).toBe("INCONCLUSIVE");
  });
});

describe("print-resume-cache-reuse's check", () => {
  const printCheck = (dir: string) => check("print-resume-cache-reuse", dir);
  const withoutResult = (line: Record<string, unknown>) => (JSON.parse(line.raw as string) as { type?: string }).type !== "result";

  it("2.1.69: RED at both stop boundaries, each finding naming its boundary; 2.1.332: GREEN", () => {
    const red = printCheck(recordedRun("print-resume-red-2.1.69"));
    expect(red.verdict).toBe("RED");
    expect(red.findings.map((f) => [f.id, f.where])).toEqual([
      ["resume-reads-less-than-readable", "process resume 1 (main, prompt): req 2 → req 3"],
      ["resume-reads-less-than-readable", "process resume 2 (main, prompt): req 3 → req 4"],
      ["resume-reads-never-grow", "process resume 2 (main, prompt): req 3 → req 4"],
    ]);
    expect(printCheck(recordedRun("print-resume-green-2.1.332"))).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  // The GREEN 2.1.332 run with the RED 2.1.69 run's requests put before it as another stream ("side"): only the main
  // conversation's resumes are judged, whichever stream the mock saw first.
  it("judges the main stream only, even when another stream with cache misses came first", () => {
    const dir = copyRun(recordedRun("print-resume-green-2.1.332"));
    const red = recordedRun("print-resume-red-2.1.69");
    const bodyFile = (seq: number) => path.join("requests", `${String(seq).padStart(6, "0")}.body`);
    const indexLines = (run: string) =>
      fs.readFileSync(path.join(run, "mock", "index.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestSeqs = (lines: Record<string, unknown>[]) => lines.filter((l) => l.kind === "request").map((l) => l.seq as number);
    const redLines = indexLines(red);
    const shift = Math.max(...requestSeqs(redLines));
    // The GREEN run's bodies move up by `shift`, highest first, so no rename lands on a body not yet moved.
    for (const seq of requestSeqs(indexLines(dir)).sort((a, b) => b - a)) fs.renameSync(path.join(dir, "mock", bodyFile(seq)), path.join(dir, "mock", bodyFile(seq + shift)));
    for (const seq of requestSeqs(redLines)) fs.copyFileSync(path.join(red, "mock", bodyFile(seq)), path.join(dir, "mock", bodyFile(seq)));
    editJsonLines(dir, "mock/index.jsonl", (lines) => [
      ...redLines.map((l) => (l.kind === "request" ? { ...l, stream: "side" } : l)),
      ...lines.map((l) => ({ ...l, seq: (l.seq as number) + shift, ...(l.kind === "request" ? { bodyFile: bodyFile((l.seq as number) + shift) } : {}) })),
    ]);
    const result = printCheck(dir);
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes.filter((n) => n.startsWith("cache (side)")).length).toBe(1);
  });

  it("is INCONCLUSIVE when the mock saw no request of the main conversation at all", () => {
    const dir = copyRun(recordedRun("print-resume-green-2.1.332"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" ? { ...l, stream: "side" } : l)));
    expect(printCheck(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the mock saw 0 of 2 resumed turns of the conversation", ids: [] });
  });

  it("is INCONCLUSIVE, never GREEN, when a session printed no result", () => {
    const dir = copyRun(recordedRun("print-resume-green-2.1.332"));
    editJsonLines(dir, "sessions/p3/stdout.jsonl", (lines) => lines.filter(withoutResult));
    expect(printCheck(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session p3 printed no result" });
  });

  it("is INCONCLUSIVE when the mock saw only one of the two resumed turns", () => {
    const dir = copyRun(recordedRun("print-resume-green-2.1.332"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.filter((line) => line.seq !== 4));
    expect(printCheck(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the mock saw 1 of 2 resumed turns of the conversation" });
  });
});

describe("resume-orphaned-background-task's check: the points it must reach", () => {
  const orphanCheck = (dir: string) => check("resume-orphaned-background-task", dir);

  it.each(["s1", "s2"])("is INCONCLUSIVE when session %s was never recorded", (label) => {
    const dir = copyRun(recordedRun("orphan-red-2.1.332"));
    fs.rmSync(path.join(dir, "sessions", label), { recursive: true });
    expect(orphanCheck(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the run never reached the resumed session", findings: [], notes: [] });
  });

  it("is INCONCLUSIVE when session 2 never answered its prompt, with the premise's note kept", () => {
    const dir = copyRun(recordedRun("orphan-control-2.1.234"));
    editJsonLines(dir, "sessions/s2/stdout.jsonl", (lines) => lines.filter((line) => (JSON.parse(line.raw as string) as { type?: string }).type !== "result"));
    const result = check("resume-orphaned-background-task", dir, { background: "false" });
    expect(result).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 2 never answered the pushed prompt" });
  });
});

describe("subagent-resume-notification-header's check", () => {
  it("is INCONCLUSIVE, not GREEN, when fewer resumes happened than were asked for", () => {
    const result = check("subagent-resume-notification-header", recordedRun("notification-green-2.1.332"), { resumes: "2" });
    expect(result).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the subagent was resumed 1 time(s), not the 2 asked for" });
    expect(check("subagent-resume-notification-header", recordedRun("notification-green-2.1.332")).verdict).toBe("GREEN");
  });
});

describe("interrupt-mid-tool-resume's check finds the resumed request by its prompt", () => {
  it("is INCONCLUSIVE when no request of the resumed session carries the pushed prompt", () => {
    const dir = copyRun(recordedRun("interrupt-kept-2.1.332"));
    editFile(dir, "mock/requests/000002.body", (text) => text.replaceAll("RESUMED_MSG", "OTHER_MSG"));
    expect(check("interrupt-mid-tool-resume", dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session s2 sent no main request carrying the pushed prompt" });
  });
});
