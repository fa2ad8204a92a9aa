// `ccrepro import`: a recording turned into a scenario file's text. The mock replays the recording; the steps re-create
// each recorded process (a `-p` turn, a headless session, a `--resume`) as far as its argv and first request show it.
import type { Recording, RecordedExchange } from "../mock-api/recording.ts";
import { bodyBytes, REDACTED_VALUE } from "../mock-api/recording.ts";
import { codeLiteral as literal } from "../core/code-literal.ts";
import { ISOLATION_VARS } from "../harness/isolation.ts";
import { QUIET_ENV } from "../releases/binary-info.ts";
import { recordedStreams } from "../mock-api/replay-script.ts";

// The flags the harness passes itself (harness/isolation.ts) or the scenario says otherwise, with and without a
// value: never repeated in `args`.
const HARNESS_VALUE_FLAGS = new Set(["--input-format", "--debug-file", "--resume", "-r", "--session-id"]);
const HARNESS_FLAGS = new Set(["-p", "--print", "--verbose", "--continue", "-c", "--fork-session", "--debug"]);
// Flags whose value names a file or folder on the recording machine: what it held is not in the recording. Inline
// JSON (`--settings '{…}'`, `--mcp-config '{…}'`) is kept.
const MACHINE_FILE_FLAGS = new Set(["--settings", "--mcp-config", "--add-dir", "--plugin-dir", "--system-prompt-file", "--append-system-prompt-file"]);
// The model every harness session asks for; another one, recorded in the argv or in the first request, is `--model`.
const HARNESS_MODEL = "claude-sonnet-4-5";
// claude's own default when no --setting-sources is given: every source.
const ALL_SETTING_SOURCES = ["user", "project", "local"];
const PERMISSION_MODES = new Set(["default", "acceptEdits", "dontAsk", "plan"]);
// Credentials a replay never has: ccrepro's fake key stands in for them.
const CREDENTIAL_VARS = new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"]);

interface ProcessPlan {
  session: string;
  print: boolean;
  // The interactive UI (no -p, no stream-json input): a terminal the prompts are typed into.
  interactive: boolean;
  resumeOf: string | null;
  resumeGuessed: boolean;
  continueLatest: boolean;
  prompt: string | null;
  promptVia: "arg" | "stdin" | "unknown";
  args: string[];
  sends: string[];
  // The recorded Messages requests of each prompt's turn, the first prompt's first: what the replay waits for before
  // it types the next prompt.
  turns: number[][];
  // `--output-format` of a -p process ("text" when the argv names none, as claude's default).
  output: "stream-json" | "json" | "text";
  // "bypass" (--dangerously-skip-permissions), a --permission-mode, or "default" when the argv names none.
  permission: string;
  settingSources: string[];
  notReproduced: string[];
}

function bodyOf(exchange: RecordedExchange | undefined): { model?: unknown; system?: unknown; messages?: unknown } {
  try {
    return exchange ? (JSON.parse(bodyBytes(exchange.request.body).toString("utf8")) as object) : {};
  } catch {
    return {};
  }
}

function lastUserTexts(exchange: RecordedExchange | undefined): string[] {
  if (!exchange) return [];
  try {
    const body = JSON.parse(bodyBytes(exchange.request.body).toString("utf8")) as { messages?: Array<{ role: string; content: unknown }> };
    const last = (body.messages ?? []).filter((m) => m.role === "user").at(-1)?.content;
    if (typeof last === "string") return [last];
    if (!Array.isArray(last)) return [];
    // Tool results are the CLI's own turn, not a prompt.
    if (last.some((block: { type?: string }) => block.type === "tool_result")) return [];
    return last.flatMap((block: { type?: string; text?: unknown }) => (block.type === "text" && typeof block.text === "string" ? [block.text] : []));
  } catch {
    return [];
  }
}

// The User-Agent of a request the interactive UI sent: `claude-cli/2.1.112 (external, cli)`; a `-p` or SDK process
// names another entrypoint (`sdk-cli`, `sdk-ts`).
const UI_ENTRYPOINT = /[ (]cli\)$/;

// A user text the CLI wrote itself, never typed: a system reminder, a background task's notification.
const isCliText = (text: string) => text.trimStart().startsWith("<system-reminder>") || text.includes("<task-notification>");

// The argv words after the executable (a native binary, or `node …/cli.js`).
function flagsOf(argv: readonly string[]): string[] {
  const first = argv.findIndex((word, i) => i > 0 && (word.startsWith("-") || !/(^|\/)(node|claude|cli\.js)$/.test(word)));
  return first === -1 ? [] : argv.slice(first);
}

