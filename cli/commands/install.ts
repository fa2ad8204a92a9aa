// `ccrepro install`: fetch releases into the cache and print their executables.
import type { Command } from "commander";
import semver from "semver";
import { installRelease } from "../../releases/release-cache.ts";
import { resolveVersions } from "../../releases/registry.ts";
import type { CliContext } from "../context.ts";

export function registerInstallCommand(program: Command, ctx: CliContext): void {
  program
    .command("install")
    .description("fetch a release into the cache and print its executable's path")
    .argument("<version>", "a version or latest")
    .action(async (word: string) => {
      // An exact version is installed as it is: a cached one needs no release list (and so works offline).
      const exact = semver.valid(word.trim());
      for (const version of exact ? [exact] : await resolveVersions(word)) {
        const release = await installRelease(version);
        // 0.2.90–0.2.109: the npm dependency their package declares, built on first install (about 1.5 min on 2 cores).
        const beside = Object.entries(release.dependencies).map(([name, version]) => `${name} ${version}`).join(", ");
        ctx.note(`${release.version}: ${release.fromCache ? "cached" : `fetched ${(release.downloadedBytes / 1e6).toFixed(1)} MB in ${(release.fetchMs / 1000).toFixed(1)} s`}${beside ? `, with ${beside} installed beside it` : ""}`);
        ctx.print(release.executablePath);
      }
    });
}
