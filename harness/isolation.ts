// The isolated world a run hands to the binary: its own directories, a pre-seeded config, an allow-listed environment.
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { QUIET_ENV } from "../releases/binary-info.ts";
import type { BinaryProbe } from "../releases/capabilities.ts";
import type { HookSource, PermissionPlan, SeedFiles, SettingSource } from "./plan.ts";
import { placeWorkOutside } from "./outside-workdir.ts";
import { ownerToken, RUN_OWNER_VAR } from "./processes.ts";
import { projectSettingsFile, userSettingsFile, type RunLayout } from "./run-layout.ts";

// Harmless by construction: the mock accepts any key, and the value marks where a leak would have come from.
export const FAKE_API_KEY = "sk-ant-ccrepro-fake-key-0000";

// ccrepro's fake key in the kind a recorded session's key had (the three letters claude reads after `sk-ant-`: a
// Console key "api" gets other side-request models than the kind-less FAKE_API_KEY). Its tail is FAKE_API_KEY's, which
// the seeded config approves, so the UI asks nothing about it.
export const fakeKeyOfKind = (kind: string): string => `sk-ant-${kind}-${FAKE_API_KEY.slice("sk-ant-".length)}`;

// Every process of a run inherits this variable; the reaper finds escaped processes by it.
export const RUN_MARKER_VAR = "CCREPRO_RUN_ID";

// What keeps a run isolated and findable: a scenario's `env` may not set or unset these (the kit refuses them).
export const ISOLATION_VARS = [
  RUN_MARKER_VAR,
  "CCREPRO_RUN_OWNER",
  "HOME",
  "CLAUDE_CONFIG_DIR",
  "TMPDIR",
  "CLAUDE_CODE_TMPDIR",
  "ANTHROPIC_BASE_URL",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
] as const;

export interface IsolationOptions {
  runId: string;
  mockUrl: string;
  // http://127.0.0.1:PORT of the outbound trap; every proxy variable points there.
  trapUrl: string;
  // Variables the scenario names in `passEnv`, passed from the caller's environment by name.
  passThrough?: string[];
  // The scenario's own: set (a string) or unset (null), after everything above (kit: `env`).
  scenarioEnv?: Record<string, string | null>;
}

export function buildEnvironment(run: RunLayout, options: IsolationOptions): Record<string, string> {
  const env: Record<string, string> = {
    HOME: run.home,
    CLAUDE_CONFIG_DIR: run.config,
    TMPDIR: run.tmp,
    CLAUDE_CODE_TMPDIR: run.tmp,
    // The node running ccrepro comes first so a scripted `node -e` wait finds the same runtime.
    PATH: [path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    // The pseudo-terminal driver sets its own TERM for the interactive UI.
    TERM: "dumb",
    ANTHROPIC_BASE_URL: options.mockUrl,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    ...QUIET_ENV,
    HTTP_PROXY: options.trapUrl,
    HTTPS_PROXY: options.trapUrl,
    ALL_PROXY: options.trapUrl,
    http_proxy: options.trapUrl,
    https_proxy: options.trapUrl,
    all_proxy: options.trapUrl,
    // The mock is on loopback and must be reached directly, not through the trap.
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    [RUN_MARKER_VAR]: options.runId,
    // Whose run it is: what lets a later ccrepro (or `ccrepro doctor`) tell a dead run's processes from a live one's.
    [RUN_OWNER_VAR]: ownerToken(),
  };
  // Running as root, the binary refuses --dangerously-skip-permissions unless it is told it is sandboxed.
  if (process.getuid?.() === 0) env.IS_SANDBOX = "1";
  for (const name of options.passThrough ?? []) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(options.scenarioEnv ?? {})) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return env;
}

// What a run declares in settings beyond the harness's own: its hook entries and permission rules, in one place.
export interface DeclaredSettings {
  source: HookSource;
  hooks?: Record<string, unknown>;
  permissions?: { allow: string[]; deny: string[] };
}

// The settings file a source means for this run: user = CLAUDE_CONFIG_DIR/settings.json, project = the working
// directory's .claude/settings.json, flag = a file of the run directory passed as `--settings`.
export function settingsFileOf(run: RunLayout, source: HookSource): string {
  return source === "user" ? userSettingsFile(run) : source === "project" ? projectSettingsFile(run) : run.flagSettings;
}

