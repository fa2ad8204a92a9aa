// What a binary supports, read from the binary itself: its version, flags, hook events and capabilities (the names a
// scenario's needs use, and what they leave missing, are releases/needs.ts).
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { probeVersion, QUIET_ENV, type VersionProbe } from "./binary-info.ts";
import { cacheDir } from "./cache-dir.ts";
import { unresolvedDependencies } from "./release-dependencies.ts";
import { CAPABILITIES, TOOLS, type Capability, type Tool } from "./needs.ts";
import type { ResolvedClaude } from "./resolve.ts";
import { writeFileWhole } from "../core/write-whole.ts";

// Raised whenever how a probe reads changes (a better marker): older cached probes are redone. A new capability or tool
// needs no raise: a probe names what it looked for (PROBE_READS), and one that looked for another list is redone. 8caae0b added
// a capability without raising this, and a cache kept from before read 2.1.165 as without it (UNSUPPORTED in CI).
const PROBE_FORMAT = 6;
const PROBE_READS = [...CAPABILITIES, ...TOOLS].join(",");

const probeSchema = z.object({
  format: z.literal(PROBE_FORMAT),
  reads: z.literal(PROBE_READS),
  sha256: z.string(),
  reportedVersion: z.string().nullable(),
  // From `--help` and, for options a release hides from it (1.0.21's --permission-mode), from the bundle.
  flags: z.array(z.string()),
  hookEvents: z.array(z.string()),
  // Required: a probe cached before capabilities existed fails the schema and is probed again.
  capabilities: z.array(z.enum(CAPABILITIES)),
  tools: z.array(z.enum(TOOLS)),
  // Why `--version` reported none (never cached: such a probe is redone next time).
  versionError: z.string().optional(),
});
export type BinaryProbe = z.infer<typeof probeSchema>;

// Options as commander declares them, visible or hidden: ("--flag <arg>", "description") or ("-x, --flag", …).
const DECLARED_OPTION = /\("(?:-[A-Za-z]{1,2}, )?(--[a-z][a-z0-9-]*)(?:, --[a-zA-Z-]+)?(?: [<[][^"]*)?",\s*["'`]/g;

/** @internal exported for its unit tests */
export function flagsOf(help: string, bundle: string): string[] {
  return flagsFrom(help, declaredFlags(bundle));
}

// The flags --help lists and those the bundle declares (found whole or window by window), once each, sorted.
function flagsFrom(help: string, declared: Iterable<string>): string[] {
  return [...new Set([...helpFlags(help), ...declared])].sort();
}

function declaredFlags(bundle: string): string[] {
  return [...bundle.matchAll(DECLARED_OPTION)].map((m) => m[1]!);
}

// Minified code puts a check's condition just before its message: the text before each occurrence of `anchor`.
function before(bundle: string, anchor: string, span: number): string[] {
  const out: string[] = [];
  for (let at = bundle.indexOf(anchor); at !== -1; at = bundle.indexOf(anchor, at + 1)) out.push(bundle.slice(Math.max(0, at - span), at));
  return out;
}

// A tool's schema and its description sit close together: whether `needle` occurs within `span` of `anchor`.
function near(bundle: string, anchor: string, needle: string, span: number): boolean {
  for (let at = bundle.indexOf(anchor); at !== -1; at = bundle.indexOf(anchor, at + 1)) {
    if (bundle.slice(Math.max(0, at - span), at + span).includes(needle)) return true;
  }
  return false;
}

// What the bundle's code says, each read from a short stretch of it (none looks further than NEAR_SPAN from its
// anchor), so a bundle can be read in overlapping windows and the windows' markers joined.
const NEAR_SPAN = 4000;
export type BundleMarker =
  | "input-format-option"
  | "interrupt-control-request"
  | "single-content-block-input"
  | "root-sandbox-check"
  | "no-proxy"
  | "run-in-background"
  | "background-subagent"
  | "task-notification"
  | "task-started-event"
  | "send-message-tool"
  | "background-command"
  | "monitor-tool"
  | "tool-search-tool";

