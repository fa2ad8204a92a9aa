// resume-background-daemon-gone's check on runs recorded from real releases (test/fixtures/runs README), and on
// edited copies of them for the edges: 2.1.223 resumes both ids once the agent is stopped and its daemon gone (GREEN);
// 2.1.332's control (`end=none`) refuses the background session's id while its agent still runs.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("resume-background-daemon-gone")!;
const GREEN_RUN = "bggone-green-2.1.223";
const CONTROL_RUN = "bggone-control-2.1.332";
const UI_ID = "7b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
const BG_ID = "1878a492-ee1d-402a-8ce1-2d0d6a18bc76";
const TRANSCRIPTS = path.join("transcripts", "-RUN-iso-work");

const check = (dir: string, params: Record<string, string> = {}) => scenario.check(loadRecordings(dir), scenario.params.parse(params));

// A session's process record, edited as JSON.
function editSession(dir: string, label: string, edit: (s: Record<string, unknown>) => void): void {
  editFile(dir, path.join("sessions", label, "session.json"), (text) => {
    const s = JSON.parse(text) as Record<string, unknown>;
    edit(s);
    return JSON.stringify(s, null, 1);
  });
}

// s3 refused: it exits 1, and no request of the run is its own (its pid matches no client of the mock).
function refuseS3(dir: string): void {
  editSession(dir, "s3", (s) => {
    s["exitCode"] = 1;
    s["pid"] = 1;
  });
}

