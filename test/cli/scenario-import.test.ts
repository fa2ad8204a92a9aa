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

describe("ccrepro import of a plain claude -p session", () => {
  const system = "x-anthropic-billing-header: cc_version=2.1.332.201;\n# Environment\n - Primary working directory: /home/alice/proj\n - Is a git repository: false\n";
  const first = "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nCodebase and user instructions are shown below.\n\nContents of /home/alice/proj/CLAUDE.md (project instructions, checked into the codebase):\n\n# Rules\nBe brief.\n\nContents of /home/alice/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nmine\n</system-reminder>";
  const plain: Recording = {
    ...recording,
    command: ["claude", "-p", "say pong"],
    processes: [{ pid: 10, argv: ["/x/claude", "-p", "say pong"], firstSeq: 1, env: { ANTHROPIC_API_KEY: "[redacted]", DISABLE_AUTOUPDATER: "1", SHELL: "/bin/zsh", CLAUDE_CONFIG_DIR: "/home/alice/.claude" } }],
    exchanges: [
      { ...request(1, 0, [{ type: "text", text: first }, { type: "text", text: "say pong" }], { model: "claude-opus-5-5", system }) },
    ],
  };
  const { text, warnings } = scenarioFromRecording(plain, { name: "plain", recordingFile: "plain.recording.json", from: "recording.json" });

  it("carries over the model of the first request, text output, default permissions and every setting source", () => {
    expect(text).toContain(`print(s1, "say pong", { timeout: 90_000, output: "text", args: ["--model","claude-opus-5-5"] }),`);
    expect(text).toContain(`permissions: { mode: "default" },`);
    expect(text).toContain(`settingSources: ["user","project","local"],`);
    expect(text).not.toContain("needs:");
  });

  it("carries over claude's variables, unsetting ccrepro's quiet switches the recording did not have", () => {
    expect(text).toContain(`env: {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC":null,"DISABLE_TELEMETRY":null,"DISABLE_ERROR_REPORTING":null,"SHELL":"/bin/zsh"},`);
  });

  it("reproduces a working directory outside git and the project's CLAUDE.md, and names what it cannot", () => {
    expect(text).toContain("gitRepository: false,");
    expect(text).toContain(`files: { work: {"CLAUDE.md":"# Rules\\nBe brief.\\n"} },`);
    expect(warnings).toEqual([
      "not reproduced: ANTHROPIC_API_KEY (a credential: the replay runs with ccrepro's fake key)",
      "not reproduced: CLAUDE_CONFIG_DIR (ccrepro sets it to the run's own folder)",
      "not reproduced: /home/alice/.claude/CLAUDE.md (an instruction file outside the working directory)",
    ]);
    expect(text).toContain("//   - CLAUDE_CONFIG_DIR (ccrepro sets it to the run's own folder)");
  });

  it("reads a cli.js release's argv, which /proc shows retitled, from the command ccrepro record ran", () => {
    const retitled = { ...plain, command: ["node", "/x/cli.js", "-p", "say pong", "--max-turns", "2"], processes: [{ ...plain.processes[0]!, argv: ["claude"] }] };
    expect(scenarioFromRecording(retitled, { name: "plain", recordingFile: "p.json", from: "r.json" }).text).toContain(`print(s1, "say pong", { timeout: 90_000, output: "text", args: ["--model","claude-opus-5-5","--max-turns","2"] }),`);
  });
});
