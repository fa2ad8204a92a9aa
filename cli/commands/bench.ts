// `ccrepro bench`: a scenario's runs timed as a user waits for them — the whole `ccrepro run` process, from outside —
// with its parts, against the physical floor the run itself shows; and the CLI's start-up against a bare node.
import fs from "node:fs";
import { EXIT_ERROR } from "../../core/exit-codes.ts";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { median } from "../../core/statistics.ts";
import type { CheckResult } from "../../core/verdict.ts";
import type { CliContext } from "../context.ts";
import { withRunOptions } from "../params.ts";
import { wholeNumber, positiveNumber } from "../numbers.ts";
import { seconds, timeCcrepro, timeProcess, type ProcessTiming } from "../process-timing.ts";

// `ccrepro --help` and `node -e 0` in turn, pair by pair, so a machine's drift moves both alike.
async function startupRatio(ctx: CliContext, pairs: number): Promise<void> {
  const ratios: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < pairs; i += 1) {
    const help = await timeCcrepro(["--help"]);
    const bare = await timeProcess(process.execPath, ["-e", "0"]);
    // A --help that failed would time nothing worth a ratio.
    if (help.code !== 0 || !help.stdout.startsWith("Usage:")) {
      throw new Error(`ccrepro --help exited ${help.code} without printing its usage, so there is no start-up to time: run \`${process.argv[1]} --help\` to see why`);
    }
    if (help.cpuMs === null || bare.cpuMs === null) {
      ctx.print("start-up: no CPU accounting on this system");
      return;
    }
    cpus.push(help.cpuMs);
    // Clock ticks are 10 ms: a bare node can read 0 or 10, so the ratio is over at least one tick.
    ratios.push(help.cpuMs / Math.max(bare.cpuMs, 10));
  }
  ctx.print(`start-up: ccrepro --help ${median(cpus)} ms CPU, ${median(ratios)!.toFixed(2)}× node -e 0 (median of ${pairs} pairs; goal ≤ 4)`);
}

export interface RunParts {
  whole: ProcessTiming;
  marks: Map<string, number>;
  record: { startedAt: number; wallMs: number | null; floorMs: number | null; checkMs: number | null; result: CheckResult | null };
  firstSpawn: number | null;
  firstRequest: number | null;
}

async function benchRun(word: string, claude: string, params: Record<string, string>, runsDir: string, drive: string[]): Promise<RunParts | string> {
  const { readPhases, PHASES_ENV } = await import("../../core/phases.ts");
  const { readRunRecord } = await import("../../harness/run-record.ts");
  const { loadRecordings } = await import("../../harness/recordings.ts");
  const { runLayout } = await import("../../harness/run-layout.ts");
  const phases = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-bench-")), "phases");
  const paramArgs = Object.entries(params).flatMap(([k, v]) => ["--param", `${k}=${v}`]);
  const whole = await timeCcrepro(["run", word, "--claude", claude, "--json", "--runs-dir", runsDir, ...paramArgs, ...drive], { env: { ...process.env, [PHASES_ENV]: phases } });
  const marks = readPhases(fs.existsSync(phases) ? fs.readFileSync(phases, "utf8") : "");
  fs.rmSync(path.dirname(phases), { recursive: true, force: true });
  const last = whole.stdout.trim().split("\n").at(-1) ?? "";
  let runDir: string;
  try {
    runDir = (JSON.parse(last) as { runDir: string }).runDir;
  } catch {
    return `exit ${whole.code}, no result printed`;
  }
  const record = readRunRecord(runLayout(runDir).runJson);
  const rec = loadRecordings(runDir);
  const spawns = rec.sessions.flatMap((s) => (s.process ? [s.process.startedAt] : []));
  return {
    whole,
    marks,
    record: { startedAt: Date.parse(record.startedAt), wallMs: record.wallMs, floorMs: record.floorMs, checkMs: record.checkMs, result: record.result ?? null },
    firstSpawn: spawns.length ? Math.min(...spawns) : null,
    firstRequest: rec.requests[0]?.receivedAt ?? null,
  };
}

// The bench's runs are repeats too: their verdicts as a rate, by the rule `run --repeat` uses. Imported here, as the
// bench's other modules are, so that registering the command (for any command line) loads none of them.
export async function verdictLines(results: readonly CheckResult[]): Promise<string[]> {
  const [{ combineRepeats, repeatsLine }, { formatRates }] = await Promise.all([import("../../pipeline/verdict-rules.ts"), import("../../pipeline/rates.ts")]);
  const combined = combineRepeats(results);
  return [repeatsLine(results, combined), ...formatRates(combined.rates)];
}

// The parts of one run, in the order they happen; each null when its marks are missing.
export function partsOf(run: RunParts) {
  const at = (name: string) => run.marks.get(name) ?? null;
  const span = (from: number | null, to: number | null) => (from === null || to === null ? null : to - from);
  const recorderEnd = run.record.wallMs === null ? null : run.record.startedAt + run.record.wallMs;
  return {
    startup: span(run.whole.startedAt, at("command-loaded")),
    scenarioLoad: span(at("command-loaded"), at("scenario-loaded")),
    resolution: span(at("scenario-loaded"), at("release-resolved")),
    recorder: run.record.wallMs,
    check: run.record.checkMs,
    exit: span(at("printed"), run.whole.endedAt),
    toSpawn: span(run.whole.startedAt, run.firstSpawn),
    claudeStartup: span(run.firstSpawn, run.firstRequest),
    beforeRecorder: span(at("release-resolved"), run.record.startedAt),
    afterCheck: span(recorderEnd === null || run.record.checkMs === null ? null : recorderEnd + run.record.checkMs, at("printed")),
  };
}