// Pure: the markers in one stretch of a bundle (latin1, which keeps the ASCII markers searched here). The markers
// and the first release with each were measured by bisecting published releases' bundles.
export function bundleMarkers(bundle: string): Set<BundleMarker> {
  const has = new Set<BundleMarker>();
  if (/"--input-format <format>"|stream-json \(realtime streaming input\)/.test(bundle)) has.add("input-format-option");
  // 1.0.45: `if($.type==="control_request"){if($.request.subtype==="interrupt")…`; 2.1.x: `H.request.subtype==="interrupt"`.
  if (bundle.includes('request.subtype==="interrupt"')) has.add("interrupt-control-request");
  // ≤1.0.62: `if($.message.content.length!==1){process.stderr.write(\`Error: Expected message content to have exactly one item…`.
  if (bundle.includes("Expected message content to have exactly one item")) has.add("single-content-block-input");
  // ≤1.0.43: `getuid()===0)`; 1.0.44: `getuid()===0&&!process.env.IS_SANDBOX)`; 2.0.77: `…IS_SANDBOX!=="1"…`;
  // later native builds also call an `isRootOutsideDeliberateSandbox()` beside it.
  const rootChecks = before(bundle, "cannot be used with root/sudo", 300);
  if (rootChecks.some((c) => /getuid\(\)===0&&[^;]*IS_SANDBOX|isRootOutsideDeliberateSandbox/.test(c))) has.add("root-sandbox-check");
  // 1.0.93: `return process.env.no_proxy||process.env.NO_PROXY`; 2.1.x: `q.no_proxy||q.NO_PROXY`, `process.env.NO_PROXY||process.env.no_proxy`.
  if (/no_proxy\|\|[A-Za-z_$.]*NO_PROXY|NO_PROXY\|\|[A-Za-z_$.]*no_proxy/.test(bundle)) has.add("no-proxy");
  if (bundle.includes("run_in_background")) has.add("run-in-background");
  if (near(bundle, "subagent_type", "run_in_background", NEAR_SPAN)) has.add("background-subagent");
  if (bundle.includes("task-notification")) has.add("task-notification");
  if (bundle.includes('"task_started"')) has.add("task-started-event");
  if (/userFacingName\(\)\{return"SendMessage"\}|[A-Za-z_$][\w$]*="SendMessage"/.test(bundle)) has.add("send-message-tool");
  if (/name:"background",aliases:\["bg"\]/.test(bundle)) has.add("background-command");
  // The tool's own description (2.1.101–2.1.332); the bare name also names a Mathematica symbol in a syntax list.
  if (bundle.includes("Start a background monitor")) has.add("monitor-tool");
  // 2.1.19: `UG="ToolSearch",` and `userFacingName:()=>"ToolSearch"`; 2.1.89: `gP="ToolSearch";`.
  if (/[A-Za-z_$][\w$]*="ToolSearch"[;,]|userFacingName:\(\)=>"ToolSearch"/.test(bundle)) has.add("tool-search-tool");
  return has;
}

// Pure: the capabilities from the help text, the bundle's markers and the flags.
export function capabilitiesFrom(help: string, markers: ReadonlySet<BundleMarker>, flags: readonly string[]): Capability[] {
  const flag = (f: string) => flags.includes(f);
  const marker = (m: BundleMarker) => markers.has(m);
  const has = new Set<Capability>();
  if (flag("--input-format") && (marker("input-format-option") || bundleMarkers(help).has("input-format-option"))) has.add("stream-json-input");
  if (flag("--output-format") && help.includes("stream-json")) has.add("stream-json-output");
  if (flag("--input-format") && marker("interrupt-control-request")) has.add("stream-json-interrupt");
  // The only capability a marker takes away: every release with stream-json input takes several blocks but those
  // whose input loop refuses them.
  if (has.has("stream-json-input") && !marker("single-content-block-input")) has.add("stream-json-input-blocks");
  if (flag("--model")) has.add("model-flag");
  if (flag("--allowedTools") || flag("--allowed-tools")) has.add("allowed-tools-flag");
  if (flag("--resume")) has.add("resume");
  if (flag("--session-id")) has.add("session-id-flag");
  if (marker("root-sandbox-check")) has.add("root-sandbox-escape");
  if (marker("no-proxy")) has.add("honours-no-proxy");
  if (marker("run-in-background")) has.add("background-bash");
  if (marker("background-subagent")) has.add("background-subagent");
  if (marker("task-notification")) has.add("task-notification");
  if (marker("task-started-event")) has.add("stream-task-events");
  if (marker("send-message-tool")) has.add("send-message");
  if (marker("background-command")) has.add("interactive-background");
  return CAPABILITIES.filter((c) => has.has(c));
}

