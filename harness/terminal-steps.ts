// Carries out the terminal step kinds: the interactive UI in a pty, keys, screen waits, watches, helper commands, daemon exit.
import fs from "node:fs";
import path from "node:path";
import type { CommandOutput, CommandView, Step, TerminalKey } from "./plan.ts";
import { argvOf } from "../core/proc.ts";
import { daemonPids } from "./daemon-hygiene.ts";
import { interactiveArgs, RUN_MARKER_VAR } from "./isolation.ts";
import { findMarkedProcesses } from "./processes.ts";
import { sessionLayout, terminalFiles, type RunLayout } from "./run-layout.ts";
import { StepFailure, type RunContext, type StepResult } from "./run-context.ts";
import { TerminalSession } from "./terminal-session.ts";
import { clockNow } from "../core/time.ts";

export type TerminalStep = Extract<Step, { kind: "terminal" | "type" | "press" | "screen-wait" | "watch" | "command" | "daemon-exit" }>;

const KEYS: Record<TerminalKey, string> = {
  enter: "\r",
  escape: "\x1b",
  tab: "\t",
  "shift-tab": "\x1b[Z",
  backspace: "\x7f",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  "ctrl-b": "\x02",
  "ctrl-c": "\x03",
  "ctrl-d": "\x04",
  // To the input line's end, then clear back to its start: how a step empties an input the UI filled (it puts a
  // prompt a hook blocked back into the input, the cursor at its start).
  "ctrl-e": "\x05",
  "ctrl-u": "\x15",
};

export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;
// From spawn to the prompt: a cold native release takes a few seconds on a 2-core machine.
const READY_TIMEOUT_MS = 45_000;
// A keystroke's echo and re-render arrive as a burst; the capture waits for it to end.
const CAPTURE_QUIET_MS = 300;
const CAPTURE_MAX_MS = 1_000;
const ECHO_TIMEOUT_MS = 10_000;
const KEYS_TIMEOUT_MS = 10_000;

// The input box: a horizontal rule, then the prompt character at the start of the next row; before 2.0 a rounded box
// whose first inner row starts with the prompt character (padded with no-break spaces: "│ > Try …").
export function promptReady(screen: string): boolean {
  const rows = screen.split("\n");
  return rows.some(
    (row, i) =>
      (/^─{20,}$/.test(row.trim()) && /^[❯>](\s|$)/.test(rows[i + 1] ?? "")) ||
      (/^╭─{20,}╮$/.test(row.trim()) && /^│[\s\u00a0]*>[\s\u00a0]/.test(rows[i + 1] ?? "")),
  );
}

// Texts of the dialogs a fresh config shows before the prompt (onboarding, trust, API key, bypass permissions).
export function dialogShown(screen: string): boolean {
  return !promptReady(screen) && /Enter to confirm|Esc to cancel|Let's get started|Press Enter to continue/.test(screen);
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60);

// Next file name in a directory of numbered captures: 001-…, 002-…, in the order they were taken (an index file
// beside them is not counted).
function numbered(dir: string, name: string, ext: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const taken = fs.readdirSync(dir).filter((file) => /^\d{3}-/.test(file)).length;
  return path.join(dir, `${String(taken + 1).padStart(3, "0")}-${slug(name)}.${ext}`);
}

function terminal(ctx: RunContext, label: string): TerminalSession {
  const found = ctx.terminals.get(label);
  if (!found) throw new StepFailure(`the scenario uses terminal "${label}" before starting it`);
  return found;
}

async function capture(ctx: RunContext, session: string, what: string): Promise<string> {
  const t = terminal(ctx, session);
  await t.quiet(CAPTURE_QUIET_MS, CAPTURE_MAX_MS);
  return writeScreen(ctx.layout, session, what, t.screen());
}

// One screen as text, numbered in capture order, and its line in screens/index.jsonl (what a check reads).
function writeScreen(layout: RunLayout, session: string, what: string, screen: string): string {
  const file = numbered(layout.screens, `${session}-${what}`, "txt");
  fs.writeFileSync(file, `${screen}\n`);
  const relative = path.relative(layout.root, file);
  fs.appendFileSync(layout.screensIndex, `${JSON.stringify({ t: clockNow(), session, what, file: relative })}\n`);
  return relative;
}

