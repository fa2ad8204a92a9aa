// `ccrepro versions`: the releases a binary can be had for, the cached ones marked, each with where it comes from.
import type { Command } from "commander";
import { listCachedVersions } from "../../releases/release-cache.ts";
import { originWords, releaseIndex } from "../../releases/registry.ts";
import type { CliContext } from "../context.ts";

export function registerVersionsCommand(program: Command, ctx: CliContext): void {
  program
    .command("versions")
    .description("list claude releases (the main package's, and those only a platform package or the Agent SDK has yet), marking the cached ones")
    .option("--json", "print JSON")
    .action(async (options) => {
      const [index, cached] = await Promise.all([releaseIndex(), listCachedVersions()]);
      const cachedSet = new Set(cached.map((c) => c.version));
      const rows = index.versions.map((version) => ({ version, cached: cachedSet.has(version), origin: index.releases.get(version)!.origin }));
      if (options.json) ctx.print(JSON.stringify(rows));
      else for (const row of rows) ctx.print(`${row.cached ? "*" : " "} ${row.version}${row.origin.kind === "claude-code" ? "" : `  (${originWords(row.origin)})`}`);
    });
}