// A process as claude starts with no flags: text output, default permissions, every setting source.
function emptyPlan(session: string, print: boolean): ProcessPlan {
  return { session, print, interactive: false, resumeOf: null, resumeGuessed: false, continueLatest: false, prompt: null, promptVia: "unknown", args: [], sends: [], turns: [], output: "text", permission: "default", settingSources: ALL_SETTING_SOURCES, notReproduced: [] };
}

function planProcess(recording: Recording, index: number, earlier: ProcessPlan[], streams: ReadonlyMap<number, string>): ProcessPlan {
  const { exchanges, processes: all } = recording;
  const process = all[index]!;
  // The cli.js releases set their process title to "claude", which /proc then shows as the whole argv: the command
  // `ccrepro record` ran says more, when it ran this one process.
  const retitled = process.argv.length <= 1 && recording.command !== null && all.length === 1;
  const words = flagsOf(retitled ? recording.command! : process.argv);
  // Its own conversation: not a subagent's, a title's or a Warmup's, whose prompts are none of the user's.
  const own = exchanges.filter((e) => e.process === index && streams.get(e.seq) === "main");
  const plan = emptyPlan(`s${index + 1}`, false);
  const argvUnknown = process.argv.length <= 1 && !retitled;
  // With no argv (a cli.js release under `record --serve`), the requests still say whether the UI sent them.
  const fromUi = argvUnknown && UI_ENTRYPOINT.test(own[0]?.request.headers["user-agent"] ?? "");
  if (fromUi) {
    plan.permission = "bypass";
    plan.notReproduced.push("how it was started: /proc showed no argv (a cli.js release renames itself); the interactive UI, as its requests' entrypoint (cli) says, with no flag of its own and ccrepro's bypass permissions (if it asked you to allow a tool, set `permissions`)");
  } else if (argvUnknown) plan.notReproduced.push("how it was started: /proc showed no argv (a cli.js release renames itself); a stream-json session is assumed");
  let streamInput = false;
  let resumeId: string | null = null;
  let model: string | null = null;
  const positional: string[] = [];
  const firstTexts = lastUserTexts(own[0]);
  const isPrompt = (word: string) => firstTexts.some((text) => text.includes(word));
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const [name, inline] = word.startsWith("--") && word.includes("=") ? [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)] : [word, null];
    const value = () => inline ?? words[++i] ?? "";
    if (name === "-p" || name === "--print") plan.print = true;
    if (name === "-c" || name === "--continue") plan.continueLatest = true;
    if (name === "--input-format" && value() === "stream-json") streamInput = true;
    else if (name === "--resume" || name === "-r") resumeId = value();
    else if (name === "--model") model = value();
    else if (name === "--output-format") {
      const format = value();
      if (format === "json" || format === "stream-json" || format === "text") plan.output = format;
    } else if (name === "--permission-mode") plan.permission = value();
    else if (name === "--dangerously-skip-permissions") plan.permission = "bypass";
    else if (name === "--setting-sources") plan.settingSources = value().split(",").filter(Boolean);
    else if (MACHINE_FILE_FLAGS.has(name)) {
      const file = value();
      if (file.trimStart().startsWith("{")) plan.args.push(name, file);
      else plan.notReproduced.push(`${name} ${file} (a file of the recording machine; what it held is not in the recording)`);
    } else if (HARNESS_VALUE_FLAGS.has(name)) value();
    else if (HARNESS_FLAGS.has(name)) continue;
    // An unknown flag takes the next word as its value unless that word is the prompt (the argv cannot say more).
    else if (name.startsWith("-")) plan.args.push(word, ...(inline === null && words[i + 1] !== undefined && !words[i + 1]!.startsWith("-") && !isPrompt(words[i + 1]!) ? [words[++i]!] : []));
    else positional.push(word);
  }
  // No --model: the release's default, which the first request names.
  const recordedModel = model ?? (typeof bodyOf(own[0]).model === "string" ? (bodyOf(own[0]).model as string) : null);
  if (recordedModel !== null && recordedModel !== HARNESS_MODEL) plan.args.unshift("--model", recordedModel);
  if (streamInput) plan.print = false;
  plan.interactive = fromUi || (!argvUnknown && !plan.print && !streamInput);
  if (resumeId !== null) {
    // The earlier process whose requests carry that session id; else the one just before.
    const owner = all.findIndex((p, i) => i < index && exchanges.some((e) => e.process === i && bodyBytes(e.request.body).includes(resumeId!)));
    plan.resumeOf = earlier[owner]?.session ?? earlier.at(-1)?.session ?? null;
    plan.resumeGuessed = owner === -1;
  }
  const asArg = positional.find(isPrompt);
  if (asArg !== undefined) {
    plan.prompt = asArg;
    plan.promptVia = "arg";
  } else if (firstTexts.length > 0) {
    plan.prompt = firstTexts.at(-1)!;
    plan.promptVia = "stdin";
  }
  // Later prompts of a headless or interactive session: a new user text after an assistant reply. A text that is the
  // CLI's own (a reminder, a background task's notification) starts no turn of the user's.
  if (own.length > 0) plan.turns.push([own[0]!.seq]);
  if (!plan.print) {
    const seen = new Set(firstTexts);
    for (const exchange of own.slice(1)) {
      const texts = lastUserTexts(exchange).filter((t) => !seen.has(t) && !isCliText(t));
      texts.forEach((t) => seen.add(t));
      if (texts.length > 0) {
        plan.sends.push(texts.at(-1)!);
        plan.turns.push([]);
      }
      plan.turns.at(-1)!.push(exchange.seq);
    }
  }
  return plan;
}


