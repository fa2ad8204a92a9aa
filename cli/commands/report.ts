// `ccrepro report`: renders a nightly or run directory again from its files, or merges the shards of one nightly.
import path from "node:path";
import { Option, type Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { mergeShards } from "../../nightly/merge.ts";
import { checkOutDir, defaultNightlyDir } from "../../nightly/out-dir.ts";
import { previousNightlyFor } from "../../nightly/previous.ts";
import { readSummary } from "../../nightly/summary.ts";
import { loadReportInput } from "../../report/report-target.ts";
import { renderIssue } from "../../report/issue.ts";
import { REPORT_FORMATS, reporterFor, type ReportFormat } from "../../report/reporters.ts";
import type { CliContext } from "../context.ts";
import { publishNightly } from "../publish-nightly.ts";

export function registerReportCommand(program: Command, ctx: CliContext): void {
  program
    .command("report")
    .description("print a nightly or run directory's report again from its files, or join shards with --merge")
    .argument("[dir]", "a nightly directory (summary.json) or a run directory (run.json)")
    .addOption(new Option("--format <format>", "what to print; issue: one run as Markdown for a bug tracker").choices([...REPORT_FORMATS, "issue"]).default("md"))
    .option("--merge <dirs...>", "shard directories of one nightly to join into one (writes every report into --out)")
    .option("--out <dir>", "with --merge: the merged nightly directory; default runs/nightly-<UTC time>")
    .option("--previous <file>", "with --merge: summary.json to compare with; default: the newest earlier nightly beside --out")
    .option("--no-previous", "with --merge: compare with no earlier nightly")
    .action((dir: string | undefined, options, command: Command) => {
      // An option that does nothing with the others given is refused, naming why (issue 41, item 8).
      const given = (name: string) => command.getOptionValueSource(name) === "cli";
      if (!options.merge) {
        const mergeOnly = ["out", "previous"].filter(given);
        if (mergeOnly.length > 0) {
          throw new UserError(
            `${mergeOnly.map((name) => `--${name}`).join(" and ")} go${mergeOnly.length === 1 ? "es" : ""} with --merge (where the merged nightly is written, and what it is compared with); ` +
              `rendering ${dir ?? "a directory"} prints to stdout: redirect it, e.g. ccrepro report ${dir ?? "DIR"} --format ${options.format} > report.${{ junit: "xml", issue: "md" }[options.format as string] ?? options.format}`,
            "CONFLICTING_OPTIONS",
          );
        }
      } else if (given("format")) {
        throw new UserError(`--format chooses what to print for one directory; --merge writes every report (summary.md, junit.xml, index.html …) into --out: drop --format`, "CONFLICTING_OPTIONS");
      }
      if (options.merge) {
        if (dir !== undefined) throw new UserError(`give either a directory to render or --merge with shard directories, not both (got ${dir})`, "CONFLICTING_OPTIONS");
        const now = new Date();
        const outDir = checkOutDir(options.out ?? defaultNightlyDir(now));
        const shards = (options.merge as string[]).map((shardDir) => ({ dir: path.resolve(shardDir), summary: readSummary(shardDir) }));
        const previous = previousNightlyFor(options.previous, outDir, now);
        publishNightly(ctx, { summary: mergeShards(shards, outDir, previous), baseDir: outDir }, outDir);
        return;
      }
      if (dir === undefined) throw new UserError("report needs a nightly or run directory (or --merge with shard directories)", "MISSING_ARGUMENT");
      if (options.format === "issue") {
        ctx.print(renderIssue(dir).trimEnd());
        return;
      }
      ctx.print(reporterFor(options.format as ReportFormat).render(loadReportInput(dir)).trimEnd());
    });
}
