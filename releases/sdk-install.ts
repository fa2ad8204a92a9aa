// Installs the Claude Agent SDK on demand into the release cache (sdk/<version>), once per version, under its lock.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import * as semver from "./semver-functions.ts";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { cacheDir } from "./cache-dir.ts";
import { dirBytes, tryVersionLock, withVersionLock } from "./release-cache.ts";
import { npmFailure } from "./npm-failure.ts";
import { SDK_PACKAGE } from "./registry.ts";

// The SDK a run of the sdk driver uses unless --sdk says otherwise: the release the orchestrator's SDK reproduction (bb #1718) used, pinned so a
// run means the same thing tomorrow (latest would move under the nightly's ledger) and needs no registry look-up.
export const DEFAULT_SDK_VERSION = "0.3.197";
// Written last into an entry: without it the directory is a half-finished install.
const COMPLETE = "complete.json";
const NPM_TIMEOUT_MS = 10 * 60_000;

export interface InstalledSdk {
  version: string;
  // The package's own directory (it holds sdk.mjs): the sdk child imports from here.
  packageDir: string;
  fromCache: boolean;
  // What this call installed on disk: 0 when it came from the cache.
  installedBytes: number;
}

const completeSchema = z.object({ version: z.string(), installedAt: z.string() });

export function sdkRoot(cache = cacheDir()): string {
  return path.join(cache, "sdk");
}

export function sdkPackageDir(entry: string): string {
  return path.join(entry, "node_modules", ...SDK_PACKAGE.split("/"));
}

// An exact version as it is; anything else (latest, a dist-tag, a range) is asked of the registry with `npm view`.
export async function resolveSdkVersion(word: string): Promise<string> {
  if (semver.valid(word) && semver.clean(word) === word) return word;
  const { execa } = await import("execa");
  const result = await execa("npm", ["view", `${SDK_PACKAGE}@${word}`, "version", "--json"], { reject: false, timeout: 60_000 });
  const parsed = result.exitCode === 0 && result.stdout.trim() !== "" ? (JSON.parse(result.stdout) as unknown) : null;
  // A range names several versions and npm prints an array; the newest is meant.
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v): v is string => typeof v === "string" && semver.valid(v) !== null);
  const newest = versions.sort(semver.compare).at(-1);
  if (!newest) {
    throw new UserError(`"${word}" names no release of ${SDK_PACKAGE}; give an exact version such as 0.3.197, or latest.`, "UNKNOWN_SDK_VERSION");
  }
  return newest;
}

async function readComplete(entry: string, version: string): Promise<boolean> {
  try {
    const done = completeSchema.parse(JSON.parse(await fsp.readFile(path.join(entry, COMPLETE), "utf8")));
    const pkg = z.object({ version: z.string() }).parse(JSON.parse(await fsp.readFile(path.join(sdkPackageDir(entry), "package.json"), "utf8")));
    return done.version === version && pkg.version === version;
  } catch {
    return false;
  }
}

// Safe to call for the same version from several processes at once: the second waits for the lock and finds it done.
export async function installSdk(word: string, options: { cacheDir?: string } = {}): Promise<InstalledSdk> {
  const version = await resolveSdkVersion(word);
  const root = sdkRoot(options.cacheDir);
  const entry = path.join(root, version);
  return withVersionLock(root, version, { wait: true }, async () => {
    if (await readComplete(entry, version)) return { version, packageDir: sdkPackageDir(entry), fromCache: true, installedBytes: 0 };
    await fsp.rm(entry, { recursive: true, force: true });
    const staging = path.join(root, `.staging-${version}-${process.pid}-${randomBytes(4).toString("hex")}`);
    await fsp.mkdir(staging, { recursive: true });
    try {
      // Without optional dependencies: those are the SDK's bundled platform binaries, and the CLI under test is ours.
      const { execa } = await import("execa");
      const result = await execa(
        "npm",
        ["install", "--omit=optional", "--no-audit", "--no-fund", "--prefix", staging, `${SDK_PACKAGE}@${version}`],
        { reject: false, timeout: NPM_TIMEOUT_MS, stdin: "ignore" },
      );
      if (result.exitCode !== 0 || !fs.existsSync(path.join(sdkPackageDir(staging), "sdk.mjs"))) {
        throw new UserError(`npm could not install ${SDK_PACKAGE}@${version}: ${npmFailure(result)}. Check the network and \`npm config get registry\`, then retry.`, "INSTALL_FAILED");
      }
      await fsp.writeFile(path.join(staging, COMPLETE), JSON.stringify({ version, installedAt: new Date().toISOString() }, null, 2) + "\n");
      await fsp.rename(staging, entry);
    } finally {
      await fsp.rm(staging, { recursive: true, force: true });
    }
    if (!(await readComplete(entry, version))) {
      throw new UserError(`${SDK_PACKAGE}@${version} installed as another version; report this as a ccrepro bug.`, "INSTALL_FAILED");
    }
    return { version, packageDir: sdkPackageDir(entry), fromCache: false, installedBytes: await dirBytes(entry) };
  });
}

// Removes every installed SDK release `keep` leaves out, skipping one another process is installing. Returns those removed.
export async function evictSdkAllBut(cache: string, keep: readonly string[]): Promise<string[]> {
  const root = sdkRoot(cache);
  const evicted: string[] = [];
  for (const version of (await fsp.readdir(root).catch(() => [] as string[])).filter((name) => semver.valid(name) && !keep.includes(name))) {
    const removed = await tryVersionLock(root, version, async () => {
      await fsp.rm(path.join(root, version), { recursive: true, force: true });
      return true;
    });
    if (removed) evicted.push(version);
  }
  return evicted;
}

// Every published release of the SDK, as the registry lists them (`npm view … versions`).
export async function sdkVersions(): Promise<string[]> {
  const { execa } = await import("execa");
  const result = await execa("npm", ["view", SDK_PACKAGE, "versions", "--json"], { reject: false, timeout: 60_000 });
  const parsed = result.exitCode === 0 ? z.array(z.string()).safeParse(JSON.parse(result.stdout || "null")) : null;
  if (!parsed?.success) throw new UserError(`npm could not list the releases of ${SDK_PACKAGE}; check the network and \`npm config get registry\`.`, "REGISTRY_UNREACHABLE");
  return parsed.data;
}

// Pure: the releases strictly between older and newer, oldest first, prereleases left out (a bisection's candidates).
export function sdkVersionsBetween(all: readonly string[], older: string, newer: string): string[] {
  return all
    .filter((v) => semver.valid(v) !== null && semver.prerelease(v) === null && semver.gt(v, older) && semver.lt(v, newer))
    .sort(semver.compare);
}