function stepLines(plan: ProcessPlan): string[] {
  const lines: string[] = [];
  const args = plan.args.length > 0 ? `, args: ${literal(plan.args)}` : "";
  if (plan.resumeGuessed) lines.push(`    // The recording does not show which session ${plan.session} resumed: the one before it is assumed.`);
  if (plan.prompt === null) lines.push(`    // The recording shows no prompt for ${plan.session}: fill it in.`);
  const prompt = literal(plan.prompt ?? "FILL IN the prompt");
  if (plan.print) {
    const via = plan.promptVia === "stdin" ? `, via: "stdin"` : "";
    const resume = plan.resumeOf ? `, resume: ${plan.resumeOf}` : plan.continueLatest ? ", continueLatest: true" : "";
    const output = plan.output === "stream-json" ? "" : `, output: "${plan.output}"`;
    lines.push(`    print(${plan.session}, ${prompt}, { timeout: 90_000${resume}${via}${output}${args} }),`);
    return lines;
  }
  if (plan.interactive) {
    // Each prompt typed once the turn before it was answered as recorded, as the user typed it after reading the answer.
    const resume = plan.resumeOf ? `resume: ${plan.resumeOf}` : "";
    // `claude "prompt"` opens the UI with that prompt already sent.
    const given = plan.promptVia === "arg" && plan.prompt !== null;
    const flags = [...(plan.continueLatest ? ["--continue"] : []), ...plan.args, ...(given ? [plan.prompt!] : [])];
    const options = [resume, flags.length > 0 ? `args: ${literal(flags)}` : ""].filter(Boolean).join(", ");
    lines.push(`    terminal(${plan.session}${options ? `, { ${options} }` : ""}),`);
    [plan.prompt === null ? null : prompt, ...plan.sends.map((text) => literal(text))].forEach((typed, i) => {
      if (typed === null) return;
      const seqs = plan.turns[i] ?? [];
      if (i > 0 || !given) lines.push(`    type(${plan.session}, ${typed}),`, `    press(${plan.session}, "enter"),`);
      lines.push(`    wait("${plan.session}: prompt ${i + 1} answered as recorded (requests ${seqs.map((n) => `#${n}`).join(", ")})", recorded.served(${literal(seqs)})),`);
    });
    lines.push(`    // The recording cannot tell how ${plan.session} ended (/exit, Ctrl-C, a closed terminal): the run ends it after the last step.`);
    return lines;
  }
  if (plan.resumeOf) lines.push(`    ...resume(${plan.session}, { from: ${plan.resumeOf}, prompt: ${prompt}${args} }),`);
  else if (plan.continueLatest) lines.push(`    ...continueLatest(${plan.session}, { prompt: ${prompt}${args} }),`);
  else lines.push(`    ...start(${plan.session}, { prompt: ${prompt}${args} }),`);
  lines.push(`    wait("${plan.session} answered its prompt", resultPrinted(${plan.session})),`);
  plan.sends.forEach((text, i) => {
    lines.push(`    send(${plan.session}, ${literal(text)}),`, `    wait("${plan.session} answered prompt ${i + 2}", resultPrinted(${plan.session}, { count: ${i + 2} })),`);
  });
  lines.push(`    // The recording cannot tell how ${plan.session} ended (a stop, a kill, its own exit): stop it here, or say how.`, `    stop(${plan.session}),`);
  return lines;
}

// What every session of the replay shares, read from the first process and its first request: permissions, setting
// sources, claude's variables, whether the working directory was a git repository, the instruction files it read.
interface SharedEnvironment {
  lines: string[];
  notReproduced: string[];
}

// The working directory and the CLAUDE.md files the first request quotes ("Contents of PATH (…):\n\nTEXT"), each
// ending where the next file, the next context section or the reminder ends.
const WORKING_DIRECTORY = /(?:Primary working directory|Working directory): ([^\n]+)/;
const INSTRUCTION_FILE = /Contents of ([^\n]+?\/CLAUDE\.md)(?: \([^\n)]*\))?:\n\n([\s\S]*?)(?=\n\nContents of |\n\s*# (?:currentDate|gitStatus|important-instruction-reminders)\b|\n*<\/system-reminder>|$)/g;

function requestTexts(exchange: RecordedExchange | undefined): string[] {
  const texts: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === "string") texts.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") Object.values(value).forEach(visit);
  };
  const body = bodyOf(exchange);
  visit(body.system);
  visit(body.messages);
  return texts;
}

