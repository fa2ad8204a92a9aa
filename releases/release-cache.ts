// The on-disk cache of claude releases: one verified directory per version, placed atomically, bounded by LRU eviction.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";
import { ownerPid, ownerState, ownerToken, whyOwnerUnknown } from "../core/process-owner.ts";
import * as semver from "./semver-functions.ts";
import { z } from "zod";
import { sha256File } from "./binary-info.ts";
import { cacheDir } from "./cache-dir.ts";
import { UserError } from "../core/errors.ts";
import { declaredDependencies, installDeclaredDependencies } from "./release-dependencies.ts";
import { detectPlatform, type PlatformSuffix } from "./platform.ts";
import {
  CLAUDE_PACKAGE,
  nativePackageOf,
  registryOptions,
  releaseInfo,
} from "./registry.ts";

export interface InstalledRelease {
  version: string;
  era: "js" | "native";
  // What to spawn: node + [entry script] for "js", the executable itself (no args) for "native".
  command: string;
  args: string[];
  executablePath: string;
  dir: string;
  sha256: string;
  // The npm package and version the executable was unpacked from (a platform or SDK package for a native release).
  package: string;
  // The npm dependencies installed beside the package (name → version): empty for every release but 0.2.90–0.2.109.
  dependencies: Record<string, string>;
  // The entry's size on disk, which is what the cache cap counts.
  bytes: number;
  // What this call cost: 0 bytes on a cache hit; fetchMs is the call's wall time, lock wait included.
  downloadedBytes: number;
  fetchMs: number;
  fromCache: boolean;
}

export const cacheManifestSchema = z.object({
  version: z.string(),
  era: z.enum(["js", "native"]),
  // The npm spec that was fetched, e.g. @anthropic-ai/claude-code-linux-x64@2.1.113.
  package: z.string(),
  integrity: z.string(),
  // Relative to the entry directory.
  executable: z.string(),
  sha256: z.string(),
  executableBytes: z.number(),
  executableMtimeMs: z.number(),
  bytes: z.number(),
  downloadedBytes: z.number(),
  fetchMs: z.number(),
  fetchedAt: z.string(),
  // The npm dependencies the package declares, installed beside it: name → version (release-dependencies.ts).
  // Absent in entries placed before they were installed; such an entry of a release that declares some is fetched again.
  dependencies: z.record(z.string(), z.string()).optional(),
});
export type CacheManifest = z.infer<typeof cacheManifestSchema>;

export interface CacheOptions {
  // Defaults to cacheDir().
  cacheDir?: string;
  // Defaults to maxCacheBytes().
  maxBytes?: number;
  // "quick" hashes the executable only when its size or mtime changed; "full" always hashes it.
  verify?: "quick" | "full";
  // Defaults to this machine's platform.
  platform?: PlatformSuffix;
}

const MANIFEST = "complete.json";
const LAST_USED = "last-used";
// One empty file per process using the entry, named <host>-<pid>; such entries are never evicted.
const IN_USE = "in-use";
const LOCKS = ".locks";
const STAGING_PREFIX = ".staging-";
// .staging-<version>-<pid>-<random>; trash directories use the same prefix without a version.
const STAGING_NAME = /^\.staging-(\d+\.\d+\.\d+\S*)-\d+-[0-9a-f]{8}$/;
const DEFAULT_MAX_BYTES = 8 * 1024 ** 3;
// Another host's marker cannot be checked for liveness, so it counts as in use for this long.
const FOREIGN_PIN_TTL_MS = 24 * 3600_000;

export function maxCacheBytes(): number {
  const raw = process.env["CCREPRO_CACHE_MAX_BYTES"];
  if (raw === undefined || raw === "") return DEFAULT_MAX_BYTES;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new UserError(
      `CCREPRO_CACHE_MAX_BYTES=${raw} is not a positive whole number of bytes; set e.g. 8589934592 (8 GiB) or unset it.`,
      "BAD_CONFIG",
    );
  }
  return value;
}

function entryDir(cache: string, version: string): string {
  return path.join(cache, version);
}

