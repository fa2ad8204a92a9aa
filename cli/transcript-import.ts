// `ccrepro import <session>.jsonl`: a Claude Code transcript turned into a scenario file's text, for a user who did not
// record. The assistant turns become the mock's replies by step; the typed prompts become `-p` turns, each resuming the last.
import { UserError } from "../core/errors.ts";
import { codeLiteral as literal } from "../core/code-literal.ts";
import { lte, valid } from "../releases/semver-functions.ts";

// The last release that ran as cli.js; the native releases start after it.
const LAST_CLI_JS = "2.1.112";

interface Entry {
  type?: string;
  uuid?: string;
  isMeta?: boolean;
  isSidechain?: boolean;
  version?: string;
  message?: { id?: string; role?: string; content?: unknown };
}

export interface TranscriptTurns {
  // Which release wrote it and its era, as the entries' `version` says: "claude 2.1.332 (native)".
  era: string;
  prompts: string[];
  // Each assistant message's content blocks (text, tool_use, thinking), in order.
  replies: Array<Array<Record<string, unknown>>>;
}

// Reads the transcript formats of the releases measured (cli.js 2.1.112, native 2.1.332): one JSON object a line,
// `user` and `assistant` entries carrying `message`; an assistant message streamed in pieces repeats its `message.id`.
export function readTranscript(file: string, text: string): TranscriptTurns {
  const entries: Entry[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      throw new UserError(`${file}:${i + 1}: not a JSON line, so not a Claude Code transcript: pass a <config>/projects/<dir>/<session>.jsonl or a recording.json`, "TRANSCRIPT_UNREADABLE");
    }
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new UserError(`${file}:${i + 1}: a line that is not a JSON object, so not a transcript entry: a transcript format this ccrepro does not read`, "TRANSCRIPT_FORMAT");
    }
    const content = entry.message?.content;
    if ((entry.type === "user" || entry.type === "assistant") && entry.message && typeof content !== "string" && !Array.isArray(content)) {
      throw new UserError(`${file}:${i + 1}: ${entry.type === "user" ? "a" : "an"} ${entry.type} entry whose message.content is neither text nor a list of blocks: a transcript format this ccrepro does not read (it reads those of 2.1.112, cli.js, and 2.1.332, native)`, "TRANSCRIPT_FORMAT");
    }
    entries.push(entry);
  });
  const turns = entries.filter((e) => (e.type === "user" || e.type === "assistant") && e.message && !e.isSidechain);
  if (turns.length === 0) {
    throw new UserError(`${file}: no user or assistant entries with a message: a transcript format this ccrepro does not read (it reads those of 2.1.112 and 2.1.332)`, "TRANSCRIPT_FORMAT");
  }
  const prompts: string[] = [];
  const replies: TranscriptTurns["replies"] = [];
  let lastId: string | undefined;
  for (const entry of turns) {
    const content = entry.message!.content;
    if (entry.type === "user") {
      lastId = undefined;
      if (entry.isMeta) continue;
      if (typeof content === "string") prompts.push(content);
      else if (Array.isArray(content) && !content.some((b: { type?: string }) => b.type === "tool_result")) {
        const typed = content.flatMap((b: { type?: string; text?: unknown }) => (b.type === "text" && typeof b.text === "string" ? [b.text] : []));
        if (typed.length > 0) prompts.push(typed.join("\n"));
      }
      continue;
    }
    const blocks = (Array.isArray(content) ? content : []).flatMap((b: Record<string, unknown>): Array<Record<string, unknown>> => {
      if (b.type === "text") return [{ type: "text", text: b.text }];
      if (b.type === "tool_use") return [{ type: "tool_use", name: b.name, input: b.input, ...(typeof b.id === "string" ? { id: b.id } : {}) }];
      if (b.type === "thinking") return [{ type: "thinking", thinking: b.thinking, ...(typeof b.signature === "string" && b.signature ? { signature: b.signature } : {}) }];
      return [];
    });
    const id = entry.message!.id;
    if (id !== undefined && id === lastId) replies.at(-1)!.push(...blocks);
    else replies.push(blocks);
    lastId = id;
  }
  if (prompts.length === 0) throw new UserError(`${file}: the transcript holds no typed prompt: nothing to start a session with`, "TRANSCRIPT_FORMAT");
  return { era: eraOf(entries), prompts, replies };
}

