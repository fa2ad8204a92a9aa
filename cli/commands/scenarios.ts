// `ccrepro scenarios`: the scenarios this build knows; with --claude, which of them that release can run and why not.
import type { Command } from "commander";
import { scenarioDrivers } from "../../kit/scenario.ts";
import { scenarioSupport } from "../../pipeline/run-scenario.ts";
import { resolveClaude } from "../../releases/resolve.ts";
import { SCENARIOS } from "../../scenarios/index.ts";
import type { CliContext } from "../context.ts";

export function registerScenariosCommand(program: Command, ctx: CliContext): void {
  program
    .command("scenarios")
    .description("list the scenarios; with --claude, which ones that release supports (default parameters)")
    .option("--claude <word>", "a version, latest, or a path to a claude executable")
    .option("--json", "print the result as JSON")
    .action(async (options: { claude?: string; json?: boolean }) => {
      if (!options.claude) {
        // The drivers each runs with, its default first: `--driver` takes the others. A guard says so before its
        // summary, so nobody reads it as a reproduction of the report it cites.
        if (options.json) ctx.print(JSON.stringify(SCENARIOS.map((s) => ({ name: s.name, drivers: scenarioDrivers(s), role: s.publicRecord?.role ?? null, summary: s.summary, ...(s.publicRecord?.guard ? { guard: s.publicRecord.guard } : {}) }))));
        else for (const s of SCENARIOS) ctx.print(`${s.name.padEnd(40)} ${scenarioDrivers(s).join(",").padEnd(13)} ${(s.publicRecord?.role ?? "").padEnd(12)} ${s.summary}`);
        return;
      }
      const claude = await resolveClaude(options.claude);
      const { probe, scenarios } = await scenarioSupport(SCENARIOS, claude);
      if (options.json) {
        ctx.print(JSON.stringify({ version: probe.reportedVersion, capabilities: probe.capabilities, tools: probe.tools, hookEvents: probe.hookEvents, scenarios }));
        return;
      }
      ctx.print(`claude ${probe.reportedVersion ?? "(no version)"}: ${probe.capabilities.join(", ") || "no capabilities found"}; tools: ${probe.tools.join(", ") || "none of those ccrepro looks for"}`);
      for (const s of scenarios) ctx.print(`${s.scenario.padEnd(40)} ${s.supported ? "supported" : `UNSUPPORTED: ${s.message}`}`);
    });
}
