// A user's interactive session recorded through `ccrepro record --serve`, driven in a pseudo-terminal: the user's own
// project (outside git, a README and a CLAUDE.md) and config (past onboarding, trust and the key's approval), the
// recorder started with ccrepro's mock as its upstream, claude started with the ANTHROPIC_BASE_URL it printed, each
// prompt typed once the one before was answered, then the terminal closed and the recorder stopped with Ctrl-C.
// The record-import e2e test and the measurements in docs/record-and-import.md use it. As a command:
//   npx tsx scripts/record-ui-session.ts --claude 2.1.332 --out DIR [--scenario NAME] [--prompt TEXT]… [--quiet-ms N]
// writes DIR/rec/recording.json (import it with `ccrepro import DIR/rec --out my-bug.ts`).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { TerminalSession } from "../harness/terminal-session.ts";
import { promptReady } from "../harness/terminal-steps.ts";
import { runLayout, terminalFiles } from "../harness/run-layout.ts";
import { conversation } from "../kit/moves.ts";
import { bash, text } from "../kit/replies.ts";
import { mockScriptSchema, type MockScriptInput } from "../mock-api/script.ts";
import { startMockServer } from "../mock-api/server.ts";
import { resolveClaude } from "../releases/resolve.ts";
import { findScenario } from "../scenarios/index.ts";

const ROOT = path.join(import.meta.dirname, "..");
const MARKER = "UIREC_7Q";

/** Two prompts and a tool call: a Bash echo on the first, a text answer to each. */
export const TWO_PROMPTS = {
  script: conversation({ main: { marker: MARKER, replies: [bash("echo tool-ran", "say it"), text("first done")], then: text("second done") } }),
  prompts: [`${MARKER} run the command`, "and now the second question"],
};

export interface UiSessionOptions {
  version: string;
  // Where the recorder writes (`rec/`), and the upstream's log and the terminal's own files.
  outDir: string;
  script: MockScriptInput;
  prompts: readonly string[];
  // The user's credentials, as their environment holds them.
  env: { ANTHROPIC_API_KEY: string; CLAUDE_CODE_OAUTH_TOKEN?: string };
  // After a prompt: how long the upstream must have had nothing in flight before the next prompt is typed.
  quietMs?: number;
}

export interface UiSession {
  // The folder `record --out` wrote.
  recordingDir: string;
  // What `ccrepro record --serve` printed, and its exit code.
  printed: string;
  exitCode: number | null;
}