// The release that wrote the transcript, from the first entry that names one, and its era.
function eraOf(entries: readonly Entry[]): string {
  const version = entries.find((e) => typeof e.version === "string" && valid(e.version))?.version;
  if (version === undefined) return "a release that wrote no version in its entries";
  return `claude ${version} (${lte(version, LAST_CLI_JS) ? "the cli.js era, to 2.1.112" : "the native era, from 2.1.113"})`;
}


export function scenarioFromTranscript(turns: TranscriptTurns, options: { name: string; from: string }): string {
  const sessions = turns.prompts.map((_, i) => `s${i + 1}`);
  // The first prompt's opening words find the conversation's requests among the side calls (titles, quota checks).
  const marker = turns.prompts[0]!.trim().slice(0, 40);
  return [
    `// Imported by \`ccrepro import\` from the transcript ${literal(options.from)}, written by ${turns.era}: ${turns.prompts.length} prompt(s), ${turns.replies.length} assistant turn(s).`,
    `// The mock answers the conversation's requests with the transcript's assistant turns, by step; side calls get "ok".`,
    `import { conversation, defineScenario, print, session, text } from "ccrepro";`,
    `import { notReached, reached, requestsOf, resultOf } from "ccrepro/checkers";`,
    ``,
    `const MARKER = ${literal(marker)};`,
    ...sessions.map((s) => `const ${s} = session(${literal(s)});`),
    `// Each assistant turn of the transcript, as the mock streams it.`,
    `const REPLIES = [`,
    ...turns.replies.map((blocks) => `  { content: ${literal(blocks)} },`),
    `];`,
    ``,
    `export default defineScenario({`,
    `  name: ${literal(options.name)},`,
    `  summary: "A Claude Code transcript, replayed: each prompt is answered with the assistant turns the transcript holds.",`,
    `  source: "imported from a transcript; say here what went wrong, and link the report",`,
    `  findings: [],`,
    `  sessions: [${sessions.join(", ")}],`,
    `  mockScript: () => conversation({ main: { marker: MARKER, replies: REPLIES, then: text("ok") } }, { streams: [{ stream: "main", anyUserContains: MARKER }] }),`,
    `  // A transcript does not say how its prompts were given: each is a \`claude -p\` turn resuming the one before. Change`,
    `  // them to start/send steps for one long-running session, or add the stops and kills the session went through.`,
    `  steps: () => [`,
    ...turns.prompts.map((prompt, i) => `    print(${sessions[i]}, ${literal(prompt)}, { timeout: 90_000${i > 0 ? `, resume: ${sessions[i - 1]}` : ""} }),`),
    `  ],`,
    `  // Reached once every turn printed a result and the conversation asked for every recorded assistant turn. Add the`,
    `  // check for your bug here: a finding({ id, title, where }) listed in \`findings\` makes it RED.`,
    `  check(rec) {`,
    `    const silent = [${sessions.join(", ")}].find((s) => resultOf(rec, s) === null);`,
    `    const asked = requestsOf(rec, { stream: "main" }).length;`,
    `    if (silent) return { reached: notReached(\`session \${silent.name} printed no result\`), findings: [] };`,
    `    if (asked < REPLIES.length) return { reached: notReached(\`the replay asked for \${asked} of \${REPLIES.length} assistant turns\`), findings: [] };`,
    `    return { reached: reached(), findings: [], notes: [\`transcript replay: \${asked} requests for \${REPLIES.length} assistant turns\`] };`,
    `  },`,
    `  needs: ["stream-json-output"${turns.prompts.length > 1 ? `, "resume"` : ""}],`,
    `  timeoutMs: ${Math.max(120_000, turns.prompts.length * 100_000)},`,
    `});`,
    ``,
  ].join("\n");
}
