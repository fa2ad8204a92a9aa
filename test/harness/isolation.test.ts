// The isolated world: an allow-listed environment, a seeded config, and a hook recorder that keeps payloads byte-exact.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { hookSettings } from "../../harness/hook-capture.ts";
import { ownerToken, RUN_OWNER_VAR } from "../../harness/processes.ts";
import { buildEnvironment, seedFiles, FAKE_API_KEY, choosePermissions, headlessArgs, RUN_MARKER_VAR, seedConfig } from "../../harness/isolation.ts";
import { hookIndexSchema, loadHooks } from "../../harness/recordings.ts";
import { runLayout } from "../../harness/run-layout.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-isolation-"));
const RECORDER = path.resolve(import.meta.dirname, "../../harness/hook-recorder.sh");

// Exactly what the binary may see; the caller's environment contributes nothing unless passed through by name.
const ALLOWED = [
  "HOME",
  "CLAUDE_CONFIG_DIR",
  "TMPDIR",
  "CLAUDE_CODE_TMPDIR",
  "PATH",
  "SHELL",
  "LANG",
  "TERM",
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_API_KEY",
  "DISABLE_AUTOUPDATER",
  "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
  "DISABLE_TELEMETRY",
  "DISABLE_ERROR_REPORTING",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "NO_PROXY",
  "no_proxy",
  RUN_MARKER_VAR,
  // Whose run it is (this process): what tells a dead run's processes from a live one's.
  RUN_OWNER_VAR,
];

const options = { runId: "run-1", mockUrl: "http://127.0.0.1:1111", trapUrl: "http://127.0.0.1:2222" };
const saved = { ...process.env };