function sharedEnvironment(recording: Recording, plans: readonly ProcessPlan[]): SharedEnvironment {
  const lines: string[] = [];
  const notReproduced: string[] = [];
  const first = plans[0];
  if (first) {
    const mode = first.permission === "bypassPermissions" ? "bypass" : first.permission;
    if (mode !== "bypass") {
      if (!PERMISSION_MODES.has(mode)) notReproduced.push(`--permission-mode ${mode} (ccrepro runs default, acceptEdits, dontAsk or plan): default is used`);
      lines.push(`  permissions: { mode: ${literal(PERMISSION_MODES.has(mode) ? mode : "default")} },`);
    }
    const sources = first.settingSources.filter((source) => ALL_SETTING_SOURCES.includes(source));
    if (sources.length > 0) lines.push(`  settingSources: ${literal(sources)},`);
    if (plans.some((p) => p.permission !== first.permission || p.settingSources.join() !== first.settingSources.join())) {
      notReproduced.push("the processes differ in permissions or setting sources: the first one's are used for all");
    }
  }
  const recorded = recording.processes[0]?.env;
  if (recorded === undefined) {
    if (recording.processes.length > 0) notReproduced.push("the variables claude was started with (the recording predates their recording): ccrepro's own apply");
  } else {
    const env: Record<string, string | null> = {};
    // ccrepro's quiet switches change what claude sends: unset those the recorded process did not have.
    for (const [name, value] of Object.entries(QUIET_ENV)) if (recorded[name] === undefined) env[name] = null;
    else if (recorded[name] !== value) env[name] = recorded[name]!;
    const keyKind = recording.processes[0]?.keyKinds?.["ANTHROPIC_API_KEY"];
    for (const [name, value] of Object.entries(recorded)) {
      if (name in QUIET_ENV) continue;
      if (name === "ANTHROPIC_API_KEY" && keyKind !== undefined) notReproduced.push(`${name} (a credential: the replay runs with ccrepro's fake key, of the recorded kind sk-ant-${keyKind}…)`);
      else if (CREDENTIAL_VARS.has(name) || value === REDACTED_VALUE) notReproduced.push(`${name} (a credential: the replay runs with ccrepro's fake key)`);
      else if ((ISOLATION_VARS as readonly string[]).includes(name) || name === "CLAUDE_CODE_TMPDIR") notReproduced.push(`${name} (ccrepro sets it to the run's own folder)`);
      else env[name] = value;
    }
    // The stand-in key is computed when the file loads: a key-shaped literal would be refused by the secret scan.
    if (keyKind !== undefined) lines.push(`  env: { ...${literal(env)}, ANTHROPIC_API_KEY: recorded.apiKey },`);
    else if (Object.keys(env).length > 0) lines.push(`  env: ${literal(env)},`);
  }
  const firstRequest = recording.exchanges.find((e) => e.label === "messages");
  const texts = requestTexts(firstRequest);
  const git = texts.map((t) => /Is a git repository: (true|false)|Is directory a git repo: (Yes|No)/.exec(t)).find(Boolean);
  if (git && (git[1] === "false" || git[2] === "No")) lines.push(`  gitRepository: false,`);
  const cwd = texts.map((t) => WORKING_DIRECTORY.exec(t)?.[1]?.trim()).find(Boolean);
  const work: Record<string, string> = {};
  for (const text of texts) {
    for (const match of text.matchAll(INSTRUCTION_FILE)) {
      const [, file, content] = match;
      if (cwd && file!.startsWith(`${cwd}/`)) work[file!.slice(cwd.length + 1)] = `${content!}\n`;
      else notReproduced.push(`${file} (an instruction file outside the working directory)`);
    }
  }
  if (Object.keys(work).length > 0) lines.push(`  files: { work: ${literal(work)} },`);
  return { lines, notReproduced: [...new Set(notReproduced)] };
}

