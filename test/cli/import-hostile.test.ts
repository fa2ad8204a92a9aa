// A recording is data (issue 41, item 2): whatever a string of it says, the scenario `ccrepro import` writes from it
// has the statements a harmless value gives. For every string field of the recording format, and for the names the
// import takes from paths, each hostile value (a newline, `*/`, U+2028, a backtick, `${`, `</script>`, each followed
// by code that writes a file) is imported beside a plain word in the same place. Both files are parsed with
// TypeScript's parser and their syntax trees compared with every literal's text blanked: the same tree means the value
// stayed inside a literal. The hostile file is then loaded as `ccrepro run` loads a scenario, and the file its payload
// names must not exist. recordedAt is validated as a date-time, so a hostile one is refused before any of this.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { scenarioFromRecording } from "../../cli/scenario-import.ts";
import { scenarioFromTranscript } from "../../cli/transcript-import.ts";
import { recordingSchema, writeRecording, type Recording } from "../../mock-api/recording.ts";
import { loadScenario } from "../../pipeline/scenario-source.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-import-hostile-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const PWNED = path.join(tmp, "pwned");
const PAYLOAD = `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(PWNED)}, "x"); //`;
const HOSTILE: Record<string, string> = {
  newline: `a\n${PAYLOAD}`,
  "comment end": `a */ ${PAYLOAD}`,
  "U+2028": `a\u2028${PAYLOAD}`,
  "U+2029": `a\u2029${PAYLOAD}`,
  backtick: `a\`; ${PAYLOAD}`,
  "template hole": `a\${fs.writeFileSync(${JSON.stringify(PWNED)}, "x")}`,
  "script end": `a</script><script>${PAYLOAD}`,
  quote: `a"); ${PAYLOAD}`,
};

const body = (prompt: string) => ({ text: JSON.stringify({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: [{ type: "text", text: prompt }] }] }) });
const clean = (prompt = "PROMPT one"): Recording => ({
  format: "ccrepro-recording",
  version: 1,
  recordedAt: "2026-12-01T22:00:00.000Z",
  upstream: "http://127.0.0.1:1",
  command: ["claude", "-p", prompt],
  processes: [{ pid: 10, argv: ["/x/claude", "-p", prompt, "--max-turns", "3", "--append-system-prompt", "be brief"], firstSeq: 1 }],
  exchanges: [
    {
      seq: 1,
      label: "messages",
      startMs: 1,
      process: 0,
      request: { method: "POST", path: "/v1/messages", query: "beta=true", headers: { "user-agent": "claude-cli" }, body: body(prompt) },
      response: {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        firstByteMs: 1,
        endMs: 2,
        outcome: "complete",
        sse: [{ atMs: 1, event: "message_start", data: "{}" }],
        body: null,
      },
      error: null,
    },
    {
      seq: 2,
      label: "title",
      startMs: 2,
      process: 0,
      request: { method: "POST", path: "/v1/messages", query: "", headers: {}, body: body("a title") },
      response: null,
      error: "the upstream refused the connection",
    },
  ],
});

// Every string leaf of a value, by its path of keys.
function stringPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, i]));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  return [];
}

function withString(recording: Recording, at: (string | number)[], text: string): Recording {
  const copy = structuredClone(recording) as unknown as Record<string | number, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[at.at(-1)!] = text;
  return copy as unknown as Recording;
}

// The syntax tree as node kinds, every literal's text blanked; a comment is trivia, so a value that broke out of one
// shows as statements of its own.
function shape(text: string): string {
  const file = ts.createSourceFile("x.ts", text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const parseErrors = (file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
  const walk = (node: ts.Node): string => {
    const kind = ts.SyntaxKind[node.kind];
    const children: string[] = [];
    node.forEachChild((child) => void children.push(walk(child)));
    if (ts.isIdentifier(node)) return `${kind}:${node.text}`;
    return children.length > 0 ? `${kind}(${children.join(",")})` : kind!;
  };
  return `${parseErrors} errors ${walk(file)}`;
}

const generate = (recording: Recording, names: { name?: string; from?: string } = {}) =>
  scenarioFromRecording(recording, { name: names.name ?? "my-bug", recordingFile: "my-bug.recording.json", from: names.from ?? "recording.json" }).text;

describe("ccrepro import of a hostile recording", () => {
  const fields = stringPaths(clean()).filter((at) => at[0] !== "recordedAt" && at[0] !== "format");

  it("covers every string field of the recording format", () => {
    const named = new Set(fields.map((at) => at.filter((k) => typeof k === "string").join(".")));
    for (const field of ["upstream", "command", "processes.argv", "exchanges.label", "exchanges.request.method", "exchanges.request.path", "exchanges.request.query", "exchanges.request.headers.user-agent", "exchanges.request.body.text", "exchanges.response.headers.content-type", "exchanges.response.outcome", "exchanges.response.sse.event", "exchanges.response.sse.data", "exchanges.error"]) {
      expect(named, field).toContain(field);
    }
  });

  for (const [label, hostile] of Object.entries(HOSTILE)) {
    it(`a ${label} in any string field, the prompt or the file names stays inside a literal`, async () => {
      const variants: [string, string, string][] = fields.map((at) => [at.join("."), generate(withString(clean(), at, "word")), generate(withString(clean(), at, hostile))]);
      variants.push(["the prompt, in argv and body", generate(clean("PROMPT word")), generate(clean(`PROMPT ${hostile}`))]);
      variants.push(["the recording's file name", generate(clean(), { from: "word" }), generate(clean(), { from: hostile })]);
      variants.push(["the scenario's name", generate(clean(), { name: "word" }), generate(clean(), { name: hostile })]);
      for (const [where, plain, bad] of variants) expect(shape(bad), where).toBe(shape(plain));
      // Loaded as `ccrepro run` loads it: nothing but the scenario's own statements runs. The prompt lands in string
      // literals, the recording's file name in the header comment (where the reported injection was).
      for (const [where, , bad] of variants.filter(([where]) => where === "the prompt, in argv and body" || where === "the recording's file name")) {
        const dir = fs.mkdtempSync(path.join(tmp, "load-"));
        writeRecording(path.join(dir, "my-bug.recording.json"), clean(`PROMPT ${hostile}`));
        fs.writeFileSync(path.join(dir, "my-bug.ts"), bad);
        const scenario = await loadScenario(path.join(dir, "my-bug.ts"));
        expect(scenario.name, where).toBe("my-bug");
        expect(fs.existsSync(PWNED), where).toBe(false);
      }
    });
  }

  it("a transcript's prompt and file name stay inside literals too", () => {
    const turns = (prompt: string) => ({ prompts: [prompt], replies: [[{ type: "text", text: "ok" }]] });
    for (const hostile of Object.values(HOSTILE)) {
      expect(shape(scenarioFromTranscript(turns(hostile) as never, { name: "t", from: hostile }))).toBe(shape(scenarioFromTranscript(turns("word") as never, { name: "t", from: "word" })));
    }
  });

  it("refuses a recordedAt that is not a date-time, naming the field and the form", () => {
    for (const hostile of [...Object.values(HOSTILE), "2026-12-01T22:00:00.000Z\nimport fs from 'node:fs'", "yesterday"]) {
      const parsed = recordingSchema.safeParse({ ...clean(), recordedAt: hostile });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/recordedAt must be an ISO 8601 date-time/);
    }
    expect(recordingSchema.safeParse(clean()).success).toBe(true);
  });
});