// The global config file in a set CLAUDE_CONFIG_DIR: `.claude.json`, but `config.json` up to 1.0.4 (its cli.js:
// `CLAUDE_CONFIG_DIR ? join(dir, "config.json") : join(home, ".claude.json")`), whose UI otherwise opens the theme
// picker and trust dialog. Both are seeded with the same state; later releases never read `config.json` there.
const GLOBAL_CONFIG_FILES = [".claude.json", "config.json"] as const;

// The release a run's config is seeded for, and the API key its environment carries.
export interface SeededRelease {
  // As the binary reported it, or "local" for a build that reported none.
  version: string;
  // None when the scenario unset ANTHROPIC_API_KEY: the config then gets none either.
  apiKey?: string;
}

// Up to 1.0.5 the interactive UI takes its key from the config alone (`primaryApiKey`, or a key helper), where 1.0.8
// also takes an approved ANTHROPIC_API_KEY: without one, the UI says "Missing API key" and sends nothing it is given.
function uiKeyFromConfigOnly(version: string): boolean {
  return semver.valid(version) !== null && semver.lte(version, "1.0.5");
}

// Config state that lets both `-p` and the interactive UI start without onboarding, trust or key dialogs; the hooks
// and permission rules go into the settings file of their source (the user settings.json unless said otherwise).
// The working directory is an empty git repository of its own, or (gitRepository false) outside every repository.
export function seedConfig(
  run: RunLayout,
  hooks: Record<string, unknown> | undefined,
  declared: Omit<DeclaredSettings, "hooks"> = { source: "user" },
  gitRepository = true,
  release: SeededRelease = { version: "local", apiKey: FAKE_API_KEY },
): void {
  for (const dir of [run.home, run.config, run.tmp]) fs.mkdirSync(dir, { recursive: true });
  // claude keys a project by its working directory's real path: the outside one's, when the work folder links there,
  // and the one behind any link on the way (a runs folder that is a link): keyed by the path as given, a UI asked
  // again whether to trust its folder.
  const given = gitRepository ? run.work : placeWorkOutside(run);
  fs.mkdirSync(given, { recursive: true });
  const work = fs.realpathSync(given);
  if (gitRepository) ownRepository(work);
  const state = {
    hasCompletedOnboarding: true,
    theme: "dark",
    numStartups: 5,
    customApiKeyResponses: { approved: [FAKE_API_KEY.slice(-20)], rejected: [] },
    bypassPermissionsModeAccepted: true,
    hasAcknowledgedCostThreshold: true,
    projects: {
      [work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] },
    },
  };
  const key = release.apiKey !== undefined && uiKeyFromConfigOnly(release.version) ? { primaryApiKey: release.apiKey } : {};
  for (const name of GLOBAL_CONFIG_FILES) fs.writeFileSync(path.join(run.config, name), JSON.stringify({ ...state, ...key }, null, 2));
  const own: Record<string, unknown> = {};
  if (hooks) own.hooks = hooks;
  if (declared.permissions) own.permissions = declared.permissions;
  const user: Record<string, unknown> = { skipDangerousModePermissionPrompt: true, ...(declared.source === "user" ? own : {}) };
  fs.writeFileSync(userSettingsFile(run), JSON.stringify(user, null, 2));
  // An empty project or flag file is still written: a `--settings` flag must name a file that exists.
  if (declared.source !== "user") {
    const file = settingsFileOf(run, declared.source);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(own, null, 2));
  }
}

// claude puts the git status of its working directory into the system prompt. A run directory usually sits inside
// someone's checkout (runs/ in this one), whose branch, changes and commits would then reach the requests: they differ
// from run to run, and a packed run would carry them. An empty repository of its own stops git's search upwards.
// Written by hand rather than by `git init` (a child process on every run's critical path, with its hook samples):
// HEAD, config and the object and ref folders are what git needs, and git status, log and rev-parse answer in it
// exactly as in a `git init --initial-branch=main` repository.
function ownRepository(work: string): void {
  const git = path.join(work, ".git");
  for (const dir of ["objects", "refs/heads", "refs/tags"]) fs.mkdirSync(path.join(git, dir), { recursive: true });
  fs.writeFileSync(path.join(git, "HEAD"), "ref: refs/heads/main\n");
  fs.writeFileSync(path.join(git, "config"), "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n");
}

// How a run grants the binary its tools: without a permission prompt ("bypass" plans), or through the release's own
// permission handling with a mode and rules ("permission-mode"); the flags that takes, and why that way.
export interface PermissionChoice {
  mode: "skip-permissions" | "allowed-tools" | "permission-mode";
  args: string[];
  why: string;
  // A plan's own mode and rules (mode "permission-mode" only); the rules go into the settings of the hooks' source.
  rules?: { mode: string; allow: string[]; deny: string[] };
  // Set when the release cannot do what the plan asks (no --permission-mode for a mode other than default): the run
  // fails with this message before any session starts.
  unavailable?: string;
}