/** Each UI's last screen, once every process of the run has exited: what it showed when it ended. */
export function writeEndScreens(layout: RunLayout, terminals: Iterable<TerminalSession>): void {
  for (const t of terminals) writeScreen(layout, t.process.label, "end", t.screen());
}

const withScreen = (message: string, screen: string) => `${message}; the screen:\n${screen}`;

function running(ctx: RunContext, session: string): TerminalSession {
  const t = terminal(ctx, session);
  if (!t.running) throw new StepFailure(withScreen(`terminal "${session}" has already exited`, t.screen()));
  return t;
}

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

// Waits until the UI reads keys one at a time, then pastes the text and waits for its echo, so the next key reaches an
// input that already holds it (an echo of the line discipline's own, in line mode, would pass for one).
async function typeText(ctx: RunContext, step: Extract<Step, { kind: "type" }>): Promise<StepResult> {
  const t = running(ctx, step.session);
  const reading = await ctx.live.waitUntil(() => t.readsKeys() !== false || !t.running, KEYS_TIMEOUT_MS, ctx.abort);
  if (reading === "aborted") throw ctx.abort.reason as Error;
  if (reading === "timeout") {
    const what = `the UI did not read keys one at a time within ${KEYS_TIMEOUT_MS} ms (its terminal stayed in line mode), so typed text would never reach it`;
    throw new StepFailure(withScreen(`${what}; if the screen shows a question the seeded config does not answer, that is what it waits on, else drive this release headless (--driver headless)`, t.screen()));
  }
  t.paste(step.text);
  // The tail is what shows even when the input box wraps or scrolls a long text.
  const tail = collapse(step.text).slice(-20);
  const outcome = await ctx.live.waitUntil(() => collapse(t.screen()).includes(tail), ECHO_TIMEOUT_MS, ctx.abort);
  if (outcome === "aborted") throw ctx.abort.reason as Error;
  const shot = await capture(ctx, step.session, "typed");
  if (outcome === "timeout") throw new StepFailure(withScreen(`the typed text did not show on the screen within ${ECHO_TIMEOUT_MS} ms`, t.screen()));
  return { outcome: "ok", detail: shot };
}

// The session id a UI resumes: an earlier session's own, or one computed from what the run saw; null skips the step.
function resumedId(ctx: RunContext, step: Extract<Step, { kind: "terminal" }>): string | null | undefined {
  if (step.resumeFrom) return step.resumeFrom(commandView(ctx));
  if (step.resume === undefined) return undefined;
  const earlier = ctx.sessions.get(step.resume) ?? ctx.terminals.get(step.resume);
  if (!earlier) throw new StepFailure(`terminal ${step.session} resumes session "${step.resume}", which was never started`);
  // A UI prints no session id; the requests its process sent carry it (x-claude-code-session-id).
  const sent = ctx.live.requests.find((r) => r.client?.pid === earlier.process.pid && typeof r.headers["x-claude-code-session-id"] === "string");
  const id = earlier.process.sessionId ?? (sent?.headers["x-claude-code-session-id"] as string | undefined);
  if (!id) throw new StepFailure(`session "${step.resume}" never reported a session id to resume; resume it with resumeFrom: (view) => id`);
  return id;
}

