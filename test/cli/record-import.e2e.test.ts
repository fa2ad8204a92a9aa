// Record → import → replay on a real release (2.1.332), the upstream being ccrepro's own mock: a built-in scenario
// recorded through the proxy, imported, replayed with every request equal to its recorded one after normalisation;
// a plain `ccrepro record -- claude -p …` in a project outside git, with a sentinel key and token in the
// environment, imported from its folder and replayed GREEN: no byte of either reaches disk, nor a `ccrepro pack`;
// and an interactive session the user starts against `ccrepro record --serve`, two prompts and a tool call, imported
// as a terminal scenario that types them and replayed GREEN, with no byte of either sentinel on disk.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRecording } from "../../mock-api/recording.ts";
import { mockScriptSchema } from "../../mock-api/script.ts";
import { startMockServer } from "../../mock-api/server.ts";
import { runAndCheck } from "../../pipeline/run-scenario.ts";
import { loadScenario } from "../../pipeline/scenario-source.ts";
import { resolveClaude } from "../../releases/resolve.ts";
import { packRun } from "../../report/pack.ts";
import { findScenario } from "../../scenarios/index.ts";
import { recordUiSession, TWO_PROMPTS } from "../../scripts/record-ui-session.ts";
import { E2E_RUNS_DIR, E2E_TIMEOUT_MS, verdictMessage } from "../e2e-run.ts";

const VERSION = "2.1.332";
const KEY = "sk-ant-api03-SENTINELKEY-e2e-0123456789abcdef";
const TOKEN = "sk-ant-oat01-SENTINELTOKEN-e2e-fedcba9876543210";
const ROOT = path.join(import.meta.dirname, "..", "..");
const OUT = path.join(ROOT, "test-output", "record-import");

// Every file under these paths, searched byte for byte for either sentinel.
function filesHolding(needles: string[], ...roots: string[]): string[] {
  const hits: string[] = [];
  const visit = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    else if (stat.isFile() && needles.some((n) => fs.readFileSync(p).includes(n))) hits.push(p);
  };
  for (const root of roots) if (fs.existsSync(root)) visit(root);
  return hits;
}