const TOOL_MARKERS: Record<Tool, BundleMarker> = { Monitor: "monitor-tool", ToolSearch: "tool-search-tool" };

// Pure: the tools compiled into the bundle whose markers were found.
export function toolsFrom(markers: ReadonlySet<BundleMarker>): Tool[] {
  return TOOLS.filter((tool) => markers.has(TOOL_MARKERS[tool]));
}

// Pure: the capabilities of a bundle read whole.
/** @internal exported for its unit tests */
export function capabilitiesOf(help: string, bundle: string, flags: readonly string[]): Capability[] {
  return capabilitiesFrom(help, bundleMarkers(bundle), flags);
}

// Registering these only to log them changes the session's behaviour (they replace built-in handling).
const BEHAVIOUR_CHANGING_HOOKS = /worktree|elicitation/i;

// The release's own list of hook events: the string array in its bundle that names them all.
/** @internal exported for its unit tests */
export function hookEventsInBundle(bundle: Buffer): string[] {
  return loggableHooks(longestHookList(bundle));
}

const loggableHooks = (names: readonly string[]) => names.filter((name) => !BEHAVIOUR_CHANGING_HOOKS.test(name));

// The longest array of hook event names in `bundle`, each looked for within HOOK_LIST_SPAN of "UserPromptSubmit".
const HOOK_LIST_SPAN = 2000;
function longestHookList(bundle: Buffer): string[] {
  let best: string[] = [];
  for (let at = bundle.indexOf('"UserPromptSubmit"'); at !== -1; at = bundle.indexOf('"UserPromptSubmit"', at + 1)) {
    const start = bundle.lastIndexOf("[", at);
    const end = bundle.indexOf("]", at);
    if (start === -1 || end === -1 || at - start > HOOK_LIST_SPAN || end - at > HOOK_LIST_SPAN) continue;
    const text = bundle.subarray(start, end + 1).toString("latin1");
    if (!/^\[\s*"[A-Za-z]+"(\s*,\s*"[A-Za-z]+")*\s*\]$/.test(text)) continue;
    const names = JSON.parse(text) as string[];
    if (names.includes("PreToolUse") && names.includes("Stop") && names.length > best.length) best = names;
  }
  return best;
}

export interface BundleScan {
  markers: Set<BundleMarker>;
  declaredFlags: Set<string>;
  hookEvents: string[];
}

// A native release is a 200 MB file: read whole, as a Buffer and a latin1 copy of it, one probe held about 1 GB
// (a cold bisect, probing each release it downloads, peaked at 1.37 GiB). It is read in windows instead, each
// overlapping the last by more than any marker spans, so every stretch a marker reads lies whole in some window,
// and a marker found in a window is one found in the file: the windows' findings joined are the whole file's.
const WINDOW_BYTES = 8 * 2 ** 20;
const OVERLAP_BYTES = 2 * NEAR_SPAN + 2 * HOOK_LIST_SPAN;
export async function scanBundle(file: string, windowBytes = WINDOW_BYTES): Promise<BundleScan> {
  const scan: BundleScan = { markers: new Set(), declaredFlags: new Set(), hookEvents: [] };
  const buffer = Buffer.alloc(windowBytes + OVERLAP_BYTES);
  const handle = await fsp.open(file, "r");
  try {
    let kept = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, kept, windowBytes, null);
      // The kept overlap was read with the window before: nothing new, nothing left to read.
      if (bytesRead === 0) break;
      const window = buffer.subarray(0, kept + bytesRead);
      const text = window.toString("latin1");
      for (const marker of bundleMarkers(text)) scan.markers.add(marker);
      for (const flag of declaredFlags(text)) scan.declaredFlags.add(flag);
      const hooks = longestHookList(window);
      if (hooks.length > scan.hookEvents.length) scan.hookEvents = hooks;
      kept = Math.min(OVERLAP_BYTES, window.length);
      window.copy(buffer, 0, window.length - kept);
    }
  } finally {
    await handle.close();
  }
  scan.hookEvents = loggableHooks(scan.hookEvents);
  return scan;
}

