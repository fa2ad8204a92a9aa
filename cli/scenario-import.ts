// `ccrepro import`: a recording turned into a scenario file's text. The mock replays the recording; the steps re-create
// each recorded process (a `-p` turn, a headless session, a `--resume`) as far as its argv and first request show it.
import type { Recording, RecordedExchange, RecordedProcess } from "../mock-api/recording.ts";
import { bodyBytes } from "../mock-api/recording.ts";
import { codeLiteral as literal } from "../core/code-literal.ts";

// The flags the harness passes itself (harness/isolation.ts), with and without a value: never repeated in `args`.
const HARNESS_VALUE_FLAGS = new Set(["--output-format", "--input-format", "--setting-sources", "--debug-file", "--permission-mode", "--settings", "--resume", "-r", "--session-id"]);
const HARNESS_FLAGS = new Set(["-p", "--print", "--verbose", "--dangerously-skip-permissions", "--continue", "-c", "--fork-session"]);
// The model every harness session asks for; another one recorded is kept as `--model`.
const HARNESS_MODEL = "claude-sonnet-4-5";

interface ProcessPlan {
  session: string;
  print: boolean;
  resumeOf: string | null;
  resumeGuessed: boolean;
  continueLatest: boolean;
  prompt: string | null;
  promptVia: "arg" | "stdin" | "unknown";
  args: string[];
  sends: string[];
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

// The argv words after the executable (a native binary, or `node …/cli.js`).
function flagsOf(argv: readonly string[]): string[] {
  const first = argv.findIndex((word, i) => i > 0 && (word.startsWith("-") || !/(^|\/)(node|claude|cli\.js)$/.test(word)));
  return first === -1 ? [] : argv.slice(first);
}

function planProcess(process: RecordedProcess, index: number, exchanges: readonly RecordedExchange[], earlier: ProcessPlan[], all: readonly RecordedProcess[]): ProcessPlan {
  const words = flagsOf(process.argv);
  const own = exchanges.filter((e) => e.process === index && e.label === "messages");
  const plan: ProcessPlan = { session: `s${index + 1}`, print: false, resumeOf: null, resumeGuessed: false, continueLatest: false, prompt: null, promptVia: "unknown", args: [], sends: [] };
  let streamInput = false;
  let resumeId: string | null = null;
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
    else if (name === "--model") {
      const model = value();
      if (model !== HARNESS_MODEL) plan.args.push("--model", model);
    } else if (HARNESS_VALUE_FLAGS.has(name)) value();
    else if (HARNESS_FLAGS.has(name)) continue;
    // An unknown flag takes the next word as its value unless that word is the prompt (the argv cannot say more).
    else if (name.startsWith("-")) plan.args.push(word, ...(inline === null && words[i + 1] !== undefined && !words[i + 1]!.startsWith("-") && !isPrompt(words[i + 1]!) ? [words[++i]!] : []));
    else positional.push(word);
  }
  if (streamInput) plan.print = false;
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
  // Later prompts of a headless session: a new user text after an assistant reply.
  if (!plan.print) {
    const seen = new Set(firstTexts);
    for (const exchange of own.slice(1)) {
      const texts = lastUserTexts(exchange).filter((t) => !seen.has(t));
      texts.forEach((t) => seen.add(t));
      if (texts.length > 0) plan.sends.push(texts.at(-1)!);
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
    lines.push(`    print(${plan.session}, ${prompt}, { timeout: 90_000${resume}${via}${args} }),`);
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

export interface ImportedScenario {
  text: string;
  warnings: string[];
}

export function scenarioFromRecording(recording: Recording, options: { name: string; recordingFile: string; from: string }): ImportedScenario {
  const warnings: string[] = [];
  const plans: ProcessPlan[] = [];
  recording.processes.forEach((process, index) => plans.push(planProcess(process, index, recording.exchanges, plans, recording.processes)));
  if (recording.exchanges.some((e) => e.process === null)) warnings.push("some requests came from a process the recording could not identify; their steps are not in the file");
  if (plans.length === 0) {
    warnings.push("the recording names no process: the file has one session to fill in");
    plans.push({ session: "s1", print: true, resumeOf: null, resumeGuessed: false, continueLatest: false, prompt: null, promptVia: "unknown", args: [], sends: [] });
  }
  const messages = recording.exchanges.filter((e) => e.label !== "count-tokens" && e.request.path.endsWith("/v1/messages"));
  const kit = new Set(["defineScenario", "recording", "session"]);
  for (const plan of plans) {
    if (plan.print) kit.add("print");
    else {
      kit.add(plan.resumeOf ? "resume" : plan.continueLatest ? "continueLatest" : "start");
      for (const name of ["wait", "resultPrinted", "stop"]) kit.add(name);
      if (plan.sends.length > 0) kit.add("send");
    }
  }
  const allPrint = plans.every((p) => p.print);
  const anyResume = plans.some((p) => p.resumeOf !== null);
  const needs = allPrint ? [`"stream-json-output"`, ...(anyResume ? [`"resume"`] : [])] : null;
  const text = [
    `// Imported by \`ccrepro import\` from ${literal(options.from)} (recorded ${literal(recording.recordedAt)}): ${plans.length} process(es), ${messages.length} Messages request(s).`,
    `// The mock replays the recorded replies, each matched to a request by content; the check starts as replay fidelity.`,
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
    `  // { speed: 1 } serves the events at their recorded pace; the default is at once.`,
    `  mockScript: () => recorded.mockScript(),`,
    `  steps: () => [`,
    ...plans.flatMap(stepLines),
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