describe("resume-background-daemon-gone's check", () => {
  it("2.1.223: GREEN — both ids were on disk before their resume started, and both were answered", () => {
    const result = check(recordedRun(GREEN_RUN));
    expect(result.verdict).toBe("GREEN");
    expect(result.findings).toEqual([]);
    expect(result.notes.slice(0, 2)).toEqual([
      `--resume ${UI_ID} (the UI's id, on disk): exit 0, 1 request(s), "finished"`,
      `--resume ${BG_ID} (the background session's id, on disk): exit 0, 1 request(s), "finished"`,
    ]);
  });

  it("RED resume-refused-as-background when a resume of a conversation on disk exits non-zero without a request", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    refuseS3(dir);
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.findings).toHaveLength(1);
    const [refused] = result.findings;
    expect(refused).toMatchObject({ id: "resume-refused-as-background", red: true, where: "session s3", title: `--resume ${BG_ID} was refused with no daemon left` });
    expect(refused!.detail).toEqual([`--resume ${BG_ID} (the background session's id, on disk): exit 1, 0 request(s), "finished"`]);
    // The same run judged as the control: the refusal is the release's rule while the agent runs, not red.
    const control = check(dir, { end: "none" });
    expect(control.verdict).toBe("GREEN");
    expect(control.findings).toMatchObject([{ id: "resume-refused-as-background", red: false, title: `--resume ${BG_ID} was refused while its background agent still runs (the control)` }]);
  });

  it("a resume that exits non-zero after a request, or exits 0 without one, is not a refusal", () => {
    const failedLater = copyRun(recordedRun(GREEN_RUN));
    editSession(failedLater, "s3", (s) => {
      s["exitCode"] = 1;
    });
    expect(check(failedLater).verdict).toBe("GREEN");
    const silent = copyRun(recordedRun(GREEN_RUN));
    editSession(silent, "s3", (s) => {
      s["pid"] = 1;
    });
    const result = check(silent);
    expect(result.verdict).toBe("GREEN");
    expect(result.notes).toContain(`--resume ${BG_ID} (the background session's id, on disk): exit 0, 0 request(s), "finished"`);
  });

  it("a refusal of a conversation not on disk is not counted: written only after the resume started, or without the prompt", () => {
    const late = copyRun(recordedRun(GREEN_RUN));
    refuseS3(late);
    editJsonLines(late, path.join(TRANSCRIPTS, `${BG_ID}.jsonl`), (rows) => rows.map((row) => (typeof row["timestamp"] === "string" ? { ...row, timestamp: "2099-01-01T00:00:00.000Z" } : row)));
    const lateResult = check(late);
    expect(lateResult.verdict).toBe("GREEN");
    expect(lateResult.findings).toEqual([]);
    expect(lateResult.notes).toContain(`--resume ${BG_ID} (the background session's id, no transcript): exit 1, 0 request(s), "finished"`);

    const noPrompt = copyRun(recordedRun(GREEN_RUN));
    refuseS3(noPrompt);
    editFile(noPrompt, path.join(TRANSCRIPTS, `${BG_ID}.jsonl`), (text) => text.replaceAll("CCREPRO_BGGONE_4T", "SOMETHING_ELSE"));
    expect(check(noPrompt).findings).toEqual([]);
  });

  it("INCONCLUSIVE when no resume targeted a conversation on disk", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    for (const id of [UI_ID, BG_ID]) editFile(dir, path.join(TRANSCRIPTS, `${id}.jsonl`), (text) => text.replaceAll("CCREPRO_BGGONE_4T", "SOMETHING_ELSE"));
    const result = check(dir);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toBe("no resume ran on a conversation on disk: no background session was listed, the daemon did not exit, or nothing was written");
    expect(result.notes).toEqual([
      `--resume ${UI_ID} (the UI's id, no transcript): exit 0, 1 request(s), "finished"`,
      `--resume ${BG_ID} (the background session's id, no transcript): exit 0, 1 request(s), "finished"`,
    ]);
  });

  it("a session that never ran, or ran without --resume, is no try", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    editSession(dir, "s3", (s) => {
      s["argv"] = (s["argv"] as string[]).filter((a) => a !== "--resume" && a !== BG_ID);
    });
    const result = check(dir);
    expect(result.verdict).toBe("GREEN");
    expect(result.notes.filter((n) => n.startsWith("--resume"))).toEqual([`--resume ${UI_ID} (the UI's id, on disk): exit 0, 1 request(s), "finished"`]);
  });

  it("a resume ended by a signal (no exit code) without a request is a refusal, shown as exit -", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    editSession(dir, "s3", (s) => {
      s["exitCode"] = null;
      s["pid"] = 1;
    });
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.findings[0]!.detail).toEqual([`--resume ${BG_ID} (the background session's id, on disk): exit -, 0 request(s), "finished"`]);
  });

  it("a transcript row counts only with a time before the resume started", () => {
    // Rows without a time: not on disk.
    const untimed = copyRun(recordedRun(GREEN_RUN));
    refuseS3(untimed);
    editJsonLines(untimed, path.join(TRANSCRIPTS, `${BG_ID}.jsonl`), (rows) => rows.map(({ timestamp: _dropped, ...row }) => row));
    expect(check(untimed).findings).toEqual([]);
    // Rows written at the very millisecond the resume started: not before it.
    const same = copyRun(recordedRun(GREEN_RUN));
    const at = "2026-12-06T06:02:45.000Z";
    editJsonLines(same, path.join(TRANSCRIPTS, `${BG_ID}.jsonl`), (rows) => rows.map((row) => (typeof row["timestamp"] === "string" ? { ...row, timestamp: at } : row)));
    editSession(same, "s3", (s) => {
      s["exitCode"] = 1;
      s["pid"] = 1;
      s["startedAt"] = Date.parse(at);
    });
    expect(check(same).findings).toEqual([]);
    editSession(same, "s3", (s) => {
      s["startedAt"] = Date.parse(at) + 1;
    });
    expect(check(same).verdict).toBe("RED");
  });

  it("a session whose record is gone is no try; a long result is cut to 200 characters in the note", () => {
    const gone = copyRun(recordedRun(GREEN_RUN));
    fs.rmSync(path.join(gone, "sessions", "s3"), { recursive: true });
    const result = check(gone);
    expect(result.verdict).toBe("GREEN");
    expect(result.notes.filter((n) => n.startsWith("--resume"))).toEqual([`--resume ${UI_ID} (the UI's id, on disk): exit 0, 1 request(s), "finished"`]);

    const long = copyRun(recordedRun(GREEN_RUN));
    editJsonLines(long, path.join("sessions", "s3", "stdout.jsonl"), (rows) =>
      rows.map((row) => {
        // Each line holds the CLI's own output line as `raw`.
        const raw = JSON.parse(row["raw"] as string) as Record<string, unknown>;
        return raw["type"] === "result" ? { ...row, raw: JSON.stringify({ ...raw, result: "x".repeat(300) }) } : row;
      }),
    );
    expect(check(long).notes).toContain(`--resume ${BG_ID} (the background session's id, on disk): exit 0, 1 request(s), "${"x".repeat(199)}`);
  });

  it("with attach=agents-view, judges only a run whose background session's id was resumed from disk", () => {
    const attached = check(recordedRun(GREEN_RUN), { attach: "agents-view" });
    expect(attached.verdict).toBe("GREEN");
    const refused = copyRun(recordedRun(GREEN_RUN));
    refuseS3(refused);
    expect(check(refused, { attach: "agents-view" })).toMatchObject({ verdict: "RED", findings: [{ id: "resume-refused-as-background", red: true }] });
    const never = copyRun(recordedRun(GREEN_RUN));
    editFile(never, path.join(TRANSCRIPTS, `${BG_ID}.jsonl`), (text) => text.replaceAll("CCREPRO_BGGONE_4T", "SOMETHING_ELSE"));
    const result = check(never, { attach: "agents-view" });
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toBe("the background session's id was not resumed from disk: nothing the agents view opened was tried");
    expect(result.notes[0]).toBe(`--resume ${UI_ID} (the UI's id, on disk): exit 0, 1 request(s), "finished"`);
    // Without the attach, the UI's id alone is enough.
    expect(check(never).verdict).toBe("GREEN");
  });

  it("2.1.332's control: the background session's id is refused while its agent runs (finding, not red)", () => {
    const result = check(recordedRun(CONTROL_RUN), { end: "none" });
    expect(result.verdict).toBe("GREEN");
    const refused = result.findings.filter((f) => f.id === "resume-refused-as-background");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ red: false, where: "session s3" });
    expect(refused[0]!.detail[0]).toMatch(/\(the background session's id, on disk\): exit 1, 0 request\(s\)/);
    // Judged as if the agent had been stopped and the daemon were gone, the same refusal is the bug.
    expect(check(recordedRun(CONTROL_RUN)).verdict).toBe("RED");
  });
});