const saved = { key: process.env.ANTHROPIC_API_KEY, token: process.env.CLAUDE_CODE_OAUTH_TOKEN };
beforeAll(() => {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  process.env.ANTHROPIC_API_KEY = KEY;
  process.env.CLAUDE_CODE_OAUTH_TOKEN = TOKEN;
});
afterAll(() => {
  for (const [name, value] of [["ANTHROPIC_API_KEY", saved.key], ["CLAUDE_CODE_OAUTH_TOKEN", saved.token]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe(`record, import and replay on ${VERSION}`, () => {
  let recordedRun = "";
  it(
    "replays a recorded built-in scenario with every request equal to its recorded one, and no sentinel byte anywhere",
    async () => {
      const recordingFile = path.join(OUT, "cache", "recording.json");
      const scenario = findScenario("print-resume-cache-reuse")!;
      const claude = await resolveClaude(VERSION);
      const recorded = await runAndCheck({ scenario, params: scenario.params.parse({}), claude, requested: VERSION, runsDir: E2E_RUNS_DIR, recordApi: recordingFile });
      expect(recorded.record.result.verdict, verdictMessage(recorded)).toBe("GREEN");
      recordedRun = recorded.runDir;
      expect(readRecording(recordingFile).exchanges.filter((e) => e.label === "messages")).toHaveLength(4);

      const scenarioFile = path.join(OUT, "cache", "cache-replay.ts");
      await promisify(execFile)(process.execPath, [path.join(ROOT, "bin", "ccrepro.mjs"), "import", recordingFile, "--out", scenarioFile]);
      const replay = await runAndCheck({ scenario: await loadScenario(scenarioFile), params: {}, claude, requested: VERSION, runsDir: E2E_RUNS_DIR });
      expect(replay.record.result.verdict, verdictMessage(replay)).toBe("GREEN");
      expect(replay.record.result.notes[0]).toBe("replay fidelity: 4 of 4 replayed requests equal their recorded ones after normalisation; 4 of 4 recorded requests replayed");
      expect(filesHolding([KEY, TOKEN], path.dirname(scenarioFile), recorded.runDir, replay.runDir)).toEqual([]);
      // And not in the tarball a bug report attaches: tar keeps file contents as they are, so the unzipped bytes
      // hold a sentinel if any packed file does. The packed replay still judges as recorded.
      for (const run of [recorded.runDir, replay.runDir]) {
        const packed = await packRun(run, path.join(OUT, "packs", `${path.basename(run)}.tar.gz`));
        expect(packed.judgedSame, packed.rejudged.reason).toBe(true);
        const tar = zlib.gunzipSync(fs.readFileSync(packed.file));
        expect(packed.files).toBeGreaterThan(5);
        for (const sentinel of [KEY, TOKEN]) expect(tar.includes(sentinel), `${packed.file} holds a sentinel`).toBe(false);
      }
    },
    E2E_TIMEOUT_MS,
  );

  it(
    "imports the recorded run's own transcript and replays it on the same release",
    async () => {
      const transcripts = path.join(recordedRun, "transcripts");
      const [dir] = fs.readdirSync(transcripts);
      const [file] = fs.readdirSync(path.join(transcripts, dir!));
      const scenarioFile = path.join(OUT, "transcript", "transcript-replay.ts");
      await promisify(execFile)(process.execPath, [path.join(ROOT, "bin", "ccrepro.mjs"), "import", path.join(transcripts, dir!, file!), "--out", scenarioFile]);
      const replay = await runAndCheck({ scenario: await loadScenario(scenarioFile), params: {}, claude: await resolveClaude(VERSION), requested: VERSION, runsDir: E2E_RUNS_DIR });
      expect(replay.record.result.verdict, verdictMessage(replay)).toBe("GREEN");
      expect(replay.record.result.notes[0]).toBe("transcript replay: 4 requests for 4 assistant turns");
    },
    E2E_TIMEOUT_MS,
  );

  it(
    "ccrepro record -- claude -p in a project outside git, imported from its folder, replays GREEN with no edit; no sentinel byte anywhere",
    async () => {
      const mock = await startMockServer({ script: mockScriptSchema.parse({ fallback: { content: [{ type: "text", text: "pong" }] } }), logDir: path.join(OUT, "mock") });
      // A user's project: outside every git repository (this checkout is one), with a README and its own CLAUDE.md.
      const project = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-e2e-project-"));
      fs.writeFileSync(path.join(project, "README.md"), "# hello\n");
      fs.writeFileSync(path.join(project, "CLAUDE.md"), "# Rules\nAnswer in one word.\n");
      const home = path.join(OUT, "home");
      fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
      const claude = await resolveClaude(VERSION);
      const outDir = path.join(OUT, "cli");
      try {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [path.join(ROOT, "bin", "ccrepro.mjs"), "record", "--upstream", mock.url, "--out", outDir, "--", claude.executablePath, "-p", "say pong"],
          { cwd: project, env: { PATH: process.env.PATH, HOME: home, IS_SANDBOX: "1", ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_OAUTH_TOKEN: TOKEN, DISABLE_AUTOUPDATER: "1" }, timeout: 90_000 },
        );
        expect(stdout).toContain("pong");
      } finally {
        await mock.close();
        fs.rmSync(project, { recursive: true, force: true });
      }
      const recording = readRecording(path.join(outDir, "recording.json"));
      const main = recording.exchanges.filter((e) => e.label === "messages");
      expect(main.length).toBeGreaterThan(0);
      // The key did reach the proxy: it was replaced, not absent.
      expect(main.some((e) => e.request.headers["x-api-key"] === "[redacted]" || e.request.headers.authorization === "[redacted]")).toBe(true);
      expect(recording.processes[0]!.env).toMatchObject({ ANTHROPIC_API_KEY: "[redacted]", CLAUDE_CODE_OAUTH_TOKEN: "[redacted]" });

      // The folder record --out wrote, imported as it is; the file is run as written.
      const scenarioFile = path.join(OUT, "plain", "plain-replay.ts");
      const imported = await promisify(execFile)(process.execPath, [path.join(ROOT, "bin", "ccrepro.mjs"), "import", outDir, "--out", scenarioFile]);
      expect(imported.stderr).toContain("not reproduced: ANTHROPIC_API_KEY");
      const text = fs.readFileSync(scenarioFile, "utf8");
      expect(text).toContain("gitRepository: false,");
      expect(text).toContain(`files: { work: {"CLAUDE.md":"# Rules\\nAnswer in one word.\\n"} },`);
      const replay = await runAndCheck({ scenario: await loadScenario(scenarioFile), params: {}, claude, requested: VERSION, runsDir: E2E_RUNS_DIR });
      expect(replay.record.result.verdict, verdictMessage(replay)).toBe("GREEN");
      expect(replay.record.result.notes[0]).toBe(`replay fidelity: ${main.length} of ${main.length} replayed requests equal their recorded ones after normalisation; ${main.length} of ${main.length} recorded requests replayed`);
      expect(filesHolding([KEY, TOKEN], outDir, path.dirname(scenarioFile), replay.runDir)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    "an interactive session through ccrepro record --serve, two prompts and a tool call, imported as typed prompts, replays GREEN; no sentinel byte anywhere",
    async () => {
      const session = await recordUiSession({ version: VERSION, outDir: path.join(OUT, "ui-session"), ...TWO_PROMPTS, env: { ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_OAUTH_TOKEN: TOKEN } });
      expect(session.exitCode, session.printed).toBe(0);
      const outDir = session.recordingDir;
      const recording = readRecording(path.join(outDir, "recording.json"));
      expect(recording.command).toBeNull();
      expect(recording.processes[0]!.keyKinds).toEqual({ ANTHROPIC_API_KEY: "api", CLAUDE_CODE_OAUTH_TOKEN: "oat" });
      const replayable = recording.exchanges.filter((e) => e.request.path.endsWith("/v1/messages") && e.response !== null);
      expect(replayable.filter((e) => e.label === "messages")).toHaveLength(3);

      const scenarioFile = path.join(OUT, "ui", "ui-replay.ts");
      const imported = await promisify(execFile)(process.execPath, [path.join(ROOT, "bin", "ccrepro.mjs"), "import", outDir, "--out", scenarioFile]);
      expect(imported.stderr).toContain("not reproduced: ANTHROPIC_API_KEY (a credential: the replay runs with ccrepro's fake key, of the recorded kind sk-ant-api…)");
      const written = fs.readFileSync(scenarioFile, "utf8");
      expect(written).toContain(`terminal(s1, {`);
      for (const prompt of TWO_PROMPTS.prompts) expect(written).toContain(`type(s1, ${JSON.stringify(prompt)}),`);
      const replay = await runAndCheck({ scenario: await loadScenario(scenarioFile), params: {}, claude: await resolveClaude(VERSION), requested: VERSION, runsDir: E2E_RUNS_DIR });
      expect(replay.record.result.verdict, verdictMessage(replay)).toBe("GREEN");
      const n = replayable.length;
      expect(replay.record.result.notes[0]).toBe(`replay fidelity: ${n} of ${n} replayed requests equal their recorded ones after normalisation; ${n} of ${n} recorded requests replayed`);
      expect(replay.record.result.notes.find((note) => note.startsWith("recorded requests replayed by stream:"))).toMatch(/\bmain 3 of 3\b/);
      expect(filesHolding([KEY, TOKEN], path.join(OUT, "ui-session"), path.dirname(scenarioFile), replay.runDir)).toEqual([]);
      // Nor in the replay's pack, which judges as recorded from its own files (the recording copy among them).
      const packed = await packRun(replay.runDir, path.join(OUT, "packs", `${path.basename(replay.runDir)}.tar.gz`));
      expect(packed.judgedSame, packed.rejudged.reason).toBe(true);
      const tar = zlib.gunzipSync(fs.readFileSync(packed.file));
      for (const sentinel of [KEY, TOKEN]) expect(tar.includes(sentinel), `${packed.file} holds a sentinel`).toBe(false);
    },
    E2E_TIMEOUT_MS,
  );
});
