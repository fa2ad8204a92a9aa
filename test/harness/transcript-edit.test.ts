// The edit-transcript step: rewrites the ended session's own transcript and says what changed; refuses a running
// session, one without a session id, and one that wrote no transcript.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runLayout } from "../../harness/run-layout.ts";
import type { RunContext } from "../../harness/run-context.ts";
import { editTranscript } from "../../harness/transcript-edit.ts";

const ID = "11111111-2222-3333-4444-555555555555";

function context(session: { running: boolean; sessionId: string | null }, write = true) {
  const layout = runLayout(fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-edit-")));
  const file = path.join(layout.config, "projects", "-proj", `${ID}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (write) fs.writeFileSync(file, '{"a":1}\n{"b":2}\n');
  fs.writeFileSync(path.join(path.dirname(file), "other.jsonl"), "{}\n");
  const sessions = new Map([["s1", { running: session.running, process: { sessionId: session.sessionId } }]]);
  return { ctx: { layout, sessions } as unknown as RunContext, file };
}

const step = { kind: "edit-transcript" as const, label: "cut", session: "s1", edit: (text: string) => `${text}{"c":` };

describe("edit-transcript", () => {
  it("rewrites the session's file and reports lines, bytes and hashes before and after", () => {
    const { ctx, file } = context({ running: false, sessionId: ID });
    expect(editTranscript(ctx, step)).toMatch(new RegExp(`^iso/config/projects/-proj/${ID}\\.jsonl: 2 lines, 16 bytes, sha256 \\w{12} → 3 lines, 21 bytes, sha256 \\w{12}$`));
    expect(fs.readFileSync(file, "utf8")).toBe('{"a":1}\n{"b":2}\n{"c":');
  });

  it("fails the step for a running session, a session without an id, and a missing transcript", () => {
    expect(() => editTranscript(context({ running: true, sessionId: ID }).ctx, step)).toThrow(/still runs/);
    expect(() => editTranscript(context({ running: false, sessionId: null }).ctx, step)).toThrow(/never reported a session id/);
    expect(() => editTranscript(context({ running: false, sessionId: ID }, false).ctx, step)).toThrow(/no transcript/);
  });
});