export interface ImportedScenario {
  text: string;
  warnings: string[];
}

export function scenarioFromRecording(recording: Recording, options: { name: string; recordingFile: string; from: string }): ImportedScenario {
  const warnings: string[] = [];
  const plans: ProcessPlan[] = [];
  const streams = recordedStreams(recording.exchanges);
  recording.processes.forEach((_, index) => plans.push(planProcess(recording, index, plans, streams)));
  if (recording.exchanges.some((e) => e.process === null)) warnings.push("some requests came from a process the recording could not identify; their steps are not in the file");
  if (plans.length === 0) {
    warnings.push("the recording names no process: the file has one session to fill in");
    plans.push(emptyPlan("s1", true));
  }
  const messages = recording.exchanges.filter((e) => e.label !== "count-tokens" && e.request.path.endsWith("/v1/messages"));
  const shared = sharedEnvironment(recording, plans);
  const notReproduced = [...plans.flatMap((p) => p.notReproduced.map((what) => `${p.session}: ${what}`)), ...shared.notReproduced];
  for (const what of notReproduced) warnings.push(`not reproduced: ${what}`);
  const kit = new Set(["defineScenario", "recording", "session"]);
  for (const plan of plans) {
    if (plan.interactive) ["terminal", "type", "press", "wait"].forEach((name) => kit.add(name));
    else if (plan.print) kit.add("print");
    else {
      kit.add(plan.resumeOf ? "resume" : plan.continueLatest ? "continueLatest" : "start");
      for (const name of ["wait", "resultPrinted", "stop"]) kit.add(name);
      if (plan.sends.length > 0) kit.add("send");
    }
  }
  const allPrint = plans.every((p) => p.print) && plans.some((p) => p.output === "stream-json");
  const anyResume = plans.some((p) => p.resumeOf !== null);
  const needs = allPrint ? [`"stream-json-output"`, ...(anyResume ? [`"resume"`] : [])] : null;
  const text = [
    `// Imported by \`ccrepro import\` from ${literal(options.from)} (recorded ${literal(recording.recordedAt)}): ${plans.length} process(es), ${messages.length} Messages request(s).`,
    `// The mock replays the recorded replies, each matched to a request by content; the check starts as replay fidelity.`,
    `// Carried over from the recording: each process's model, flags and output format, and the permissions, setting`,
    `// sources, variables and working directory (a git repository or not, its instruction files) the first one had.`,
    ...(notReproduced.length > 0 ? [`// Not reproduced (say in the report if it matters):`, ...notReproduced.map((what) => `//   - ${what}`)] : []),
    `import { ${[...kit].sort().join(", ")} } from "ccrepro";`,
    `import { replayFidelity } from "ccrepro/checkers";`,
    ``,
    `// The recording beside this file: what the mock serves, and what the replayed requests are compared with.`,
    `const recorded = recording(new URL(${literal(`./${options.recordingFile}`)}, import.meta.url));`,
    ...plans.map((p) => `const ${p.session} = session(${literal(p.session)});`),
    ``,
    `export default defineScenario({`,
    `  name: ${literal(options.name)},`,
    `  summary: "A recorded session, replayed: every request the release makes matches the recorded one.",`,
    `  source: ${literal(`recorded with ccrepro record on ${recording.recordedAt.slice(0, 10)}; say here what went wrong, and link the report`)},`,
    `  findings: ["replay-diverged", "replay-unmatched", "replay-missing"],`,
    `  sessions: [${plans.map((p) => p.session).join(", ")}],`,
    ...shared.lines,
    `  // { speed: 1 } serves the events at their recorded pace; the default is at once.`,
    `  mockScript: () => recorded.mockScript(),`,
    `  steps: () => [`,
    ...plans.flatMap(stepLines),
    // A UI's side requests (a title, a summary) may come after its last answer: the run ends once all were made.
    ...(plans.some((p) => p.interactive) ? [`    wait("every recorded request was replayed", recorded.served()),`] : []),
    `  ],`,
    `  // Replay fidelity: RED when a replayed request differs from its recorded one (normalised), with the first divergence`,
    `  // as a diff. Add the check for your bug here, e.g. a finding when resultOf(rec, s1) says what went wrong.`,
    `  check: (rec) => replayFidelity(rec, recorded),`,
    ...(needs ? [`  needs: [${needs.join(", ")}],`] : []),
    `  timeoutMs: ${Math.max(120_000, plans.length * 100_000)},`,
    `});`,
    ``,
  ].join("\n");
  return { text, warnings };
}