afterEach(() => {
  vi.restoreAllMocks();
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

// A caller environment full of things that must not reach the binary, including names the isolation itself sets.
function pollute(): string {
  const sentinel = `sentinel-${crypto.randomBytes(8).toString("hex")}`;
  Object.assign(process.env, {
    ANTHROPIC_API_KEY: sentinel,
    ANTHROPIC_AUTH_TOKEN: sentinel,
    CLAUDE_CODE_OAUTH_TOKEN: sentinel,
    [`CCREPRO_SENTINEL_${sentinel.slice(-6)}`]: sentinel,
    HOME: `/home/${sentinel}`,
    PATH: `/opt/${sentinel}/bin:/usr/bin`,
    HTTPS_PROXY: `http://${sentinel}:3128`,
    NODE_OPTIONS: `--require /tmp/${sentinel}.js`,
    [RUN_MARKER_VAR]: sentinel,
    NO_PROXY: sentinel,
  });
  return sentinel;
}

describe("buildEnvironment", () => {
  it("holds only allow-listed names, and no value from the caller's environment", () => {
    const sentinel = pollute();
    vi.spyOn(process, "getuid").mockReturnValue(1000);
    const run = runLayout(path.join(root, "run"));
    const env = buildEnvironment(run, options);
    expect(Object.keys(env).sort()).toEqual([...ALLOWED].sort());
    expect(JSON.stringify(env)).not.toContain(sentinel);
    expect(env).toMatchObject({
      HOME: run.home,
      CLAUDE_CONFIG_DIR: run.config,
      TMPDIR: run.tmp,
      ANTHROPIC_BASE_URL: options.mockUrl,
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      HTTPS_PROXY: options.trapUrl,
      all_proxy: options.trapUrl,
      NO_PROXY: "127.0.0.1,localhost",
      [RUN_MARKER_VAR]: "run-1",
      [RUN_OWNER_VAR]: ownerToken(),
    });
    expect(env.PATH!.split(":")).toEqual([path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"]);
  });

  it("applies a scenario's env last: a string sets a variable (over ccrepro's own), null unsets it", () => {
    const run = runLayout(path.join(root, "run"));
    const env = buildEnvironment(run, { ...options, scenarioEnv: { CCREPRO_PROBE: "on", DISABLE_TELEMETRY: null, LANG: "de_DE.UTF-8" } });
    expect(env.CCREPRO_PROBE).toBe("on");
    expect("DISABLE_TELEMETRY" in env).toBe(false);
    expect(env.LANG).toBe("de_DE.UTF-8");
    expect(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC).toBe("1");
  });

  it("seeds a scenario's files after ccrepro's config, merging settings.json and .claude.json over its own at the top level", () => {
    const run = runLayout(path.join(root, `seed-${Date.now()}`));
    seedConfig(run, undefined);
    const written = seedFiles(run, { work: { "a/b.md": "b" }, config: { "settings.json": JSON.stringify({ env: { X: "1" } }), ".claude.json": JSON.stringify({ theme: "light" }), "agents/r.md": "r" }, home: { ".x": "x" } });
    expect(written).toEqual(["work/a/b.md", "config/settings.json", "config/.claude.json", "config/agents/r.md", "home/.x"]);
    expect(fs.readFileSync(path.join(run.work, "a", "b.md"), "utf8")).toBe("b");
    expect(JSON.parse(fs.readFileSync(path.join(run.config, "settings.json"), "utf8"))).toEqual({ skipDangerousModePermissionPrompt: true, env: { X: "1" } });
    const state = JSON.parse(fs.readFileSync(path.join(run.config, ".claude.json"), "utf8")) as Record<string, unknown>;
    expect(state).toMatchObject({ theme: "light", hasCompletedOnboarding: true });
    expect(() => seedFiles(run, { work: { "../escape": "x" } })).toThrow(/leaves its folder/);
  });

  it("sets IS_SANDBOX only when running as root", () => {
    const run = runLayout(path.join(root, "run"));
    vi.spyOn(process, "getuid").mockReturnValue(0);
    expect(buildEnvironment(run, options).IS_SANDBOX).toBe("1");
    vi.spyOn(process, "getuid").mockReturnValue(1000);
    expect("IS_SANDBOX" in buildEnvironment(run, options)).toBe(false);
  });

  it("passes through only the names a scenario asks for, and only when the caller has them", () => {
    const sentinel = pollute();
    process.env.CCREPRO_WANTED = "wanted-value";
    vi.spyOn(process, "getuid").mockReturnValue(1000);
    const env = buildEnvironment(runLayout(path.join(root, "run")), { ...options, passThrough: ["CCREPRO_WANTED", "CCREPRO_ABSENT"] });
    expect(env.CCREPRO_WANTED).toBe("wanted-value");
    expect("CCREPRO_ABSENT" in env).toBe(false);
    expect(Object.keys(env).sort()).toEqual([...ALLOWED, "CCREPRO_WANTED"].sort());
    expect(JSON.stringify(env)).not.toContain(sentinel);
  });

  it("is all a spawned program sees", async () => {
    const sentinel = pollute();
    const env = buildEnvironment(runLayout(path.join(root, "run")), options);
    const seen = await execa("/usr/bin/env", [], { env, extendEnv: false });
    const names = seen.stdout.split("\n").map((line) => line.slice(0, line.indexOf("=")));
    expect(names.sort()).toEqual(Object.keys(env).filter((name) => name !== "_").sort());
    expect(seen.stdout).not.toContain(sentinel);
  });
});

describe("seedConfig and headlessArgs", () => {
  it("seeds the config file each release reads, and the UI's key where a release's UI reads it from the config alone", () => {
    const keyOf = (version: string) => {
      const run = runLayout(path.join(root, `key-${version}`));
      seedConfig(run, undefined, { source: "user" }, true, { version, apiKey: "sk-ant-kind-key" });
      const read = (name: string) => JSON.parse(fs.readFileSync(path.join(run.config, name), "utf8")) as Record<string, unknown>;
      const [current, legacy] = [read(".claude.json"), read("config.json")];
      // Up to 1.0.4 a set CLAUDE_CONFIG_DIR means config.json; the same onboarding and trust state goes into both.
      expect(legacy).toEqual(current);
      expect(current).toMatchObject({ hasCompletedOnboarding: true });
      return current["primaryApiKey"];
    };
    expect(keyOf("1.0.4")).toBe("sk-ant-kind-key");
    expect(keyOf("1.0.5")).toBe("sk-ant-kind-key");
    expect(keyOf("1.0.8")).toBeUndefined();
    expect(keyOf("2.1.332")).toBeUndefined();
    expect(keyOf("local")).toBeUndefined();
    // A scenario that unset ANTHROPIC_API_KEY gets no key in the config either.
    const unset = runLayout(path.join(root, "key-unset"));
    seedConfig(unset, undefined, { source: "user" }, true, { version: "1.0.4" });
    expect(JSON.parse(fs.readFileSync(path.join(unset.config, "config.json"), "utf8"))).not.toHaveProperty("primaryApiKey");
  });

  it("seeds trust for the work directory, skips the dangerous-mode prompt, and registers hooks only when given", () => {
    const run = runLayout(path.join(root, "seeded"));
    seedConfig(run, undefined);
    const state = JSON.parse(fs.readFileSync(path.join(run.config, ".claude.json"), "utf8"));
    expect(state.projects[run.work]).toMatchObject({ hasTrustDialogAccepted: true });
    expect(FAKE_API_KEY.endsWith(state.customApiKeyResponses.approved[0])).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(run.config, "settings.json"), "utf8"))).toEqual({ skipDangerousModePermissionPrompt: true });
    for (const dir of [run.home, run.config, run.tmp, run.work]) expect(fs.statSync(dir).isDirectory()).toBe(true);
    seedConfig(run, hookSettings(run, ["Stop"]));
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(run.config, "settings.json"), "utf8")).hooks)).toEqual(["Stop"]);
  });

  it("seeds trust for the work directory's real path when the runs folder is a link (claude keys a project by it)", () => {
    const real = path.join(root, "real-runs");
    fs.mkdirSync(real, { recursive: true });
    const linked = path.join(root, "linked-runs");
    fs.symlinkSync(real, linked);
    const run = runLayout(path.join(linked, "a-run"));
    seedConfig(run, undefined);
    const state = JSON.parse(fs.readFileSync(path.join(run.config, ".claude.json"), "utf8"));
    expect(Object.keys(state.projects)).toEqual([path.join(fs.realpathSync(real), "a-run", path.relative(run.root, run.work))]);
  });

  it("makes the work directory a repository of its own, so the checkout around the run directory is not in the prompt", async () => {
    const checkout = path.join(root, "someone-s-checkout");
    fs.mkdirSync(checkout, { recursive: true });
    await execa("git", ["init", "--quiet", checkout]);
    const run = runLayout(path.join(checkout, "runs", "one"));
    seedConfig(run, undefined);
    const top = await execa("git", ["rev-parse", "--show-toplevel"], { cwd: run.work });
    expect(fs.realpathSync(top.stdout)).toBe(fs.realpathSync(run.work));
    const status = await execa("git", ["status", "--porcelain"], { cwd: run.work });
    expect(status.stdout).toBe("");
  });

  it("writes a repository git answers in exactly as in one `git init --initial-branch=main` made", async () => {
    const made = path.join(root, "made-by-git-init");
    // Without the developer's own git configuration (a global init.templateDir or ref format would make the two
    // differ for no reason of ccrepro's); closer to what claude sees, too.
    const env = { HOME: root, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", PATH: process.env.PATH ?? "/usr/bin:/bin" };
    await execa("git", ["init", "--quiet", "--initial-branch=main", made], { env, extendEnv: false });
    const run = runLayout(path.join(root, "hand-made", "run"));
    seedConfig(run, undefined);
    // What claude asks git for its prompt's git status, and what a Bash tool call would see.
    const asks = [["status"], ["status", "--porcelain=v2", "--branch"], ["branch", "--show-current"], ["rev-parse", "--abbrev-ref", "HEAD"], ["log", "--oneline", "-n", "5"], ["rev-parse", "--is-inside-work-tree"], ["config", "--list", "--local"]];
    const answers = (cwd: string) => Promise.all(asks.map(async (args) => { const r = await execa("git", args, { cwd, reject: false, env, extendEnv: false }); return `${args.join(" ")} → ${r.exitCode}: ${r.stdout} ${r.stderr}`; }));
    expect(await answers(run.work)).toEqual(await answers(made));
  });

  const skip = choosePermissions({ capabilities: [] }, false);

  it("adds --model, --setting-sources and --debug-file only where the release has them", () => {
    const base = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
    expect(headlessArgs("/d.log", { flags: [] }, skip)).toEqual([...base, "--dangerously-skip-permissions"]);
    expect(headlessArgs("/d.log", { flags: ["--model", "--setting-sources", "--debug-file"] }, skip)).toEqual([
      ...base,
      "--model",
      "claude-sonnet-4-5",
      "--dangerously-skip-permissions",
      "--setting-sources",
      "user",
      "--debug-file",
      "/d.log",
    ]);
  });

  // Measured as root with IS_SANDBOX=1: 0.2.126, 1.0.0, 1.0.21 exit 1 "cannot be used with root/sudo privileges";
  // 1.0.72 and later run; `--allowedTools Bash` let Bash run on every release from 0.2.126 to 2.1.281.
  it("as root, swaps the skip flag for --allowedTools where the release has no IS_SANDBOX escape", () => {
    expect(choosePermissions({ capabilities: ["root-sandbox-escape", "allowed-tools-flag"] }, true).args).toEqual(["--dangerously-skip-permissions"]);
    const old = choosePermissions({ capabilities: ["allowed-tools-flag"] }, true);
    expect(old.mode).toBe("allowed-tools");
    expect(old.args[0]).toBe("--allowedTools");
    expect(old.args[1]!.split(",")).toContain("Bash");
    expect(choosePermissions({ capabilities: ["allowed-tools-flag"] }, false).mode).toBe("skip-permissions");
  });
});

