// What `--claude WORD` names: a release (installed into the cache on demand) or a local binary given by path.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import * as semver from "./semver-functions.ts";
import { UserError } from "../core/errors.ts";
import { sha256OfUnchangedFile } from "./binary-info.ts";
import { installRelease, type CacheOptions, type InstalledRelease } from "./release-cache.ts";
import { resolveVersions } from "./registry.ts";

// A binary given by path (--claude ./claude): never cached, never evicted; its version is probed by the caller.
export interface LocalClaude {
  version: null;
  era: "local";
  command: string;
  args: string[];
  executablePath: string;
  sha256: string;
  package: null;
}

export type ResolvedClaude = InstalledRelease | LocalClaude;

// A word from --claude: a path (anything with a slash) runs that file; otherwise it must name exactly one release.
export async function resolveClaude(word: string, options: CacheOptions = {}): Promise<ResolvedClaude> {
  if (word.includes("/") || word.includes(path.sep)) return localClaude(word);
  // An exact version needs no release list: a cached copy is used as it is, and only a cache miss asks the registry
  // (whose metadata then also says whether the version was published at all).
  const exact = semver.valid(word.trim());
  if (exact && semver.clean(word.trim()) === exact) return installRelease(exact, options);
  const versions = await resolveVersions(word);
  if (versions.length !== 1) {
    throw new UserError(
      versions.length === 0
        ? `"${word}" names no release; give an exact version such as 2.1.281, or latest.`
        : `"${word}" names ${versions.length} releases (${versions[0]} … ${versions.at(-1)}); this takes one: give an exact version or latest.`,
      "AMBIGUOUS_VERSION",
    );
  }
  return installRelease(versions[0]!, options);
}

async function localClaude(word: string): Promise<LocalClaude> {
  const executablePath = path.resolve(word);
  const stat = await fsp.stat(executablePath).catch(() => null);
  if (!stat?.isFile()) {
    throw new UserError(`${executablePath} does not exist or is not a file; pass the path to a claude executable or cli.js.`, "MISSING_BINARY");
  }
  // A bare entry script (cli.js from an unpacked release, perhaps patched) runs with node like a cached one.
  if (/\.[cm]?js$/.test(executablePath)) {
    return { version: null, era: "local", command: process.execPath, args: [executablePath], executablePath, sha256: await sha256OfUnchangedFile(executablePath), package: null };
  }
  try {
    await fsp.access(executablePath, fs.constants.X_OK);
  } catch {
    throw new UserError(`${executablePath} is not executable; run chmod +x on it, or pass a release version instead.`, "MISSING_BINARY");
  }
  return { version: null, era: "local", command: executablePath, args: [], executablePath, sha256: await sha256OfUnchangedFile(executablePath), package: null };
}