// Every tool a scenario's replies call, under each release's name for it (Task became Agent; KillBash became
// KillShell). A name a release does not have is a rule that matches nothing.
export const PERMITTED_TOOLS = ["Bash", "BashOutput", "KillBash", "KillShell", "Task", "Agent", "TaskOutput", "TaskStop", "SendMessage", "Read", "Write", "Edit", "Glob", "Grep", "LS"];

// As root, releases before 1.0.44 refuse --dangerously-skip-permissions whatever the environment says (later ones
// accept it with IS_SANDBOX=1); `--allowedTools` works as root on every release that has it (0.2.126 on).
export function choosePermissions(probe: Pick<BinaryProbe, "capabilities"> & Partial<Pick<BinaryProbe, "flags">>, isRoot: boolean, plan: PermissionPlan = "bypass"): PermissionChoice {
  if (plan !== "bypass") return planPermissions(probe.flags ?? [], plan);
  const skip = ["--dangerously-skip-permissions"];
  if (!isRoot) return { mode: "skip-permissions", args: skip, why: "not running as root" };
  if (probe.capabilities.includes("root-sandbox-escape")) return { mode: "skip-permissions", args: skip, why: "as root, with IS_SANDBOX=1 (the release allows that)" };
  if (probe.capabilities.includes("allowed-tools-flag")) {
    return { mode: "allowed-tools", args: ["--allowedTools", PERMITTED_TOOLS.join(",")], why: "the release refuses --dangerously-skip-permissions as root even with IS_SANDBOX=1" };
  }
  return { mode: "skip-permissions", args: skip, why: "the release has no --allowedTools; it will refuse to run as root" };
}

// A plan's own permissions: no skip flag (so the release asks its permission logic, hooks and rules), the mode as
// `--permission-mode` where the release has it. "default" needs no flag; another mode without one cannot be honoured.
function planPermissions(flags: string[], plan: Exclude<PermissionPlan, "bypass">): PermissionChoice {
  const rules = { mode: plan.mode, allow: plan.allow ?? [], deny: plan.deny ?? [] };
  const listed = `allow ${JSON.stringify(rules.allow)}, deny ${JSON.stringify(rules.deny)} in the settings`;
  if (flags.includes("--permission-mode")) return { mode: "permission-mode", args: ["--permission-mode", plan.mode], why: `the plan's mode ${plan.mode}, ${listed}`, rules };
  if (plan.mode === "default") return { mode: "permission-mode", args: [], why: `the plan's mode default (the release has no --permission-mode; default is its own), ${listed}`, rules };
  return { mode: "permission-mode", args: [], why: `the plan asks for mode ${plan.mode}`, rules, unavailable: `the plan asks for permission mode ${plan.mode}, but the release has no --permission-mode flag` };
}

// Where a run's settings come from, for every session: the setting sources (`--setting-sources`, where the release
// has it) and the `--settings` file (hooks declared with source "flag"), or null.
export interface SessionSettings {
  sources: SettingSource[];
  flagFile: string | null;
  // The `--mcp-config` file (the plan's MCP servers), when the plan has any.
  mcpConfig?: string;
}

export const DEFAULT_SESSION_SETTINGS: SessionSettings = { sources: ["user"], flagFile: null };

// The plan's setting sources and hook source, made into what sessions get. Project hooks need the project source:
// without setting sources in the plan it is added, and a plan that lists sources without it is refused (its hooks
// would never be read). The message is the problem, for a StepFailure; null when there is none.
export function chooseSessionSettings(
  run: RunLayout,
  probe: Pick<BinaryProbe, "flags">,
  plan: { settingSources?: SettingSource[]; hookSource?: HookSource },
): { settings: SessionSettings; problem: string | null } {
  const source = plan.hookSource ?? "user";
  const sources = plan.settingSources ?? (source === "project" ? ["user", "project"] : ["user"]);
  const settings: SessionSettings = { sources, flagFile: source === "flag" ? run.flagSettings : null };
  if (source === "project" && !sources.includes("project")) {
    return { settings, problem: `the hooks are declared in the project settings, but the plan's setting sources (${sources.join(", ")}) leave "project" out` };
  }
  if (source === "user" && !sources.includes("user") && probe.flags.includes("--setting-sources")) {
    return { settings, problem: `the hooks are declared in the user settings, but the plan's setting sources (${sources.join(", ") || "none"}) leave "user" out` };
  }
  if (source === "flag" && !probe.flags.includes("--settings")) {
    return { settings, problem: "the hooks are declared in a --settings file, but the release has no --settings flag" };
  }
  return { settings, problem: null };
}

