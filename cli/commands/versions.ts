// `ccrepro versions`: published releases, the cached ones marked.
import type { Command } from "commander";
import { listCachedVersions } from "../../releases/release-cache.ts";
import { listVersions } from "../../releases/registry.ts";
import type { CliContext } from "../context.ts";

export function registerVersionsCommand(program: Command, ctx: CliContext): void {
  program
    .command("versions")
    .description("list published claude releases, marking the cached ones")
    .option("--json", "print JSON")
    .action(async (options) => {
      const [versions, cached] = await Promise.all([listVersions(), listCachedVersions()]);
      const cachedSet = new Set(cached.map((c) => c.version));
      if (options.json) ctx.print(JSON.stringify(versions.map((version) => ({ version, cached: cachedSet.has(version) }))));
      else for (const version of versions) ctx.print(`${cachedSet.has(version) ? "*" : " "} ${version}`);
    });
}
