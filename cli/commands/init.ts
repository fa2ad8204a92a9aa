// `ccrepro init ci`: writes .github/workflows/ccrepro.yml, the GitHub Action on the repository's scenarios (docs/ci.md).
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { splitWords } from "../../nightly/matrix-words.ts";
import type { CliContext } from "../context.ts";
import { initCi } from "../init-ci.ts";

export function registerInitCommand(program: Command, ctx: CliContext): void {
  program
    .command("init")
    .description("set ccrepro up in this repository: `init ci` writes a GitHub workflow that runs your scenarios every night")
    .argument("<what>", "ci: .github/workflows/ccrepro.yml")
    .option("--scenarios <list>", "scenario files or built-in names, separated by commas (default: every file here that imports ccrepro and calls defineScenario)")
    .option("--action <owner/repo@ref>", "use the action from a ccrepro repository at this ref instead of the installed package's (./node_modules/ccrepro)")
    .option("--dir <dir>", "the repository's root", ".")
    .option("--force", "replace an existing workflow file")
    .action((what: string, options: { scenarios?: string; action?: string; dir: string; force?: boolean }) => {
      if (what !== "ci") throw new UserError(`ccrepro init ${what}: nothing to set up by that name; the one there is: ccrepro init ci`, "BAD_ARGUMENT");
      const result = initCi({ dir: options.dir, ...(options.scenarios ? { scenarios: splitWords(options.scenarios) } : {}), action: options.action ?? null, force: options.force === true });
      ctx.print(`${result.replaced ? "replaced" : "wrote"} ${result.file}: one job per scenario, every night at 04:23 UTC and on demand (Actions → ccrepro → Run workflow)`);
      for (const s of result.scenarios) ctx.print(`  ${s.name}: ${s.scenario}`);
      if (result.found) ctx.print("found by looking for files that import ccrepro and call defineScenario; add more with --scenarios, or edit the matrix");
      ctx.print(`commit it: git add ${result.file} && git commit -m "ccrepro nightly"`);
    });
}