function helpFlags(help: string): string[] {
  return [...new Set([...help.matchAll(/(?:^|\s)(--[a-z][A-Za-z0-9-]*)/g)].map((m) => m[1]!))].sort();
}

const probeEnv = (home: string) => ({
  HOME: home,
  CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
  TMPDIR: home,
  PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
  ...QUIET_ENV,
});

// A damaged or outdated cache entry is no entry: the binary is probed again.
/** @internal exported for its unit tests */
export function readCachedProbe(file: string): BinaryProbe | null {
  try {
    const cached = probeSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    return cached.success ? cached.data : null;
  } catch {
    return null;
  }
}

const PROBE_TIMEOUT_MS = 30_000;

// Why `--version` gave no version, in a line: it hung, or the first line of its stderr that names an error (a copy of
// 0.2.90–0.2.109 without the npm dependency better-sqlite3, which their package declares and the cache installs), or its exit.
/** @internal exported for its unit tests */
export function versionFailure(probe: Pick<VersionProbe, "stderr" | "exitCode" | "timedOut">): string {
  if (probe.timedOut) return "`--version` hung";
  const line = probe.stderr.split("\n").map((l) => l.trim()).find((l) => /error/i.test(l));
  return line ? `\`--version\` failed: ${line.slice(0, 240)}` : `\`--version\` printed no version (exit ${probe.exitCode ?? "none"})`;
}

// Probes once per binary (keyed by its sha256) and caches the answer beside the release cache. A cli.js whose declared
// dependencies do not resolve where it lies is probed afresh: the answer cached for its sha256 is that of a copy that
// had them (the cache's own, which installs them), and this one cannot start.
export async function probeBinary(claude: ResolvedClaude): Promise<BinaryProbe> {
  const cacheFile = path.join(cacheDir(), "probes", `${claude.sha256}.json`);
  const whole = unresolvedDependencies(path.dirname(claude.executablePath)).length === 0;
  const cached = whole ? readCachedProbe(cacheFile) : null;
  if (cached) return cached;
  const { execa } = await import("execa");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-probe-"));
  try {
    const env = probeEnv(home);
    // Run inside the probe's own folder: a release writes into its working directory (ProbeProcess says what).
    const [version, help] = await Promise.all([
      probeVersion(claude.command, claude.args, { env, cwd: home, timeoutMs: PROBE_TIMEOUT_MS }),
      execa(claude.command, [...claude.args, "--help"], { env, cwd: home, extendEnv: false, reject: false, timeout: PROBE_TIMEOUT_MS, stdin: "ignore" }),
    ]);
    const bundle = await scanBundle(claude.era === "js" ? claude.args[0]! : claude.executablePath);
    const helpText = String(help.stdout);
    const flags = flagsFrom(helpText, bundle.declaredFlags);
    const probe: BinaryProbe = {
      format: PROBE_FORMAT,
      reads: PROBE_READS,
      sha256: claude.sha256,
      reportedVersion: version.version,
      flags,
      hookEvents: bundle.hookEvents,
      capabilities: capabilitiesFrom(helpText, bundle.markers, flags),
      tools: toolsFrom(bundle.markers),
      ...(version.version === null ? { versionError: versionFailure(version) } : {}),
    };
    // A binary that did not even report its version is probed again next time rather than remembered broken.
    if (probe.reportedVersion !== null) {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      writeFileWhole(cacheFile, JSON.stringify(probe, null, 2));
    }
    return probe;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
