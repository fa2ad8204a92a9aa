// The isolated world a run hands to the binary: its own directories, a pre-seeded config, an allow-listed environment.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { QUIET_ENV } from "../releases/binary-info.ts";
import type { BinaryProbe } from "../releases/capabilities.ts";
import type { RunLayout } from "./run-layout.ts";

// Harmless by construction: the mock accepts any key, and the value marks where a leak would have come from.
export const FAKE_API_KEY = "sk-ant-ccrepro-fake-key-0000";
// Every process of a run inherits this variable; the reaper finds escaped processes by it.
export const RUN_MARKER_VAR = "CCREPRO_RUN_ID";

export interface IsolationOptions {
  runId: string;
  mockUrl: string;
  // http://127.0.0.1:PORT of the outbound trap; every proxy variable points there.
  trapUrl: string;
  // Variables the scenario names in `passEnv`, passed from the caller's environment by name.
  passThrough?: string[];
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
  };
  // Running as root, the binary refuses --dangerously-skip-permissions unless it is told it is sandboxed.
  if (process.getuid?.() === 0) env.IS_SANDBOX = "1";
  for (const name of options.passThrough ?? []) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

// Config state that lets both `-p` and the interactive UI start without onboarding, trust or key dialogs.
export function seedConfig(run: RunLayout, hooks: Record<string, unknown> | undefined): void {
  for (const dir of [run.home, run.config, run.tmp, run.work]) fs.mkdirSync(dir, { recursive: true });
  ownRepository(run.work);
  const state = {
    hasCompletedOnboarding: true,
    theme: "dark",
    numStartups: 5,
    customApiKeyResponses: { approved: [FAKE_API_KEY.slice(-20)], rejected: [] },
    bypassPermissionsModeAccepted: true,
    hasAcknowledgedCostThreshold: true,
    projects: {
      [run.work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] },
    },
  };
  fs.writeFileSync(path.join(run.config, ".claude.json"), JSON.stringify(state, null, 2));
  const settings: Record<string, unknown> = { skipDangerousModePermissionPrompt: true };
  if (hooks) settings.hooks = hooks;
  fs.writeFileSync(path.join(run.config, "settings.json"), JSON.stringify(settings, null, 2));
}

// claude puts the git status of its working directory into the system prompt. A run directory usually sits inside
// someone's checkout (runs/ in this one), whose branch, changes and commits would then reach the requests: they differ
// from run to run, and a packed run would carry them. An empty repository of its own stops git's search upwards.
function ownRepository(work: string): void {
  try {
    execFileSync("git", ["init", "--quiet", "--initial-branch=main", work], { stdio: "ignore", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  } catch {
    // No git on this machine: claude cannot read a checkout's status either.
  }
}

// How a run grants the binary its tools without a permission prompt, and why that way.
export interface PermissionChoice {
  mode: "skip-permissions" | "allowed-tools";
  args: string[];
  why: string;
}

// Every tool a scenario's replies call, under each release's name for it (Task became Agent; KillBash became
// KillShell). A name a release does not have is a rule that matches nothing.
export const PERMITTED_TOOLS = ["Bash", "BashOutput", "KillBash", "KillShell", "Task", "Agent", "TaskOutput", "TaskStop", "SendMessage", "Read", "Write", "Edit", "Glob", "Grep", "LS"];

// As root, releases before 1.0.44 refuse --dangerously-skip-permissions whatever the environment says (later ones
// accept it with IS_SANDBOX=1); `--allowedTools` works as root on every release that has it (0.2.126 on).
export function choosePermissions(probe: Pick<BinaryProbe, "capabilities">, isRoot: boolean): PermissionChoice {
  const skip = ["--dangerously-skip-permissions"];
  if (!isRoot) return { mode: "skip-permissions", args: skip, why: "not running as root" };
  if (probe.capabilities.includes("root-sandbox-escape")) return { mode: "skip-permissions", args: skip, why: "as root, with IS_SANDBOX=1 (the release allows that)" };
  if (probe.capabilities.includes("allowed-tools-flag")) {
    return { mode: "allowed-tools", args: ["--allowedTools", PERMITTED_TOOLS.join(",")], why: "the release refuses --dangerously-skip-permissions as root even with IS_SANDBOX=1" };
  }
  return { mode: "skip-permissions", args: skip, why: "the release has no --allowedTools; it will refuse to run as root" };
}

// Flags every headless session gets; the scenario adds its own after these. Optional flags only where the release has them.
export function headlessArgs(debugFile: string, probe: Pick<BinaryProbe, "flags">, permissions: PermissionChoice): string[] {
  return ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", ...interactiveArgs(debugFile, probe, permissions)];
}

// Flags of a one-shot `claude -p` turn: plain-text prompt (argument or stdin), stream-json out.
export function printArgs(debugFile: string, probe: Pick<BinaryProbe, "flags">, permissions: PermissionChoice): string[] {
  return ["-p", "--output-format", "stream-json", "--verbose", ...interactiveArgs(debugFile, probe, permissions)];
}

// Flags the interactive UI gets: the same model, permissions, settings and debug log as a headless session.
export function interactiveArgs(debugFile: string, probe: Pick<BinaryProbe, "flags">, permissions: PermissionChoice): string[] {
  const supportedFlags = probe.flags;
  // 0.2.x has no --model and exits on an unknown option.
  const args = [...(supportedFlags.includes("--model") ? ["--model", "claude-sonnet-4-5"] : []), ...permissions.args];
  if (supportedFlags.includes("--setting-sources")) args.push("--setting-sources", "user");
  if (supportedFlags.includes("--debug-file")) args.push("--debug-file", debugFile);
  return args;
}
