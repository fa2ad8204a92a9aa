// rejected-image-resent's check on recorded runs (test/fixtures/runs/README.md): 2.1.58 (a release #43016 names) sends
// the image the Read tool returned, which the API refused, again with the next turn (RED); 2.1.166 (the CHANGELOG's fix
// of the recurring error) asks again without the pasted image and the next turn carries none (GREEN). Edge cases and the
// INCONCLUSIVE branches on edited copies.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("rejected-image-resent")!;
const RESENT = "image-resent-2.1.58";
const REMOVED = "image-removed-2.1.166";

function check(dir: string, params: Record<string, unknown>) {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
}
type Line = Record<string, unknown> & { seq?: number; reply?: Record<string, unknown> };
const editReply = (dir: string, seq: number, reply: Record<string, unknown>) =>
  editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l: Line) => (l.kind === "request" && l.seq === seq ? { ...l, reply: { ...l.reply, ...reply } } : l)));

describe("rejected-image-resent's check on the recorded runs", () => {
  it("2.1.58 via=read: RED, the next turn's request carries the refused image and is refused again", () => {
    const r = check(recordedRun(RESENT), { via: "read" });
    expect(r.verdict).toBe("RED");
    expect(r.ids).toEqual(["rejected-block-resent"]);
    const f = r.findings[0]!;
    expect(f.title).toBe("the image the API refused is sent again with the next turn, and refused again (1 request(s))");
    expect(f.where).toBe("request #6 $.messages[4].content[0].content[0]");
    expect(f.detail).toEqual(["#6: 1 image block(s), answered 400"]);
    expect(r.notes).toEqual([
      "refused: #5 at $.messages[4].content[0].content[0]",
      "main: #2 step 0 images 0 → 200, #4 step 1 images 0 → 200, #5 step 2 images 1 → 400, #6 step 2 images 1 → 400",
    ]);
  });

  it("2.1.166 via=prompt: GREEN, asked again without the image, and the next turn carries none", () => {
    const r = check(recordedRun(REMOVED), { via: "prompt" });
    expect(r.verdict).toBe("GREEN");
    expect(r.ids).toEqual([]);
    expect(r.notes).toEqual(["refused: #1 at $.messages[0].content[3]", "main: #1 step 0 images 1 → 400, #2 step 0 images 0 → 200, #3 step 1 images 0 → 200"]);
  });
});

describe("rejected-image-resent's check on edited copies", () => {
  it("a 400 that is not the mock's fault is not the refusal", () => {
    const dir = copyRun(recordedRun(RESENT));
    editReply(dir, 5, { fault: null });
    // #6 is then the refusal, and no later request carries the second prompt.
    const r = check(dir, { via: "read" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("no request of the second turn was made");
  });

  it("INCONCLUSIVE when no request carrying an image was answered 400", () => {
    const dir = copyRun(recordedRun(REMOVED));
    editReply(dir, 1, { status: 200 });
    const r = check(dir, { via: "prompt" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("no request carrying an image was answered 400");
    expect(r.ids).toEqual([]);
  });

  it("a faulted 400 without an image is not the refusal", () => {
    const dir = copyRun(recordedRun(REMOVED));
    editReply(dir, 1, { status: 200 });
    editReply(dir, 2, { status: 400, fault: "http-error 400" });
    expect(check(dir, { via: "prompt" }).reason).toContain("no request carrying an image was answered 400");
  });

  it("INCONCLUSIVE when the session printed fewer than two results", () => {
    const dir = copyRun(recordedRun(REMOVED));
    let dropped = false;
    editJsonLines(dir, "sessions/s1/stdout.jsonl", (lines) =>
      lines.filter((l) => {
        if (!dropped && String(l.raw).includes('"type":"result"')) return !(dropped = true);
        return true;
      }),
    );
    const r = check(dir, { via: "prompt" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("the session did not print the second turn's result");
  });

  it("INCONCLUSIVE when no request after the refusal carries the second prompt", () => {
    const dir = copyRun(recordedRun(REMOVED));
    editFile(dir, "mock/requests/000003.body", (text) => text.replaceAll("forget the picture", "something else"));
    const r = check(dir, { via: "prompt" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("no request of the second turn was made");
  });

  it("the second prompt before the refusal does not count as the second turn", () => {
    const dir = copyRun(recordedRun(RESENT));
    // #6 becomes the refusal's predecessor: only requests after the refusal count.
    editReply(dir, 6, { fault: null, status: 200 });
    editReply(dir, 5, { fault: null, status: 200 });
    const r = check(dir, { via: "read" });
    expect(r.verdict).toBe("INCONCLUSIVE");
  });
});