export function registerBenchCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("bench"))
    .description("time a scenario's whole `ccrepro run` process from outside, its parts, and its ratio to the run's physical floor")
    .argument("[scenario]", "a scenario name or a scenario file's path", "subagent-resume-notification-header")
    .option("--claude <word>", "a version, latest, or a path", "2.1.332")
    .option("--runs <n>", "how many runs", wholeNumber("--runs", 1, 100), 3)
    .option("--startup-pairs <n>", "pairs of `ccrepro --help` and `node -e 0` timed first (0: none)", wholeNumber("--startup-pairs", 0, 50), 5)
    .option("--max-ratio <r>", "exit 1 when the median whole-process ratio is above this", positiveNumber("--max-ratio"), 1.1)
    .action(async (name: string, options) => {
      // Loaded here, so a bad file or parameter is said before any run (and in this process's words).
      const scenario = await ctx.scenarioNamed(name);
      const { parseScenarioParams, driverOptions } = await import("../params.ts");
      parseScenarioParams(scenario, options.param);
      const drive = driverOptions(options);
      const driveArgs = [...(drive.driver ? ["--driver", drive.driver] : []), ...(drive.sdk ? ["--sdk", drive.sdk] : [])];
      // The children find a file scenario by its absolute path.
      const word = /[\\/]|\.(ts|mts|mjs|js)$/.test(name) ? path.resolve(name) : name;
      if (options.startupPairs > 0) await startupRatio(ctx, options.startupPairs);
      // Cached before the first timed run, so a download is not counted as release resolution.
      const { resolveClaude } = await import("../../releases/resolve.ts");
      await resolveClaude(options.claude);
      ctx.print(`${scenario.name} on ${options.claude}: whole = the \`ccrepro run\` process from spawn to exit, timed from outside;`);
      ctx.print("floor = claude's start-up to its first request plus what the script makes it wait for, up to the run's point;");
      ctx.print("recorder-only = today's ratio (the recorder's wall and the check over the floor).");
      const abort = ctx.interruptSignal();
      const whole: number[] = [];
      const recorderOnly: number[] = [];
      const toSpawn: number[] = [];
      const results: CheckResult[] = [];
      for (let i = 1; i <= options.runs && !abort.aborted; i += 1) {
        const run = await benchRun(word, options.claude, options.param, path.resolve(options.runsDir), driveArgs);
        if (typeof run === "string") {
          ctx.print(`run ${i}: no timing (${run})`);
          continue;
        }
        if (run.record.result) results.push(run.record.result);
        const parts = partsOf(run);
        const { floorMs, wallMs, checkMs } = run.record;
        const verdict = run.record.result?.verdict ?? null;
        if (floorMs === null || wallMs === null || verdict === "ERROR") {
          ctx.print(`run ${i}: no floor (${verdict ?? "no verdict"})`);
          continue;
        }
        whole.push(run.whole.wallMs / floorMs);
        recorderOnly.push((wallMs + (checkMs ?? 0)) / floorMs);
        if (parts.toSpawn !== null) toSpawn.push(parts.toSpawn);
        ctx.print(
          `run ${i}: whole ${seconds(run.whole.wallMs)} (CPU ${seconds(run.whole.cpuMs)})  floor ${seconds(floorMs)} (claude start-up ${seconds(parts.claudeStartup)})  ` +
            `ratio ${(run.whole.wallMs / floorMs).toFixed(3)}  recorder-only ${((wallMs + (checkMs ?? 0)) / floorMs).toFixed(3)}  ${verdict}`,
        );
        ctx.print(
          `       start-up ${seconds(parts.startup)}  scenario load ${seconds(parts.scenarioLoad)}  release resolution ${seconds(parts.resolution)}  ` +
            `recorder ${seconds(parts.recorder)} (claude spawned at ${seconds(parts.toSpawn)})  check ${seconds(parts.check)}  exit ${seconds(parts.exit)}`,
        );
      }
      if (results.length > 1) for (const line of await verdictLines(results)) ctx.print(line);
      if (whole.length === 0) {
        ctx.print("no run produced timings");
        ctx.setExit(EXIT_ERROR);
        return;
      }
      const ratio = median(whole)!;
      ctx.print(`median whole-process ratio ${ratio.toFixed(3)} (goal ≤ ${options.maxRatio}); recorder-only ${median(recorderOnly)!.toFixed(3)}; over ${whole.length} run(s)`);
      if (toSpawn.length) ctx.print(`median from \`ccrepro run\` to the claude spawn ${seconds(median(toSpawn))} (goal < 0.50 s)`);
      ctx.setExit(ratio <= options.maxRatio ? 0 : 1);
    });
}
