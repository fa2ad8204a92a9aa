// `ccrepro ci …`: the steps of the GitHub Action (action.yml) that are ccrepro's own, each printing `name=value`
// lines for $GITHUB_OUTPUT: the ledger's cache key and the summary to compare with, the plan (the releases the release
// cache is keyed by and cut to), the packs of RED or changed runs, the job summary with the step outputs, and the
// ledger kept for the next run. The matrix itself runs with `ccrepro nightly`.
import fs from "node:fs";
import type { Command } from "commander";
import { keepLedger, ledgerBaseline, ledgerKeyPrefix } from "../../nightly/ci-ledger.ts";
import { ciPlanOutputs, planCi } from "../../nightly/ci-plan.ts";
import { splitWords } from "../../nightly/matrix-words.ts";
import { pruneCacheTo } from "../../releases/ci-cache.ts";
import { packNightly, summariseNightly } from "../../report/ci-nightly.ts";
import type { CliContext } from "../context.ts";
import { matrixConfig, withMatrixOptions } from "../matrix-options.ts";

const outputLines = (outputs: Record<string, string>) => Object.entries(outputs).map(([name, value]) => `${name}=${value}`);
// An empty word is how the action passes "none" (an output that was not set).
const orNull = (value: string | undefined) => (value ? value : null);

export function registerCiCommand(program: Command, ctx: CliContext): void {
  const ci = program.command("ci").description("the GitHub Action's own steps (docs/ci.md), each printing name=value lines for $GITHUB_OUTPUT");
  const print = (outputs: Record<string, string>) => outputLines(outputs).forEach((line) => ctx.print(line));

  ci.command("ledger-key")
    .description("the cache key prefix of a matrix's ledger: ledger-key=ccrepro-ledger-<hash of the name>-")
    .argument("<name>", "the matrix's name (the action's name input)")
    .action((name: string) => print({ "ledger-key": ledgerKeyPrefix(name) }));

  ci.command("baseline")
    .description("the summary this run compares with, from the restored ledger folder: previous=<file>, empty when there is none")
    .argument("<ledger-dir>", "the ledger folder the cache restored")
    .requiredOption("--run-id <id>", "this workflow run's id ($GITHUB_RUN_ID): a ledger an earlier attempt of it wrote gives that attempt's baseline")
    .action((ledgerDir: string, options: { runId: string }) => print({ previous: ledgerBaseline(ledgerDir, options.runId) ?? "" }));

  withMatrixOptions(ci.command("plan"))
    .description("resolve the matrix's releases without running anything: releases=…, sdk=…, releases-key=… (for the release cache) and cells=…")
    .option("--previous <file>", "the summary since:previous counts from (ci baseline's answer); empty: none")
    .action(async (options) => print(ciPlanOutputs(await planCi(await matrixConfig(options), orNull(options.previous)))));

  ci.command("prune-cache")
    .description("remove from the release cache (CCREPRO_CACHE_DIR) every claude and Agent SDK release the plan does not name, before the cache is saved")
    .requiredOption("--releases <versions>", "the plan's claude releases, separated by spaces or commas (ci plan's releases=)")
    .option("--sdk <versions>", "the plan's Agent SDK releases, separated the same way (ci plan's sdk=)", "")
    .action(async (options: { releases: string; sdk: string }) => {
      const words = (text: string) => splitWords(text.replace(/\s+/g, ","));
      const removed = await pruneCacheTo({ releases: words(options.releases), sdk: words(options.sdk) });
      ctx.note(removed.length ? `removed from the release cache: ${removed.join(", ")}` : "the release cache holds only the plan's releases");
      print({ removed: String(removed.length) });
    });

  ci.command("pack")
    .description("pack every run of a RED, changed or failed cell of a nightly into <dir>/packs/ for a bug report; prints packs=<count>")
    .argument("<dir>", "the nightly directory")
    .action(async (dir: string) => print({ packs: String(await packNightly(dir, (line) => ctx.note(line))) }));

  ci.command("summary")
    .description("write the job summary (Markdown) of a nightly to --markdown and print the step outputs: counts and the paths of its reports")
    .argument("<dir>", "the nightly directory")
    .requiredOption("--markdown <file>", "the file the job summary is appended to ($GITHUB_STEP_SUMMARY in the action)")
    .option("--artifact <name>", "the name of the artefact the nightly directory was uploaded as", "ccrepro")
    .option("--artifact-url <url>", "the artefact's address, as actions/upload-artifact gave it; runs link to it")
    .action((dir: string, options: { markdown: string; artifact: string; artifactUrl?: string }) => {
      const { markdown, outputs } = summariseNightly(dir, { name: options.artifact, url: orNull(options.artifactUrl) });
      fs.appendFileSync(options.markdown, markdown);
      print(outputs);
    });

  ci.command("keep")
    .description("write the ledger folder for the next run: the summary it compares with (tonight's cells merged over the baseline's), the baseline, and this run's id; prints kept=<cells>")
    .argument("<dir>", "tonight's nightly directory")
    .argument("<ledger-dir>", "the ledger folder the cache saves")
    .requiredOption("--run-id <id>", "this workflow run's id ($GITHUB_RUN_ID)")
    .option("--previous <file>", "the summary tonight compared with (ci baseline's answer); empty: none")
    .action((dir: string, ledgerDir: string, options: { runId: string; previous?: string }) => {
      const cells = keepLedger({ nightlyDir: dir, ledgerDir, runId: options.runId, baseline: orNull(options.previous) });
      ctx.note(`kept ${cells} cells in the ledger ${ledgerDir} for the next run`);
      print({ kept: String(cells) });
    });
}