// Fetches the release into the cache unless a verified copy is there, marks it used by this process, then trims
// the cache. Also how bisect prefetches: it is safe to call for the same version from several processes at once.
export async function installRelease(version: string, options: CacheOptions = {}): Promise<InstalledRelease> {
  if (!semver.valid(version) || semver.clean(version) !== version) {
    throw new UserError(`"${version}" is not an exact version such as 2.1.281.`, "BAD_VERSION_WORD");
  }
  const cache = options.cacheDir ?? cacheDir();
  const maxBytes = options.maxBytes ?? maxCacheBytes();
  const started = performance.now();
  const result = await withVersionLock(cache, version, { wait: true }, async () => {
    const cached = await readValidEntry(cache, version, options.verify ?? "quick");
    const manifest = cached ?? (await fetchEntry(cache, version, options.platform ?? detectPlatform()));
    await markUsed(entryDir(cache, version));
    return { manifest, fromCache: cached !== null };
  });
  if (!result.fromCache) await evictToFit(cache, maxBytes);
  return toInstalled(cache, result.manifest, {
    fromCache: result.fromCache,
    downloadedBytes: result.fromCache ? 0 : result.manifest.downloadedBytes,
    fetchMs: Math.round(performance.now() - started),
  });
}

function toInstalled(
  cache: string,
  manifest: CacheManifest,
  call: Pick<InstalledRelease, "fromCache" | "downloadedBytes" | "fetchMs">,
): InstalledRelease {
  const dir = entryDir(cache, manifest.version);
  const executablePath = path.join(dir, manifest.executable);
  return {
    version: manifest.version,
    era: manifest.era,
    command: manifest.era === "js" ? process.execPath : executablePath,
    args: manifest.era === "js" ? [executablePath] : [],
    executablePath,
    dir,
    sha256: manifest.sha256,
    package: manifest.package,
    dependencies: manifest.dependencies ?? {},
    bytes: manifest.bytes,
    ...call,
  };
}

// Drops this process's in-use marker, for long-lived processes (nightly, bisect) done with a version, so eviction may
// take it again.
export async function unpinRelease(version: string, options: Pick<CacheOptions, "cacheDir"> = {}): Promise<void> {
  const marker = path.join(entryDir(options.cacheDir ?? cacheDir(), version), IN_USE, ownMarkerName());
  await fsp.rm(marker, { force: true });
}

function ownMarkerName(): string {
  return `${os.hostname()}-${process.pid}`;
}

async function markUsed(dir: string): Promise<void> {
  await fsp.mkdir(path.join(dir, IN_USE), { recursive: true });
  await fsp.writeFile(path.join(dir, IN_USE, ownMarkerName()), "");
  await fsp.writeFile(path.join(dir, LAST_USED), new Date().toISOString());
}

async function isInUse(dir: string): Promise<boolean> {
  let names: string[];
  try {
    names = await fsp.readdir(path.join(dir, IN_USE));
  } catch {
    return false;
  }
  const host = os.hostname();
  for (const name of names) {
    const marker = path.join(dir, IN_USE, name);
    const cut = name.lastIndexOf("-");
    const pid = Number(name.slice(cut + 1));
    if (name.slice(0, cut) === host) {
      if (processAlive(pid)) return true;
      await fsp.rm(marker, { force: true });
    } else {
      const stat = await fsp.stat(marker).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs < FOREIGN_PIN_TTL_MS) return true;
    }
  }
  return false;
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface LockWait {
  // false: give up at once if another process holds the lock (eviction skips such versions).
  wait: boolean;
}

// How long a wait for another process's version lock may last: a slow network can make a native fetch take minutes.
const LOCK_WAIT_MS = 30 * 60_000;
// How often a wait says again what it waits for.
const LOCK_WAIT_NOTE_MS = 60_000;

interface LockOwner {
  owner: string;
  version: string;
  since: string;
}

// The owner file beside a lock directory: who holds it, for what, since when (proper-lockfile's lock is only a directory).
const ownerFile = (lockfilePath: string) => `${lockfilePath}.owner`;

function readOwner(lockfilePath: string): LockOwner | null {
  try {
    const value = JSON.parse(fs.readFileSync(ownerFile(lockfilePath), "utf8")) as LockOwner;
    return typeof value.owner === "string" ? value : null;
  } catch {
    return null;
  }
}

function describeHolder(holder: LockOwner | null): string {
  const unknown = holder ? whyOwnerUnknown(holder.owner) : null;
  return holder ? `pid ${ownerPid(holder.owner)} (since ${holder.since}${unknown ? `; whether it still runs cannot be told from here: ${unknown}` : ""})` : "a process that left no owner file";
}

