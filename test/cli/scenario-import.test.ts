import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scenarioFromRecording } from "../../cli/scenario-import.ts";
import { writeRecording, type RecordedExchange, type Recording } from "../../mock-api/recording.ts";
import { mockScriptSchema } from "../../mock-api/script.ts";
import { loadScenario } from "../../pipeline/scenario-source.ts";

const SESSION_ID = "a2accd3f-abc4-4174-9a8b-0123456789ab";
const request = (seq: number, process: number, last: unknown, extra: Record<string, unknown> = {}): RecordedExchange => ({
  seq,
  label: "messages",
  startMs: seq,
  process,
  request: {
    method: "POST",
    path: "/v1/messages",
    query: "beta=true",
    headers: {},
    body: { text: JSON.stringify({ model: "claude-sonnet-4-5", metadata: { user_id: `session_${SESSION_ID}` }, messages: [{ role: "user", content: last }], ...extra }) },
  },
  response: { status: 200, headers: { "content-type": "application/json" }, firstByteMs: 1, endMs: 1, outcome: "complete", sse: null, body: { text: "{}" } },
  error: null,
});

const recording: Recording = {
  format: "ccrepro-recording",
  version: 1,
  recordedAt: "2026-12-01T22:00:00.000Z",
  upstream: "http://127.0.0.1:1",
  command: null,
  processes: [
    { pid: 10, argv: ["/x/claude", "-p", "FIRST do it", "--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5", "--max-turns", "3"], firstSeq: 1 },
    { pid: 11, argv: ["node", "/x/cli.js", "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--resume", SESSION_ID], firstSeq: 3 },
  ],
  exchanges: [
    request(1, 0, [{ type: "text", text: "<system-reminder>x</system-reminder>" }, { type: "text", text: "FIRST do it" }]),
    request(2, 0, [{ type: "tool_result", tool_use_id: "t", content: "done" }]),
    request(3, 1, "SECOND go on"),
    request(4, 1, "THIRD and more"),
  ],
};

describe("ccrepro import's scenario text", () => {
  const { text } = scenarioFromRecording(recording, { name: "my-bug", recordingFile: "my-bug.recording.json", from: "recording.json" });

  it("makes a -p process a print step with its own flags, and a stream-json process a resumed session with its prompts", () => {
    expect(text).toContain(`print(s1, "FIRST do it", { timeout: 90_000, args: ["--max-turns","3"] }),`);
    expect(text).toContain(`...resume(s2, { from: s1, prompt: "SECOND go on" }),`);
    expect(text).toContain(`send(s2, "THIRD and more"),`);
    expect(text).toContain("stop(s2),");
    expect(text).toMatch(/^import \{ [^}]+ \} from "ccrepro";$/m);
    expect(text).toContain(`import { replayFidelity } from "ccrepro/checkers";`);
    expect(text).not.toContain("/x/");
  });

  it("loads as a scenario whose mock script replays the recording", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-import-"));
    writeRecording(path.join(dir, "my-bug.recording.json"), recording);
    fs.writeFileSync(path.join(dir, "my-bug.ts"), text);
    const scenario = await loadScenario(path.join(dir, "my-bug.ts"));
    const script = mockScriptSchema.parse(scenario.mockScript({}));
    expect(script.replay?.exchanges.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(scenario.steps({}, { driver: "headless" }).map((s) => s.kind)).toEqual(["print", "start", "send", "wait", "send", "wait", "stop"]);
  });
});