async function startTerminal(ctx: RunContext, step: Extract<Step, { kind: "terminal" }>): Promise<StepResult> {
  if (ctx.terminals.has(step.session)) throw new StepFailure(`terminal "${step.session}" is already started`);
  const resumeId = resumedId(ctx, step);
  if (resumeId === null) return { outcome: "ok", detail: "skipped: no session id to resume" };
  const files = terminalFiles(ctx.layout, step.session);
  const started = new TerminalSession({
    label: step.session,
    command: ctx.claude.command,
    args: [
      ...ctx.claude.args,
      ...interactiveArgs(sessionLayout(ctx.layout, step.session).debugLog, ctx.probe, ctx.permissions, ctx.settings),
      ...(resumeId === undefined ? [] : ["--resume", resumeId]),
      ...(step.extraArgs ?? []),
    ],
    env: { ...ctx.env, TERM: "xterm-256color" },
    cwd: ctx.layout.work,
    cols: step.cols ?? DEFAULT_COLS,
    rows: step.rows ?? DEFAULT_ROWS,
    files,
    onChange: () => ctx.live.changed(),
  });
  ctx.terminals.set(step.session, started);
  ctx.live.addSession(started.recording, started.exited);
  const outcome = await ctx.live.waitUntil(
    () => promptReady(started.screen()) || dialogShown(started.screen()) || !started.running,
    READY_TIMEOUT_MS,
    ctx.abort,
  );
  if (outcome === "aborted") throw ctx.abort.reason as Error;
  const shot = await capture(ctx, step.session, "start");
  const screen = started.screen();
  // The run stops here like a wait that ran out ("timeout" ends the steps, the check still runs): what the UI did
  // before exiting is in the recordings.
  if (!started.running && step.onEarlyExit === "check") {
    return { outcome: "timeout", detail: `the UI exited before showing its prompt (exit ${started.process.exitCode ?? "-"}, signal ${started.process.signal ?? "-"}): the remaining steps are skipped, ${shot}` };
  }
  if (!started.running) throw new StepFailure(withScreen(`the UI exited before showing its prompt (exit ${started.process.exitCode ?? "-"}, signal ${started.process.signal ?? "-"})`, screen));
  if (dialogShown(screen)) throw new StepFailure(withScreen("the UI opened a dialog instead of its prompt: the pre-seeded config misses a setting this release asks for", screen));
  if (outcome === "timeout") throw new StepFailure(withScreen(`the UI showed no prompt within ${READY_TIMEOUT_MS} ms`, screen));
  return { outcome: "ok", detail: `pid ${started.process.pid}, ${shot}` };
}

async function screenWait(ctx: RunContext, step: Extract<Step, { kind: "screen-wait" }>): Promise<StepResult> {
  const t = terminal(ctx, step.session);
  const outcome = await ctx.live.waitUntil((rec) => step.until({ screen: t.screen(), exited: !t.running, rec }), step.timeoutMs, ctx.abort);
  if (outcome === "aborted") throw ctx.abort.reason as Error;
  const shot = await capture(ctx, step.session, step.label);
  if (outcome === "ok") {
    ctx.pointReached();
    return { outcome: "ok", detail: shot };
  }
  if (step.onTimeout === "continue") return { outcome: "timeout", detail: `not reached within ${step.timeoutMs} ms; the scenario allows it (onTimeout: "continue"), ${shot}`, mayTimeOut: true };
  if (step.onTimeout === "inconclusive") return { outcome: "timeout", detail: `not reached within ${step.timeoutMs} ms, ${shot}` };
  throw new StepFailure(withScreen(`timed out after ${step.timeoutMs} ms waiting for: ${step.label}`, t.screen()));
}

async function watch(ctx: RunContext, step: Extract<Step, { kind: "watch" }>): Promise<StepResult> {
  const started = Date.now();
  const outcome = await ctx.live.waitUntil(step.until, step.timeoutMs, ctx.abort);
  if (outcome === "aborted") throw ctx.abort.reason as Error;
  if (outcome === "ok") ctx.pointReached();
  // A watch may time out by design (the absence is what the check judges): the run goes on, the timeout is shown.
  if (outcome === "ok") return { outcome: "ok", detail: `seen after ${Date.now() - started} ms` };
  return { outcome: "timeout", detail: `not seen within ${step.timeoutMs} ms (a watch: the run goes on)`, mayTimeOut: true };
}

// The helper commands this run has run so far, from their records in the run directory, by label (later ones win).
function commandOutputs(dir: string): Record<string, CommandOutput> {
  if (!fs.existsSync(dir)) return {};
  const outputs: Record<string, CommandOutput> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const record = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as { label: string } & CommandOutput;
    outputs[record.label] = { exitCode: record.exitCode, stdout: record.stdout };
  }
  return outputs;
}

