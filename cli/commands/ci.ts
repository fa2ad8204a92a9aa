// `ccrepro ci …`: the steps of the GitHub Action (action.yml) that are ccrepro's own, each printing `name=value`
// lines for $GITHUB_OUTPUT: the plan (the releases the release cache is keyed by), the packs of RED or changed runs,
// and the job summary with the step outputs. The matrix itself runs with `ccrepro nightly`.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { planMatrix } from "../../nightly/matrix.ts";
import { loadPreviousNightly } from "../../nightly/previous.ts";
import { readSummary } from "../../nightly/summary.ts";
import { releaseIndex } from "../../releases/registry.ts";
import { ciOutputs, packPathOf, renderCiSummary, runsToPack } from "../../report/ci-summary.ts";
import { packRun } from "../../report/pack.ts";
import type { CliContext } from "../context.ts";
import { matrixConfig, withMatrixOptions } from "../matrix-options.ts";

// An actions/cache key may not hold a comma and is at most 512 characters: a long list of releases becomes its hash.
export function releasesKey(versions: readonly string[]): string {
  const joined = versions.join("_");
  return joined.length <= 200 ? joined : `sha256-${crypto.createHash("sha256").update(joined).digest("hex").slice(0, 32)}`;
}

const outputLines = (outputs: Record<string, string>) => Object.entries(outputs).map(([name, value]) => `${name}=${value}`);

export function registerCiCommand(program: Command, ctx: CliContext): void {
  const ci = program.command("ci").description("the GitHub Action's own steps (docs/ci.md): plan, pack and summary, each printing name=value lines for $GITHUB_OUTPUT");

  withMatrixOptions(ci.command("plan"))
    .description("resolve the matrix's claude releases without running anything: releases=…, releases-key=… (for the release cache) and cells=…")
    .option("--previous <file>", "the previous nightly's summary.json, which since:previous counts from")
    .action(async (options) => {
      const config = await matrixConfig(options);
      const previous = options.previous && fs.existsSync(options.previous) ? loadPreviousNightly(options.previous) : null;
      const plan = planMatrix(config, await releaseIndex(), previous?.summary.startedAt ?? null);
      const versions = plan.releases.map((r) => r.version);
      for (const line of outputLines({ releases: versions.join(" "), "releases-key": releasesKey(versions), cells: String(plan.cells.length) })) ctx.print(line);
    });

  ci.command("pack")
    .description("pack every run of a RED, changed or failed cell of a nightly into <dir>/packs/ for a bug report; prints packs=<count>")
    .argument("<dir>", "the nightly directory")
    .action(async (dir: string) => {
      const summary = readSummary(dir);
      let packed = 0;
      for (const runDir of runsToPack(summary)) {
        const out = path.join(dir, packPathOf(runDir));
        fs.mkdirSync(path.dirname(out), { recursive: true });
        const result = await packRun(path.join(dir, runDir), out);
        ctx.note(`packed ${runDir} into ${out}${result.judgedSame ? "" : ` (it no longer judges as recorded: ${result.rejudged.verdict})`}`);
        packed += 1;
      }
      ctx.print(`packs=${packed}`);
    });

  ci.command("summary")
    .description("write the job summary (Markdown) of a nightly to --markdown and print the step outputs: counts and the paths of its reports")
    .argument("<dir>", "the nightly directory")
    .requiredOption("--markdown <file>", "the file the job summary is appended to ($GITHUB_STEP_SUMMARY in the action)")
    .option("--artifact <name>", "the name of the artefact the nightly directory was uploaded as", "ccrepro")
    .option("--artifact-url <url>", "the artefact's address, as actions/upload-artifact gave it; runs link to it")
    .action((dir: string, options: { markdown: string; artifact: string; artifactUrl?: string }) => {
      const summary = readSummary(dir);
      const packed = runsToPack(summary).map(packPathOf).filter((pack) => fs.existsSync(path.join(dir, pack)));
      fs.appendFileSync(options.markdown, renderCiSummary(summary, { name: options.artifact, url: options.artifactUrl || null }, packed));
      for (const line of outputLines(ciOutputs(summary, path.resolve(dir), packed))) ctx.print(line);
    });
}