// Flags every headless session gets; the scenario adds its own after these. Optional flags only where the release has them.
export function headlessArgs(debugFile: string, probe: Pick<BinaryProbe, "flags">, permissions: PermissionChoice, settings: SessionSettings = DEFAULT_SESSION_SETTINGS): string[] {
  return ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", ...interactiveArgs(debugFile, probe, permissions, settings)];
}

// Flags of a one-shot `claude -p` turn: plain-text prompt (argument or stdin), stream-json out (with --verbose, which it
// needs), or the text or json a report's command line used.
export function printArgs(
  debugFile: string,
  probe: Pick<BinaryProbe, "flags">,
  permissions: PermissionChoice,
  settings: SessionSettings = DEFAULT_SESSION_SETTINGS,
  output: PrintOutput = "stream-json",
): string[] {
  const format = output === "stream-json" ? ["--output-format", "stream-json", "--verbose"] : ["--output-format", output];
  return ["-p", ...format, ...interactiveArgs(debugFile, probe, permissions, settings)];
}

/** What a `claude -p` turn prints: stream-json lines (the default), one json result, or the answer as text. */
export type PrintOutput = "stream-json" | "json" | "text";

// Flags the interactive UI gets: the same model, permissions, settings and debug log as a headless session.
export function interactiveArgs(debugFile: string, probe: Pick<BinaryProbe, "flags">, permissions: PermissionChoice, settings: SessionSettings = DEFAULT_SESSION_SETTINGS): string[] {
  const supportedFlags = probe.flags;
  // 0.2.x has no --model and exits on an unknown option.
  const args = [...(supportedFlags.includes("--model") ? ["--model", "claude-sonnet-4-5"] : []), ...permissions.args];
  if (supportedFlags.includes("--setting-sources")) args.push("--setting-sources", settings.sources.join(","));
  // chooseSessionSettings refuses a flag file for a release without --settings, so this never drops one silently.
  if (settings.flagFile !== null) args.push("--settings", settings.flagFile);
  // A list option on some releases (`--mcp-config <configs...>`): an option follows it, never a prompt.
  if (settings.mcpConfig !== undefined) args.push("--mcp-config", settings.mcpConfig);
  if (supportedFlags.includes("--debug-file")) args.push("--debug-file", debugFile);
  return args;
}

// The Agent SDK's query() options for the same choices: the SDK passes them on as the CLI's flags.
export function sdkQueryOptions(permissions: PermissionChoice, settings: SessionSettings, debugFile: string): Record<string, unknown> {
  const mode = permissions.rules ? { permissionMode: permissions.rules.mode } : { permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true };
  return { ...mode, settingSources: settings.sources, ...(settings.flagFile === null ? {} : { settings: settings.flagFile }), debugFile };
}

// The global config files and `settings.json` in the config directory are written by ccrepro too: a fixture's JSON
// object is merged over ccrepro's, key by key at the top level, so the onboarding state and the harness's own
// settings stay unless the fixture names them (the kit checks each is a JSON object when the scenario loads).
export const MERGED_CONFIG_FILES: ReadonlySet<string> = new Set([...GLOBAL_CONFIG_FILES, "settings.json"]);

// Writes a scenario's files (kit: `files`) after seedConfig; paths stay inside their folder. Returns what it wrote.
export function seedFiles(run: RunLayout, files: SeedFiles): string[] {
  const written: string[] = [];
  const roots = { work: run.work, config: run.config, home: run.home } as const;
  for (const [where, entries] of Object.entries(files) as [keyof SeedFiles, Record<string, string>][]) {
    for (const [relative, content] of Object.entries(entries ?? {})) {
      const root = roots[where];
      const file = path.resolve(root, relative);
      if (path.isAbsolute(relative) || path.relative(root, file).startsWith("..")) throw new Error(`files.${where}: ${relative} leaves its folder`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (where === "config" && MERGED_CONFIG_FILES.has(relative) && fs.existsSync(file)) {
        const ours = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
        fs.writeFileSync(file, JSON.stringify({ ...ours, ...(JSON.parse(content) as Record<string, unknown>) }, null, 2));
      } else {
        fs.writeFileSync(file, content);
      }
      written.push(path.join(where, relative));
    }
  }
  return written;
}
