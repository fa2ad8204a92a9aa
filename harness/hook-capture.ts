// Claude Code hook settings that record every listed hook event into the run directory, and hooks that answer.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { HookAnswerRule } from "./plan.ts";
import { hookAnswerLayout, type RunLayout } from "./run-layout.ts";

const RECORDER = fileURLToPath(new URL("./hook-recorder.sh", import.meta.url));

// A hook entry's `timeout` (seconds) unless its rule gives one, or its rule runs the author's own command (which
// keeps claude's default, as the author's settings would): long enough for the recorder on a loaded machine.
const DEFAULT_TIMEOUT_SECONDS = 10;

// Events whose entries take a tool-name matcher; the others ignore it.
export const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

// What an answering rule's matcher may be: all tools, or a list of tool names as `A|B`. Releases match such a list by
// exact name (2.1.112's bundle: `/^[a-zA-Z0-9_|]+$/` → split on "|" and compare); anything else is a regex there, which
// the recorder could not mirror to keep each call recorded once, so the harness refuses it.
const NAME_LIST = /^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$/;

export interface HookEntry {
  matcher?: string;
  hooks: Array<{ type: "command"; command: string; timeout?: number }>;
}

const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

// The tool names a rule's matcher covers, or "all".
function covered(rule: HookAnswerRule): "all" | string[] {
  const matcher = rule.matcher ?? "*";
  return matcher === "*" || matcher === "" ? "all" : matcher.split("|");
}

// Why a plan's answering rules cannot be registered, or null. Two rules that can match the same call would both run
// and both record it, so rules of one event must not overlap.
export function answerRulesProblem(answers: HookAnswerRule[]): string | null {
  for (const [i, rule] of answers.entries()) {
    const name = `hook answer rule ${i} (${rule.event}${rule.matcher === undefined ? "" : ` ${rule.matcher}`})`;
    if (rule.replies.length === 0) return `${name} has no replies`;
    const bad = rule.replies.find((r) => "exitCode" in r && (!Number.isInteger(r.exitCode) || r.exitCode < 0 || r.exitCode > 255));
    if (bad && "exitCode" in bad) return `${name}: exit code ${bad.exitCode} is not 0..255`;
    if (rule.replies.some((r) => "shell" in r && r.shell.trim() === "")) return `${name}: a shell reply needs a command`;
    if (rule.timeoutSeconds !== undefined && !(Number.isInteger(rule.timeoutSeconds) && rule.timeoutSeconds >= 1 && rule.timeoutSeconds <= 3600)) {
      return `${name}: timeout ${rule.timeoutSeconds} is not a whole number of seconds in 1..3600`;
    }
    if (rule.matcher !== undefined && !TOOL_EVENTS.has(rule.event)) return `${name}: only tool events (${[...TOOL_EVENTS].join(", ")}) take a matcher here`;
    if (rule.matcher !== undefined && rule.matcher !== "*" && rule.matcher !== "" && !NAME_LIST.test(rule.matcher)) {
      return `${name}: the matcher must be "*" or tool names as A|B (a regex matcher is not supported)`;
    }
    for (const [j, other] of answers.slice(0, i).entries()) {
      if (other.event !== rule.event) continue;
      const [a, b] = [covered(rule), covered(other)];
      if (a === "all" || b === "all" || a.some((tool) => b.includes(tool))) return `${name} overlaps hook answer rule ${j}: a call would be answered (and recorded) twice`;
    }
  }
  return null;
}

// The hook entries of a run, by event. Every hook call is recorded exactly once:
// - a call an answering rule matches is recorded by that rule's entry (payload, then its answer on the same line);
// - a recorded event no answering rule fully covers keeps a record-only entry ("*" for tool events), which skips the
//   tool calls an answering rule names (`--skip`), since Claude Code runs every matching entry of an event;
// - a recorded event an answering rule fully covers (a non-tool event, or matcher "*") has no record-only entry.
// Call answerRulesProblem first: overlapping or regex rules would break the "exactly once". The entries run the run
// directory's copy of the recorder, written here.
export function hookSettings(run: RunLayout, events: string[], answers: HookAnswerRule[] = []): Record<string, HookEntry[]> {
  fs.mkdirSync(run.root, { recursive: true });
  fs.copyFileSync(RECORDER, run.hookRecorder);
  fs.chmodSync(run.hookRecorder, 0o755);
  const settings: Record<string, HookEntry[]> = {};
  // timeout null: the entry has none, and claude's own default for the event applies.
  const entry = (event: string, args: string[], matcher: string | undefined, timeout: number | null = DEFAULT_TIMEOUT_SECONDS): HookEntry => ({
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: "command", command: [run.hookRecorder, event, run.hooksDir, run.hooksLog, ...args].map(quote).join(" "), ...(timeout === null ? {} : { timeout }) }],
  });
  const eventsInOrder = [...new Set([...events, ...answers.map((a) => a.event)])];
  for (const event of eventsInOrder) {
    const rules = [...answers.entries()].filter(([, rule]) => rule.event === event);
    const isTool = TOOL_EVENTS.has(event);
    const entries: HookEntry[] = rules.map(([i, rule]) => {
      const files = hookAnswerLayout(run, i);
      // The author's own command keeps the timeout its settings would have: none unless the rule gives one.
      const timeout = rule.timeoutSeconds ?? (rule.replies.some((reply) => "shell" in reply) ? null : DEFAULT_TIMEOUT_SECONDS);
      return entry(event, ["--answer", String(i), files.dir, files.rel], isTool ? (rule.matcher ?? "*") : undefined, timeout);
    });
    const fullyCovered = rules.some(([, rule]) => !isTool || covered(rule) === "all");
    if (events.includes(event) && !fullyCovered) {
      const skip = rules.flatMap(([, rule]) => covered(rule) as string[]);
      entries.unshift(entry(event, skip.length > 0 ? ["--skip", skip.join("|")] : [], isTool ? "*" : undefined));
    }
    settings[event] = entries;
  }
  return settings;
}

// Writes each answering rule's replies where its recorder reads them: count, and per reply exit/stdout/stderr files
// (byte-exact, so the recorder prints them with `cat` and the index line can name them), or the author's shell
// command, whose output the recorder keeps per call in `out/`.
export function writeHookAnswers(run: RunLayout, answers: HookAnswerRule[]): void {
  for (const [i, rule] of answers.entries()) {
    const files = hookAnswerLayout(run, i);
    fs.mkdirSync(files.calls, { recursive: true });
    fs.mkdirSync(files.output, { recursive: true });
    fs.writeFileSync(files.count, `${rule.replies.length}\n`);
    for (const [k, reply] of rule.replies.entries()) {
      const out = files.reply(k);
      if ("shell" in reply) {
        fs.writeFileSync(out.shell, reply.shell);
        continue;
      }
      fs.writeFileSync(out.exit, `${reply.exitCode}\n`);
      fs.writeFileSync(out.stdout, reply.stdout ?? "");
      fs.writeFileSync(out.stderr, reply.stderr ?? "");
    }
  }
}