describe("hook recorder", () => {
  // Unicode, newlines (LF and CRLF), quotes, backslashes, a NUL-free invalid UTF-8 byte, and no trailing newline.
  const payload = Buffer.concat([
    Buffer.from('{"hook_event_name":"UserPromptSubmit","prompt":"héllo — 日本語 🚀\\n\\"quoted\\" back\\\\slash"}\n{second line}\r\nend', "utf8"),
    Buffer.from([0xff, 0xfe]),
    Buffer.from(" tail", "utf8"),
  ]);

  function recorderRun(name: string) {
    const run = runLayout(path.join(root, name));
    fs.mkdirSync(run.hooksDir, { recursive: true });
    return run;
  }

  it("keeps the payload byte-exact in its own file and appends one index line", async () => {
    const run = recorderRun("hooks-direct");
    const before = Date.now();
    const result = await execa("/bin/bash", [RECORDER, "UserPromptSubmit", run.hooksDir, run.hooksLog], { input: payload, extendEnv: false, env: {} });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("");
    const lines = fs.readFileSync(run.hooksLog, "utf8").split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("");
    const entry = hookIndexSchema.parse(JSON.parse(lines[0]!));
    expect(entry.event).toBe("UserPromptSubmit");
    expect(entry.t).toBeGreaterThanOrEqual(before - 1);
    expect(entry.t).toBeLessThanOrEqual(Date.now() + 1);
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    expect(entry.payloadFile).toMatch(/^hooks\/\d+-\d+-UserPromptSubmit\.json$/);
    expect(fs.readFileSync(path.join(run.root, entry.payloadFile)).equals(payload)).toBe(true);
    expect(fs.readdirSync(run.hooksDir)).toHaveLength(1);
  });

  it("keeps every call of a burst of concurrent hooks, each index line whole", async () => {
    const run = recorderRun("hooks-burst");
    const payloads = Array.from({ length: 24 }, (_, i) => Buffer.from(`{"i":${i},"text":"${"ü".repeat(i * 50)}"}`));
    await Promise.all(payloads.map((input, i) => execa("/bin/bash", [RECORDER, i % 2 ? "PreToolUse" : "PostToolUse", run.hooksDir, run.hooksLog], { input })));
    const hooks = loadHooks(run.root);
    expect(hooks).toHaveLength(24);
    expect(hooks.map((h) => (h.payload as { i: number }).i).sort((a, b) => a - b)).toEqual(payloads.map((_, i) => i));
    for (const hook of hooks) expect(hook.raw).toBe(payloads[(hook.payload as { i: number }).i]!.toString());
  });

  it("never fails the hook, even when it cannot write", async () => {
    const missing = path.join(root, "no-such-dir");
    const result = await execa("/bin/bash", [RECORDER, "Stop", missing, path.join(missing, "hooks.jsonl")], { input: "{}", reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
  });

  it("runs from the command hookSettings registers, through a shell, with quotes and spaces in the run path", async () => {
    const run = recorderRun("it's a run dir");
    const settings = hookSettings(run, ["PreToolUse", "Stop"]) as Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
    expect(settings.PreToolUse![0]!.matcher).toBe("*");
    expect(settings.Stop![0]!.matcher).toBeUndefined();
    await execa("/bin/sh", ["-c", settings.Stop![0]!.hooks[0]!.command], { input: payload });
    const [hook] = loadHooks(run.root);
    expect(hook?.event).toBe("Stop");
    const [file] = fs.readdirSync(run.hooksDir);
    expect(fs.readFileSync(path.join(run.hooksDir, file!)).equals(payload)).toBe(true);
  });
});
