// The edit-transcript step: finds the transcript claude wrote for one session in the run's config dir and rewrites
// it with the scenario's edit, saying in the step record what changed (path, lines and bytes, sha256 before and after).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Step } from "./plan.ts";
import { StepFailure, type RunContext } from "./run-context.ts";
import { transcriptFiles } from "./transcripts.ts";

const sha = (text: string) => crypto.createHash("sha256").update(text).digest("hex").slice(0, 12);
const shape = (text: string) => `${text.split("\n").length - (text.endsWith("\n") ? 1 : 0)} lines, ${Buffer.byteLength(text)} bytes, sha256 ${sha(text)}`;

export function editTranscript(ctx: RunContext, step: Extract<Step, { kind: "edit-transcript" }>): string {
  const target = ctx.sessions.get(step.session);
  if (!target) throw new StepFailure(`the scenario edits session "${step.session}"'s transcript before starting it`);
  if (target.running) throw new StepFailure(`session ${step.session} still runs: stop it before editing its transcript (claude may still be writing it)`);
  const sessionId = target.process.sessionId;
  if (!sessionId) throw new StepFailure(`session "${step.session}" never reported a session id, so its transcript cannot be found`);
  const file = transcriptFiles(ctx.layout.config).find((f) => path.basename(f.path) === `${sessionId}.jsonl`);
  if (!file) throw new StepFailure(`no transcript ${sessionId}.jsonl under the config dir's projects/ (session ${step.session} wrote none)`);
  const before = fs.readFileSync(file.path, "utf8");
  const after = step.edit(before);
  fs.writeFileSync(file.path, after);
  return `${path.relative(ctx.layout.root, file.path)}: ${shape(before)} → ${shape(after)}`;
}