export async function recordUiSession(options: UiSessionOptions): Promise<UiSession> {
  const { outDir, env } = options;
  fs.mkdirSync(outDir, { recursive: true });
  const mock = await startMockServer({ script: mockScriptSchema.parse(options.script), logDir: path.join(outDir, "upstream") });
  // What the user waits for is on the wire: a new request since the prompt, none in flight, then a quiet spell.
  let requests = 0;
  let inFlight = 0;
  let lastEntry = Date.now();
  mock.log.onEntry((line) => {
    lastEntry = Date.now();
    if (line.kind === "request") {
      requests += 1;
      inFlight += 1;
    } else inFlight -= 1;
  });
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-ui-project-"));
  fs.writeFileSync(path.join(project, "README.md"), "# hello\n");
  fs.writeFileSync(path.join(project, "CLAUDE.md"), "# Rules\nAnswer in one word.\n");
  // The user's own config, as someone who ran claude before has it; theirs, not a recorded file.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-ui-home-"));
  fs.mkdirSync(path.join(home, ".claude"));
  const projects = { [fs.realpathSync(project)]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } };
  const state = { hasCompletedOnboarding: true, theme: "dark", numStartups: 5, customApiKeyResponses: { approved: [env.ANTHROPIC_API_KEY.slice(-20)], rejected: [] }, bypassPermissionsModeAccepted: true, hasAcknowledgedCostThreshold: true, projects };
  fs.writeFileSync(path.join(home, ".claude.json"), JSON.stringify(state));
  fs.writeFileSync(path.join(home, ".claude", "settings.json"), JSON.stringify({ skipDangerousModePermissionPrompt: true }));
  const userEnv: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8", TERM: "xterm-256color", IS_SANDBOX: "1", DISABLE_AUTOUPDATER: "1", ...env };
  const recordingDir = path.join(outDir, "rec");
  const recorder = spawn(process.execPath, [path.join(ROOT, "bin", "ccrepro.mjs"), "record", "--serve", "--upstream", mock.url, "--out", recordingDir], { cwd: project, env: userEnv, stdio: ["ignore", "pipe", "pipe"] });
  let printed = "";
  recorder.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  recorder.stderr.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => recorder.once("exit", resolve));
  let ui: TerminalSession | undefined;
  const screen = () => ui?.screen() ?? "";
  const until = async (what: string, holds: () => boolean, ms: number) => {
    for (const end = Date.now() + ms; !holds(); await new Promise((resolve) => setTimeout(resolve, 100))) {
      if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}; ccrepro record printed:\n${printed}\nthe screen:\n${screen()}`);
    }
  };
  try {
    await until("the ANTHROPIC_BASE_URL line", () => /ANTHROPIC_BASE_URL=\S+/.test(printed), 60_000);
    const baseUrl = /ANTHROPIC_BASE_URL=(\S+)/.exec(printed)![1]!;
    const claude = await resolveClaude(options.version);
    // The terminal's own files, laid out as a run's session's are (outDir stands in for a run directory).
    const files = terminalFiles(runLayout(outDir), "user");
    // The user starts claude themselves, with the line ccrepro record printed.
    const started = new TerminalSession({ label: "user", command: claude.command, args: [...claude.args, "--dangerously-skip-permissions"], env: { ...userEnv, ANTHROPIC_BASE_URL: baseUrl }, cwd: project, cols: 120, rows: 40, files, onChange: () => undefined });
    ui = started;
    await until("the prompt", () => promptReady(screen()), 60_000);
    for (const prompt of options.prompts) {
      const before = requests;
      started.paste(prompt);
      // Enter once the text shows and the UI is done redrawing: a cli.js UI still busy with the paste drops it.
      await until(`the typed text "${prompt}" on the screen`, () => screen().replace(/\s+/g, " ").includes(prompt.slice(-20)), 15_000);
      await started.quiet(500, 3_000);
      started.write("\r");
      await until(`the answer to "${prompt}"`, () => requests > before && inFlight === 0 && Date.now() - lastEntry >= (options.quietMs ?? 2_000), 120_000);
    }
  } finally {
    // The user closes the terminal, then stops the recorder with Ctrl-C.
    ui?.signal("SIGTERM");
    if (ui) await Promise.race([ui.exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    ui?.signal("SIGKILL");
    recorder.kill("SIGINT");
    await exited;
    await mock.close();
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
  return { recordingDir, printed, exitCode: await exited };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { claude: { type: "string" }, out: { type: "string" }, scenario: { type: "string" }, prompt: { type: "string", multiple: true }, "quiet-ms": { type: "string" } } });
  if (!values.claude || !values.out) throw new Error("usage: npx tsx scripts/record-ui-session.ts --claude VERSION --out DIR [--scenario NAME] [--prompt TEXT]… [--quiet-ms N]");
  const scenario = values.scenario ? findScenario(values.scenario) : undefined;
  if (values.scenario && !scenario) throw new Error(`no built-in scenario ${values.scenario}: ccrepro scenarios lists them`);
  const script = scenario ? scenario.mockScript(scenario.params.parse({})) : TWO_PROMPTS.script;
  // A Console key's shape, as a user's is (claude reads its kind); the mock accepts any value.
  const session = await recordUiSession({
    version: values.claude,
    outDir: path.resolve(values.out),
    script,
    prompts: values.prompt ?? TWO_PROMPTS.prompts,
    env: { ANTHROPIC_API_KEY: `sk-ant-api03-${"0".repeat(24)}` },
    ...(values["quiet-ms"] ? { quietMs: Number(values["quiet-ms"]) } : {}),
  });
  process.stdout.write(session.printed);
  process.exit(session.exitCode ?? 1);
}
