import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scenarioFromRecording } from "../../cli/scenario-import.ts";
import { writeRecording, type RecordedExchange, type Recording } from "../../mock-api/recording.ts";
import { mockScriptSchema } from "../../mock-api/script.ts";
import { loadScenario } from "../../pipeline/scenario-source.ts";
import { FAKE_API_KEY, fakeKeyOfKind } from "../../harness/isolation.ts";
import type { Recordings } from "../../harness/recordings.ts";
import { recording as kitRecording } from "../../kit/recording.ts";
import { servedSummary } from "../../mock-api/replay-script.ts";

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

describe("ccrepro import of an interactive session recorded with record --serve", () => {
  const ui = (seq: number, label: RecordedExchange["label"], last: unknown, extra: Record<string, unknown> = {}): RecordedExchange => {
    const exchange = request(seq, 0, last, { model: "claude-opus-5-5", tools: [{ name: "Bash" }], ...extra });
    return { ...exchange, label, request: { ...exchange.request, headers: { "user-agent": "claude-cli/2.1.332 (external, cli)" } } };
  };
  const title = (seq: number, prompt: string) => ui(seq, "title", [{ type: "text", text: `<session>\n${prompt}\n</session>` }], { model: "claude-haiku-5-5", tools: [] });
  const notification = "<system-reminder>\n[SYSTEM NOTIFICATION - NOT USER INPUT]\n<task-notification><status>completed</status></task-notification>\n</system-reminder>";
  const session: Recording = {
    ...recording,
    processes: [{ pid: 10, argv: ["/x/claude", "--dangerously-skip-permissions"], firstSeq: 2, env: { ANTHROPIC_API_KEY: "[redacted]", IS_SANDBOX: "1" }, keyKinds: { ANTHROPIC_API_KEY: "api" } }],
    exchanges: [
      title(1, "RUN it"),
      ui(2, "messages", [{ type: "text", text: "<system-reminder>context</system-reminder>" }, { type: "text", text: "RUN it" }]),
      ui(3, "messages", [{ type: "tool_result", tool_use_id: "t", content: "ran" }]),
      ui(4, "messages", [{ type: "text", text: notification }]),
      title(5, "and then?"),
      ui(6, "messages", [{ type: "text", text: "and then?" }]),
    ],
  };
  const { text, warnings } = scenarioFromRecording(session, { name: "ui", recordingFile: "ui.recording.json", from: "recording.json" });

  it("opens the UI and types each prompt once the turn before it was served as recorded; a notification is no prompt", () => {
    expect(text).toContain(`terminal(s1, { args: ["--model","claude-opus-5-5"] }),`);
    expect(text).toContain(`    type(s1, "RUN it"),\n    press(s1, "enter"),\n    wait("s1: prompt 1 answered as recorded (requests #2, #3, #4)", recorded.served([2,3,4])),`);
    expect(text).toContain(`    type(s1, "and then?"),\n    press(s1, "enter"),\n    wait("s1: prompt 2 answered as recorded (requests #6)", recorded.served([6])),`);
    expect(text).toContain(`wait("every recorded request was replayed", recorded.served()),`);
    expect(text).not.toContain("SYSTEM NOTIFICATION");
    expect(text).not.toContain("permissions:");
  });

  it("runs with ccrepro's fake key of the recorded kind, computed as the file loads so no key-shaped text is written", async () => {
    expect(text).toContain(`ANTHROPIC_API_KEY: recorded.apiKey },`);
    expect(warnings).toContain("not reproduced: ANTHROPIC_API_KEY (a credential: the replay runs with ccrepro's fake key, of the recorded kind sk-ant-api…)");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-import-ui-"));
    writeRecording(path.join(dir, "ui.recording.json"), session);
    fs.writeFileSync(path.join(dir, "ui.ts"), text);
    const scenario = await loadScenario(path.join(dir, "ui.ts"));
    expect(scenario.env?.["ANTHROPIC_API_KEY"]).toBe(fakeKeyOfKind("api"));
    expect(fakeKeyOfKind("api").slice(7, 10)).toBe("api");
    expect(fakeKeyOfKind("api").endsWith(FAKE_API_KEY.slice(-20))).toBe(true);
    expect(scenario.steps({}, { driver: "terminal" }).map((s) => s.kind)).toEqual(["terminal", "type", "press", "wait", "type", "press", "wait", "wait"]);
  });

  it("waits, through recorded.served, until each listed recorded request was served and its reply ended", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-import-served-"));
    writeRecording(path.join(dir, "ui.recording.json"), session);
    const loaded = kitRecording(path.join(dir, "ui.recording.json"));
    const entry = (seq: number, summary: string) => ({ seq, reply: { summary } });
    const rec = (entries: Array<ReturnType<typeof entry>>, ended: number[]) => ({ requests: entries, responseEnds: new Map(ended.map((seq) => [seq, {}])) }) as unknown as Recordings;
    const sent = [entry(1, servedSummary(2)), entry(2, servedSummary(3)), entry(3, "ccrepro replay: this request matches no recorded one")];
    expect(loaded.served([2, 3])(rec(sent, [1]))).toBe(false);
    expect(loaded.served([2, 3])(rec(sent, [1, 2, 3]))).toBe(true);
    expect(loaded.served()(rec(sent, [1, 2, 3]))).toBe(false);
    expect(loaded.served()(rec([1, 2, 3, 4, 5, 6].map((n) => entry(n, servedSummary(n))), [1, 2, 3, 4, 5, 6]))).toBe(true);
  });

  it("takes a cli.js UI, whose argv /proc shows retitled, from its requests' entrypoint, with ccrepro's bypass", () => {
    const retitled = { ...session, processes: [{ ...session.processes[0]!, argv: ["claude"] }] };
    const imported = scenarioFromRecording(retitled, { name: "ui", recordingFile: "ui.recording.json", from: "recording.json" });
    expect(imported.text).toContain(`terminal(s1, { args: ["--model","claude-opus-5-5"] }),`);
    expect(imported.text).not.toContain("permissions:");
    expect(imported.warnings[0]).toMatch(/^not reproduced: s1: how it was started: \/proc showed no argv .* the interactive UI, as its requests' entrypoint \(cli\) says/);
  });

  it("types no subagent's prompt: an Agent call's conversation is a stream of its own", () => {
    const agentCall = { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Agent", input: { prompt: "SUB start the task", description: "worker" } }] };
    const withHistory = (seq: number, ...messages: unknown[]) => {
      const base = ui(seq, "messages", "");
      return { ...base, request: { ...base.request, body: { text: JSON.stringify({ model: "claude-opus-5-5", tools: [{ name: "Agent" }], messages }) } } };
    };
    const delegated: Recording = {
      ...session,
      exchanges: [
        withHistory(1, { role: "user", content: "DELEGATE it" }),
        withHistory(2, { role: "user", content: "SUB start the task" }),
        withHistory(3, { role: "user", content: "DELEGATE it" }, agentCall, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "launched" }] }),
      ],
    };
    const imported = scenarioFromRecording(delegated, { name: "ui", recordingFile: "ui.recording.json", from: "recording.json" }).text;
    expect(imported).toContain(`wait("s1: prompt 1 answered as recorded (requests #1, #3)", recorded.served([1,3])),`);
    expect(imported).not.toContain(`type(s1, "SUB start the task")`);
  });

  it("opens the UI with a prompt given as its argument, typing only the later ones", () => {
    const given = { ...session, processes: [{ ...session.processes[0]!, argv: ["/x/claude", "--dangerously-skip-permissions", "RUN it"] }] };
    const imported = scenarioFromRecording(given, { name: "ui", recordingFile: "ui.recording.json", from: "recording.json" }).text;
    expect(imported).toContain(`terminal(s1, { args: ["--model","claude-opus-5-5","RUN it"] }),\n    wait("s1: prompt 1 answered as recorded (requests #2, #3, #4)"`);
    expect(imported).not.toContain(`type(s1, "RUN it")`);
  });
});