// What a step's computed arguments see so far: the UIs' screens, the recordings and the commands' output by label.
export function commandView(ctx: RunContext): CommandView {
  const screens = Object.fromEntries([...ctx.terminals].map(([label, t]) => [label, t.screen()]));
  return { screens, rec: ctx.live, commands: commandOutputs(ctx.layout.commands) };
}

async function runCommand(ctx: RunContext, step: Extract<Step, { kind: "command" }>): Promise<StepResult> {
  let args: string[] | null;
  try {
    args = typeof step.args === "function" ? step.args(commandView(ctx)) : step.args;
  } catch (error) {
    throw new StepFailure(`could not build the arguments of "${step.label}": ${(error as Error).message}`);
  }
  if (args === null) return { outcome: "ok", detail: "skipped: nothing to run it on" };
  const { execa } = await import("execa");
  const startedAt = clockNow();
  const child = execa(ctx.claude.command, [...ctx.claude.args, ...args], {
    env: ctx.env,
    extendEnv: false,
    cwd: ctx.layout.work,
    stdin: "ignore",
    reject: false,
    timeout: step.timeoutMs,
    cancelSignal: ctx.abort,
  });
  const result = await child;
  const record = {
    label: step.label,
    argv: [ctx.claude.command, ...ctx.claude.args, ...args],
    pid: child.pid ?? null,
    startedAt,
    endedAt: clockNow(),
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut: result.timedOut,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
  };
  const file = numbered(ctx.layout.commands, step.label, "json");
  fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  if (ctx.abort.aborted) throw ctx.abort.reason as Error;
  const how = record.timedOut ? `timed out after ${step.timeoutMs} ms` : `exit ${record.exitCode ?? "-"} signal ${record.signal ?? "-"}`;
  return { outcome: "ok", detail: `claude ${args.join(" ")}: ${how}, ${path.relative(ctx.layout.root, file)}` };
}

async function daemonExit(ctx: RunContext, step: Extract<Step, { kind: "daemon-exit" }>): Promise<StepResult> {
  const marker = { name: RUN_MARKER_VAR, value: ctx.env[RUN_MARKER_VAR] ?? "" };
  const before = daemonPids(marker);
  const started = Date.now();
  const outcome = await ctx.live.waitUntil(() => daemonPids(marker).length === 0, step.timeoutMs, ctx.abort);
  if (outcome === "aborted") throw ctx.abort.reason as Error;
  if (outcome === "timeout") {
    const still = `the daemon (pid ${daemonPids(marker).join(", ")}) was still running ${step.timeoutMs} ms later`;
    if (step.onTimeout === "continue") return { outcome: "timeout", detail: `${still}; the scenario allows it (onTimeout: "continue"), the reaper ends it`, mayTimeOut: true };
    throw new StepFailure(`${still}; if the scenario cannot always stop it (a release without \`claude stop\`), let it run on with daemonExit(…, { onTimeout: "continue" }): the run's reaper ends it`);
  }
  const seen = before.length === 0 ? "no daemon was running" : `daemon pid ${before.join(", ")} exited after ${Date.now() - started} ms`;
  // What the daemon left running is for the reaper to end; the record says what it was.
  const left = findMarkedProcesses(marker.name, marker.value).map((pid) => `${pid} (${argvOf(pid).slice(1, 3).join(" ")})`);
  return { outcome: "ok", detail: left.length === 0 ? seen : `${seen}; still running: ${left.join(", ")}` };
}

export async function executeTerminalStep(ctx: RunContext, step: TerminalStep): Promise<StepResult> {
  switch (step.kind) {
    case "terminal":
      return startTerminal(ctx, step);
    case "type":
      return typeText(ctx, step);
    case "press":
      running(ctx, step.session).write(step.keys.map((key) => KEYS[key]).join(""));
      return { outcome: "ok", detail: await capture(ctx, step.session, `pressed ${step.keys.join(" ")}`) };
    case "screen-wait":
      return screenWait(ctx, step);
    case "watch":
      return watch(ctx, step);
    case "command":
      return runCommand(ctx, step);
    case "daemon-exit":
      return daemonExit(ctx, step);
  }
}
