// `ccrepro bench-seed`: ccrepro against the harness a bug report would ship, on the same bug and release. The report
// behind `subagent-resume-notification-header` drove claude from a shell script with a Python mock, holding stdin
// open for a fixed 15 s; scripts/seed-shape/ is that harness's shape. The two run in turn, pair by pair (the order
// swapped every pair, so a machine's drift moves both alike), each timed from outside for wall and CPU.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { median } from "../../core/statistics.ts";
import type { CliContext } from "../context.ts";
import { wholeNumber, positiveNumber } from "../numbers.ts";
import { seconds, timeCcrepro, timeProcess, type ProcessTiming } from "../process-timing.ts";

const SCENARIO = "subagent-resume-notification-header";
const HARNESS = fileURLToPath(new URL("../../scripts/seed-shape/harness.sh", import.meta.url));
// Both sides exit as the report's harness did: 0 GREEN, 1 RED, 2 INCONCLUSIVE, 3 an error of the harness.
const VERDICTS: Record<number, string> = { 0: "GREEN", 1: "RED", 2: "INCONCLUSIVE", 3: "ERROR" };
const verdictOf = (timing: ProcessTiming) => VERDICTS[timing.code ?? -1] ?? `exit ${timing.code}`;

interface Side {
  wall: number[];
  cpu: number[];
  verdicts: string[];
}

function requirePython(): void {
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
  } catch {
    throw new UserError("bench-seed runs the report's harness shape, which needs python3 on the PATH: install it, then retry.", "MISSING_TOOL");
  }
}

export function registerBenchSeedCommand(program: Command, ctx: CliContext): void {
  program
    .command("bench-seed")
    .description(`time \`ccrepro run ${SCENARIO}\` against the bug report's own harness shape (a Python mock, stdin held 15 s), interleaved; print wall and CPU ratios`)
    .option("--claude <versions>", "comma-separated releases", "2.1.281,2.1.332")
    .option("--pairs <n>", "pairs of runs per release", wholeNumber("--pairs", 1, 50), 4)
    .option("--hold <seconds>", "how long the report's harness holds stdin open", wholeNumber("--hold", 1, 120), 15)
    .option("--max-cpu-ratio <r>", "exit 1 when a release's median CPU ratio is above this", positiveNumber("--max-cpu-ratio"), 1.2)
    .option("--runs-dir <dir>", "where ccrepro's runs are written", "runs")
    .action(async (options) => {
      const versions = String(options.claude).split(",").map((word) => word.trim()).filter(Boolean);
      if (versions.length === 0) throw new UserError("--claude names no release: give one or more, e.g. --claude 2.1.281,2.1.332", "BAD_ARGUMENT");
      requirePython();
      const { resolveClaude } = await import("../../releases/resolve.ts");
      const abort = ctx.interruptSignal();
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-bench-seed-"));
      let worst = 0;
      try {
        for (const version of versions) {
          // Fetched before the first pair, so no download is timed.
          const claude = await resolveClaude(version);
          const seedCommand = [claude.command, ...claude.args];
          const sides: Record<"seed" | "ccrepro", Side> = { seed: { wall: [], cpu: [], verdicts: [] }, ccrepro: { wall: [], cpu: [], verdicts: [] } };
          const once = async (side: "seed" | "ccrepro", pair: number) => {
            const timing =
              side === "seed"
                ? await timeProcess("bash", [HARNESS, path.join(scratch, `${version}-${pair}`), ...seedCommand], { env: { ...process.env, HOLD: String(options.hold) }, ownGroup: true })
                : await timeCcrepro(["run", SCENARIO, "--claude", version, "--runs-dir", path.resolve(options.runsDir)]);
            sides[side].wall.push(timing.wallMs);
            if (timing.cpuMs !== null) sides[side].cpu.push(timing.cpuMs);
            sides[side].verdicts.push(verdictOf(timing));
            return `${side} ${seconds(timing.wallMs)} wall, ${seconds(timing.cpuMs)} CPU, ${verdictOf(timing)}`;
          };
          for (let pair = 1; pair <= options.pairs && !abort.aborted; pair += 1) {
            const order: ("seed" | "ccrepro")[] = pair % 2 === 1 ? ["seed", "ccrepro"] : ["ccrepro", "seed"];
            const lines = [];
            for (const side of order) lines.push(await once(side, pair));
            ctx.print(`${version} pair ${pair}: ${lines.join("  |  ")}`);
          }
          const { seed, ccrepro } = sides;
          const wallRatio = median(ccrepro.wall)! / median(seed.wall)!;
          const cpuRatio = seed.cpu.length && ccrepro.cpu.length ? median(ccrepro.cpu)! / median(seed.cpu)! : null;
          const agreed = seed.verdicts.filter((v, i) => v === ccrepro.verdicts[i]).length;
          ctx.print(
            `${version}: median wall ccrepro ${seconds(median(ccrepro.wall))} / seed ${seconds(median(seed.wall))} = ${wallRatio.toFixed(2)}×; ` +
              `median CPU ${seconds(median(ccrepro.cpu))} / ${seconds(median(seed.cpu))} = ${cpuRatio === null ? "—" : `${cpuRatio.toFixed(2)}×`} ` +
              `(goal ≤ ${options.maxCpuRatio}); same verdict in ${agreed} of ${seed.verdicts.length} pairs`,
          );
          worst = Math.max(worst, cpuRatio ?? Infinity);
        }
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
      ctx.setExit(worst <= options.maxCpuRatio ? 0 : 1);
    });
}
