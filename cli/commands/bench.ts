// `ccrepro bench`: how close a scenario's wall time comes to its floor (the time the binary itself needs).
import type { Command } from "commander";
import { median } from "../../core/statistics.ts";
import { resolveClaude } from "../../releases/resolve.ts";
import { runAndCheck } from "../../pipeline/run-scenario.ts";
import type { CliContext } from "../context.ts";
import { driverOptions, parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber, positiveNumber } from "../numbers.ts";

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function registerBenchCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("bench"))
    .description("run a scenario several times and print wall time, floor and their ratio per run")
    .argument("[scenario]", "a scenario name or a scenario file's path", "subagent-resume-notification-header")
    .option("--claude <word>", "a version, latest, or a path", "2.1.332")
    .option("--runs <n>", "how many runs", wholeNumber("--runs", 1, 100), 3)
    .option("--max-ratio <r>", "exit 1 when the median ratio is above this", positiveNumber("--max-ratio"), 1.1)
    .action(async (name: string, options) => {
      const scenario = await ctx.scenarioNamed(name);
      const params = parseScenarioParams(scenario, options.param);
      const claude = await resolveClaude(options.claude);
      const abort = ctx.interruptSignal();
      const ratios: number[] = [];
      ctx.print(`${scenario.name} on ${options.claude}: wall = the whole run, from its start to its verdict;`);
      ctx.print("floor = from the first claude process start to the last event the run waited for.");
      for (let i = 1; i <= options.runs && !abort.aborted; i += 1) {
        const { record, runDir } = await runAndCheck({ scenario, params, claude, requested: options.claude, runsDir: options.runsDir, abort, ...driverOptions(options) });
        // The run as a caller waits for it: the recording, then the verdict.
        const wallMs = record.wallMs === null ? null : record.wallMs + (record.checkMs ?? 0);
        const { floorMs } = record;
        if (wallMs === null || floorMs === null || record.result?.verdict === "ERROR") {
          ctx.print(`run ${i}: no timing (${record.result?.verdict ?? "no verdict"}: ${record.result?.reason ?? record.harnessError}) ${runDir}`);
          continue;
        }
        ratios.push(wallMs / floorMs);
        ctx.print(`run ${i}: wall ${seconds(wallMs)}  floor ${seconds(floorMs)}  ratio ${(wallMs / floorMs).toFixed(3)}  ${record.result?.verdict}`);
      }
      if (ratios.length === 0) {
        ctx.print("no run produced timings");
        ctx.setExit(3);
        return;
      }
      const result = median(ratios)!;
      ctx.print(`median ratio ${result.toFixed(3)} over ${ratios.length} run(s) (goal ≤ ${options.maxRatio})`);
      ctx.setExit(result <= options.maxRatio ? 0 : 1);
    });
}