// A lock whose owner is gone is taken over at once; so is something at the lock's path that is not a lock (a file).
function clearDeadLock(lockfilePath: string, note: (line: string) => void): boolean {
  const stat = fs.lstatSync(lockfilePath, { throwIfNoEntry: false });
  if (!stat) return false;
  const holder = readOwner(lockfilePath);
  const notALock = !stat.isDirectory();
  if (!notALock && (!holder || ownerState(holder.owner) !== "gone")) return false;
  fs.rmSync(lockfilePath, { recursive: true, force: true });
  fs.rmSync(ownerFile(lockfilePath), { force: true });
  note(notALock ? `ccrepro: removed ${lockfilePath}, which is not a lock (a file), and took the lock` : `ccrepro: took over the cache lock ${lockfilePath}: its owner, ${describeHolder(holder)}, is gone`);
  return true;
}

export async function withVersionLock<T>(cache: string, version: string, how: LockWait, fn: () => Promise<T>, note: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<T> {
  const lockfilePath = path.join(cache, LOCKS, `${version}.lock`);
  await fsp.mkdir(path.dirname(lockfilePath), { recursive: true });
  let release: (() => Promise<void>) | null = null;
  const started = Date.now();
  let noted = 0;
  while (!release) {
    try {
      release = await lockfile.lock(entryDir(cache, version), {
        realpath: false,
        lockfilePath,
        // A holder refreshes the lock every 10 s; one not refreshed for 20 s belongs to a dead process.
        stale: 20_000,
        update: 10_000,
        retries: 0,
        // A lost lock is survivable: placing an entry is an atomic rename that the loser detects and cleans up.
        onCompromised: () => {},
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ELOCKED" && code !== "ENOTDIR" && code !== "EEXIST") throw err;
      if (clearDeadLock(lockfilePath, note)) continue;
      const holder = describeHolder(readOwner(lockfilePath));
      if (!how.wait || Date.now() - started > LOCK_WAIT_MS) {
        throw new UserError(
          `the cache lock for ${version} (${lockfilePath}) is held by ${holder}${how.wait ? ` and was not released within ${LOCK_WAIT_MS / 60_000} min` : ""}; ` +
            `if no ccrepro is running, delete that directory and retry`,
          "CACHE_LOCKED",
        );
      }
      if (Date.now() - noted >= LOCK_WAIT_NOTE_MS) {
        note(`ccrepro: waiting for the cache lock for ${version} (${lockfilePath}), held by ${holder}, which is installing it`);
        noted = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  const owner: LockOwner = { owner: ownerToken(), version, since: new Date().toISOString() };
  fs.writeFileSync(ownerFile(lockfilePath), JSON.stringify(owner));
  try {
    return await fn();
  } finally {
    fs.rmSync(ownerFile(lockfilePath), { force: true });
    // Releasing a lock that was compromised fails; the work is already done either way.
    await release().catch(() => {});
  }
}

export async function tryVersionLock<T>(cache: string, version: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await withVersionLock(cache, version, { wait: false }, fn);
  } catch (err) {
    if (err instanceof UserError && err.code === "CACHE_LOCKED") return null;
    throw err;
  }
}

async function readManifest(dir: string): Promise<CacheManifest | null> {
  try {
    return cacheManifestSchema.parse(JSON.parse(await fsp.readFile(path.join(dir, MANIFEST), "utf8")));
  } catch {
    return null;
  }
}

// Caller holds the version lock. Anything short of a verified entry is removed, so the caller refetches.
async function readValidEntry(cache: string, version: string, verify: "quick" | "full"): Promise<CacheManifest | null> {
  const dir = entryDir(cache, version);
  if (!fs.existsSync(dir)) return null;
  const manifest = await readManifest(dir);
  if (manifest && manifest.version === version && (await executableMatches(dir, manifest, verify)) && dependenciesPlaced(dir, manifest)) return manifest;
  await removeDir(cache, dir);
  return null;
}

// An entry placed before dependencies were installed lacks them if its package declares any.
function dependenciesPlaced(dir: string, manifest: CacheManifest): boolean {
  if (manifest.dependencies !== undefined || manifest.era !== "js") return true;
  return Object.keys(declaredDependencies(path.dirname(path.join(dir, manifest.executable)))).length === 0;
}

async function executableMatches(dir: string, manifest: CacheManifest, verify: "quick" | "full"): Promise<boolean> {
  const file = path.join(dir, manifest.executable);
  const stat = await fsp.stat(file).catch(() => null);
  if (!stat?.isFile()) return false;
  // Whole milliseconds: finer mtime digits do not survive every copy or restore tool.
  const unchanged = stat.size === manifest.executableBytes && Math.round(stat.mtimeMs) === manifest.executableMtimeMs;
  if (unchanged && verify === "quick") return true;
  return stat.size === manifest.executableBytes && (await sha256File(file)) === manifest.sha256;
}

// Renames first so a half-deleted entry is never mistaken for one, then deletes.
async function removeDir(cache: string, dir: string): Promise<void> {
  const trash = path.join(cache, `${STAGING_PREFIX}trash-${randomBytes(4).toString("hex")}`);
  await fsp.rename(dir, trash).catch(() => {});
  await fsp.rm(trash, { recursive: true, force: true });
  await fsp.rm(dir, { recursive: true, force: true });
}

// Caller holds the version lock, so staging directories left for this version belong to dead processes.
async function fetchEntry(cache: string, version: string, platform: PlatformSuffix): Promise<CacheManifest> {
  const info = await releaseInfo(version);
  let spec = `${CLAUDE_PACKAGE}@${version}`;
  let executable = `package/${info.jsEntry}`;
  if (info.era === "native") {
    const native = nativePackageOf(info, platform);
    if (!native.listed) {
      const has = info.origin.kind === "claude-code" ? `${CLAUDE_PACKAGE}@${version} lists ${info.platformPackages.join(", ")}` : `so far only ${native.spec} has it`;
      throw new UserError(`release ${version} has no ${platform} build (${has}).`, "UNSUPPORTED_PLATFORM", { hint: "pick a release `ccrepro versions` lists for this machine" });
    }
    spec = native.spec;
    executable = "package/claude";
  }
  await fsp.mkdir(cache, { recursive: true });
  for (const name of await fsp.readdir(cache)) {
    if (name.startsWith(`${STAGING_PREFIX}${version}-`)) await fsp.rm(path.join(cache, name), { recursive: true, force: true });
  }
  const staging = path.join(cache, `${STAGING_PREFIX}${version}-${process.pid}-${randomBytes(4).toString("hex")}`);
  const started = performance.now();
  try {
    // The main packument's integrity is the main package's, so for its native releases pacote looks up the platform
    // package's own; a release only a platform package has carries that package's.
    const integrity = info.era === "js" || info.origin.kind === "platform-package" ? info.integrity : null;
    const fetched = await fetchPackage(spec, integrity, path.join(staging, "package"));
    const executablePath = path.join(staging, executable);
    const stat = await fsp.stat(executablePath).catch(() => null);
    if (!stat?.isFile()) {
      throw new UserError(`${spec} unpacked without ${executable}; the release cannot be run here. Pick another release.`, "INSTALL_FAILED");
    }
    if (info.era === "native") await fsp.chmod(executablePath, 0o755);
    const dependencies = info.era === "js" ? await installDeclaredDependencies(staging, spec) : {};
    const manifest: CacheManifest = {
      version,
      era: info.era,
      package: spec,
      integrity: fetched.integrity,
      executable,
      sha256: await sha256File(executablePath),
      executableBytes: stat.size,
      executableMtimeMs: Math.round((await fsp.stat(executablePath)).mtimeMs),
      bytes: await dirBytes(staging),
      downloadedBytes: fetched.downloadedBytes,
      fetchMs: Math.round(performance.now() - started),
      fetchedAt: new Date().toISOString(),
      dependencies,
    };
    await fsp.writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2) + "\n");
    return await placeEntry(cache, staging, manifest);
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

// The rename is the commit point. If another process placed the entry first (possible only after a lost lock),
// its verified copy wins and ours is dropped.
async function placeEntry(cache: string, staging: string, manifest: CacheManifest): Promise<CacheManifest> {
  try {
    await fsp.rename(staging, entryDir(cache, manifest.version));
    return manifest;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw err;
    const winner = await readValidEntry(cache, manifest.version, "full");
    if (!winner) throw err;
    return winner;
  }
}

export interface FetchedPackage {
  integrity: string;
  downloadedBytes: number;
}

// Downloads the tarball to a file (to learn its size), then unpacks it. pacote checks the tarball against the
// given integrity, or the one in the registry's metadata, as npm does. No npm cache: ours is the only copy kept.
export async function fetchPackage(spec: string, integrity: string | null, dest: string): Promise<FetchedPackage> {
  const { cache: _npmCache, ...options } = await registryOptions();
  const tarball = `${dest}.tgz`;
  // Loaded only for a download: a cached release needs no pacote.
  const { default: pacote } = await import("pacote");
  try {
    const fetched = await pacote.tarball.file(spec, tarball, { ...options, ...(integrity ? { integrity } : {}) });
    const downloadedBytes = (await fsp.stat(tarball)).size;
    await pacote.extract(`file:${tarball}`, dest, { integrity: fetched.integrity });
    return { integrity: fetched.integrity, downloadedBytes };
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "EINTEGRITY" ? "the download did not match its checksum" : (err as Error).message;
    throw new UserError(`Could not fetch ${spec}: ${reason}. Check the network and \`npm config get registry\`, then retry.`, "INSTALL_FAILED");
  } finally {
    await fsp.rm(tarball, { force: true });
  }
}

export async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fsp.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await fsp.lstat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

export interface CachedRelease {
  version: string;
  era: "js" | "native";
  dir: string;
  bytes: number;
  lastUsed: Date;
  fetchedAt: Date;
}

// Complete entries only, ascending semver.
export async function listCachedVersions(options: Pick<CacheOptions, "cacheDir"> = {}): Promise<CachedRelease[]> {
  const cache = options.cacheDir ?? cacheDir();
  const names = await fsp.readdir(cache).catch(() => [] as string[]);
  const entries: CachedRelease[] = [];
  for (const version of names.filter((n) => semver.valid(n)).sort(semver.compare)) {
    const dir = entryDir(cache, version);
    const manifest = await readManifest(dir);
    if (!manifest) continue;
    const lastUsed = await fsp.stat(path.join(dir, LAST_USED)).catch(() => null);
    entries.push({
      version,
      era: manifest.era,
      dir,
      bytes: manifest.bytes,
      lastUsed: lastUsed?.mtime ?? new Date(manifest.fetchedAt),
      fetchedAt: new Date(manifest.fetchedAt),
    });
  }
  return entries;
}

export interface Eviction {
  evicted: string[];
  // What the complete entries add up to afterwards; above the cap only when entries in use kept it there.
  totalBytes: number;
}

// Removes least-recently-used entries until the cache fits, skipping any version locked or in use by a live process.
export async function evictToFit(cache: string, maxBytes: number): Promise<Eviction> {
  await sweepOrphans(cache);
  const entries = (await listCachedVersions({ cacheDir: cache })).sort((a, b) => a.lastUsed.getTime() - b.lastUsed.getTime());
  let totalBytes = entries.reduce((sum, e) => sum + e.bytes, 0);
  const evicted: string[] = [];
  for (const entry of entries) {
    if (totalBytes <= maxBytes) break;
    if (await evictEntry(cache, entry)) {
      totalBytes -= entry.bytes;
      evicted.push(entry.version);
    }
  }
  return { evicted, totalBytes };
}

// Removes every entry whose version `keep` leaves out (a CI job's cache, cut to the releases its matrix ran before it
// is saved under a key naming them), skipping any version locked or in use. Returns the versions removed.
export async function evictAllBut(cache: string, keep: readonly string[]): Promise<string[]> {
  await sweepOrphans(cache);
  const evicted: string[] = [];
  for (const entry of await listCachedVersions({ cacheDir: cache })) {
    if (!keep.includes(entry.version) && (await evictEntry(cache, entry))) evicted.push(entry.version);
  }
  return evicted;
}

async function evictEntry(cache: string, entry: CachedRelease): Promise<boolean> {
  const removed = await tryVersionLock(cache, entry.version, async () => {
    if (await isInUse(entry.dir)) return false;
    await removeDir(cache, entry.dir);
    return true;
  });
  return removed === true;
}

// Staging and trash directories whose version is not locked were left by processes that died mid-fetch.
async function sweepOrphans(cache: string): Promise<void> {
  const names = await fsp.readdir(cache).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(STAGING_PREFIX))) {
    const version = STAGING_NAME.exec(name)?.[1];
    const dir = path.join(cache, name);
    if (!version) {
      // Trash: whoever renamed it there deletes it right away, so one older than a minute was abandoned.
      const stat = await fsp.stat(dir).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > 60_000) await fsp.rm(dir, { recursive: true, force: true });
      continue;
    }
    await tryVersionLock(cache, version, () => fsp.rm(dir, { recursive: true, force: true }));
  }
}
