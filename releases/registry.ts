// Which claude releases npm has published, and which of them a version word names.
import fs from "node:fs";
import path from "node:path";
import type pacote from "pacote";
import * as semver from "./semver-functions.ts";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { cacheDir } from "./cache-dir.ts";
import { pacoteOptionsFrom, readNpmConfig } from "./npm-config.ts";
import { detectPlatform } from "./platform.ts";
import type { ReleaseIndex, ReleaseInfo, ReleaseOrigin } from "./release-index.ts";
import { readSavedReleaseList, saveReleaseList, SAVED_LIST_FILE } from "./saved-release-list.ts";
export type { ReleaseIndex, ReleaseInfo, ReleaseOrigin } from "./release-index.ts";

export const CLAUDE_PACKAGE = "@anthropic-ai/claude-code";
// The native executable lives in one package per platform, named <CLAUDE_PACKAGE>-<platform suffix>.
export const PLATFORM_PACKAGE_PREFIX = `${CLAUDE_PACKAGE}-`;
export const SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";
// The Agent SDK's own per-platform package, which carries a claude executable too.
export const sdkPlatformPackage = (platform: string) => `${SDK_PACKAGE}-${platform}`;

const versionManifestSchema = z.object({
  bin: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
  dist: z.object({ integrity: z.string().optional(), tarball: z.string() }),
});

const packumentSchema = z.object({
  "dist-tags": z.record(z.string(), z.string()),
  versions: z.record(z.string(), versionManifestSchema),
  time: z.record(z.string(), z.string()).optional(),
});
/** @internal exported for its unit tests */
export type Packument = z.input<typeof packumentSchema>;

// Where a release comes from, for a person: "only in @anthropic-ai/claude-code-linux-x64 so far".
export function originWords(origin: ReleaseOrigin): string {
  switch (origin.kind) {
    case "claude-code":
      return CLAUDE_PACKAGE;
    case "platform-package":
      return `only in ${origin.package} so far`;
    case "agent-sdk":
      return `only in ${origin.package}@${origin.sdkVersion} so far`;
  }
}

// The package a native release's executable is fetched from, and the version of it to fetch.
export function nativePackageOf(info: ReleaseInfo, platform: string): { spec: string; listed: boolean } {
  const own = `${PLATFORM_PACKAGE_PREFIX}${platform}`;
  switch (info.origin.kind) {
    case "claude-code":
      return { spec: `${own}@${info.version}`, listed: info.platformPackages.includes(own) };
    case "platform-package":
      return { spec: `${info.origin.package}@${info.version}`, listed: info.origin.package === own };
    case "agent-sdk":
      return { spec: `${info.origin.package}@${info.origin.sdkVersion}`, listed: info.origin.package === sdkPlatformPackage(platform) };
  }
}

export function parseReleaseIndex(raw: unknown): ReleaseIndex {
  const parsed = packumentSchema.safeParse(raw);
  if (!parsed.success) {
    throw new UserError(
      `The registry's metadata for ${CLAUDE_PACKAGE} has an unexpected shape (${parsed.error.issues[0]?.message}). ` +
        `Check that your npm registry (npm config get registry) mirrors npmjs.org faithfully.`,
      "BAD_REGISTRY_DATA",
    );
  }
  const { versions, time } = parsed.data;
  const releases = new Map<string, ReleaseInfo>();
  for (const [version, manifest] of Object.entries(versions)) {
    if (!semver.valid(version)) continue;
    const platformPackages = Object.keys(manifest.optionalDependencies ?? {}).filter((d) =>
      d.startsWith(PLATFORM_PACKAGE_PREFIX),
    );
    const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.["claude"];
    // The package contents decide the era, not a version cut-off: 2.1.113 was the first wrapper release.
    const era = platformPackages.length > 0 ? "native" : "js";
    const stamp = time?.[version];
    releases.set(version, {
      version,
      publishedAt: stamp ? new Date(stamp) : null,
      integrity: manifest.dist.integrity ?? null,
      era,
      jsEntry: era === "js" ? (bin ?? "cli.js").replace(/^\.\//, "") : null,
      platformPackages,
      origin: { kind: "claude-code" },
    });
  }
  return {
    versions: [...releases.keys()].sort(semver.compare),
    distTags: parsed.data["dist-tags"],
    releases,
  };
}

const extraPackumentSchema = z.object({
  "dist-tags": z.record(z.string(), z.string()),
  versions: z.record(
    z.string(),
    z.object({
      dist: z.object({ integrity: z.string().optional() }).optional(),
      claudeCodeVersion: z.string().optional(),
      optionalDependencies: z.record(z.string(), z.string()).optional(),
    }),
  ),
  time: z.record(z.string(), z.string()).optional(),
});

export type ExtraSource =
  // <CLAUDE_PACKAGE>-<platform>'s packument: its versions are claude's.
  | { kind: "platform-package"; package: string }
  // The Agent SDK's packument: each version names the claude it carries, in the SDK's platform package `package`.
  | { kind: "agent-sdk"; package: string };

// The releases only `source` has a binary for, added to `index` (whose own entries win). A document of another shape
// adds nothing: these sources only widen the list the main package gives.
export function withExtraReleases(index: ReleaseIndex, raw: unknown, source: ExtraSource): ReleaseIndex {
  const parsed = extraPackumentSchema.safeParse(raw);
  if (!parsed.success) return index;
  const { versions, time } = parsed.data;
  const claudeOf = (version: string): string | null => {
    if (!semver.valid(version)) return null;
    if (source.kind === "platform-package") return version;
    const manifest = versions[version];
    const carried = manifest?.claudeCodeVersion;
    return carried && semver.valid(carried) && manifest?.optionalDependencies?.[source.package] ? carried : null;
  };
  const releases = new Map(index.releases);
  // Only what was the newest release when it was published: a platform package also holds placeholders (a 0.0.0 of
  // 2026-09) and the SDK older builds, which are no releases of their own. A release the main package never listed
  // stays one after it moves on (2.1.333–2.1.336 were published only in the platform package, then the main package
  // went from 2.1.332 to 2.1.337), so it is judged against the main package as it stood then; without a publication
  // time, against the main package's newest now.
  const mainAt = (when: Date | null) =>
    index.versions.filter((v) => when === null || (index.releases.get(v)?.publishedAt ?? when) <= when).at(-1);
  for (const [version, manifest] of Object.entries(versions)) {
    const claude = claudeOf(version);
    const stamp = time?.[version];
    const newest = mainAt(stamp ? new Date(stamp) : null);
    // Published before the main package's first release: a build of its own, never a release.
    const beforeAny = stamp !== undefined && newest === undefined && index.versions.length > 0;
    if (claude === null || releases.has(claude) || beforeAny || (newest !== undefined && !semver.gt(claude, newest))) continue;
    releases.set(claude, {
      version: claude,
      publishedAt: stamp ? new Date(stamp) : null,
      // The SDK's integrity is its own package's, not its platform package's: pacote looks that one up.
      integrity: source.kind === "platform-package" ? (manifest.dist?.integrity ?? null) : null,
      era: "native",
      jsEntry: null,
      platformPackages: [],
      origin: source.kind === "platform-package" ? { kind: "platform-package", package: source.package } : { kind: "agent-sdk", package: source.package, sdkVersion: version },
    });
  }
  // "latest" is the newest release a binary can be had for, whichever package published it first.
  const distTags = { ...index.distTags };
  const tagged = parsed.data["dist-tags"]["latest"];
  const latest = tagged ? claudeOf(tagged) : null;
  if (latest && !semver.prerelease(latest) && releases.has(latest) && (!distTags["latest"] || semver.gt(latest, distTags["latest"]))) distTags["latest"] = latest;
  return { versions: [...releases.keys()].sort(semver.compare), distTags, releases };
}

// The few published versions either side of one that is not, for error messages.
export function nearestVersions(versions: readonly string[], version: string, each = 3): string[] {
  const at = versions.findIndex((v) => semver.gt(v, version));
  const split = at === -1 ? versions.length : at;
  return versions.slice(Math.max(0, split - each), split + each);
}

function unknownVersion(index: ReleaseIndex, version: string): UserError {
  const near = nearestVersions(index.versions, version);
  return new UserError(
    `${version} is not a published ${CLAUDE_PACKAGE} release. Nearest published: ${near.join(", ")}. ` +
      `Pick one of those, or a range such as ">=${near[0]} <=${near.at(-1)}".`,
    "UNKNOWN_VERSION",
  );
}

const LATEST_N = /^latest-(\d+)$/;
const SINCE = /^since:(.+)$/;

// Resolves a version word to published versions in ascending semver order. Words: an exact version, a dist-tag
// ("latest"), "latest-N" (the N newest up to the latest tag), a semver range, or "since:<ISO date>".
export function resolveVersionWord(index: ReleaseIndex, word: string): string[] {
  const trimmed = word.trim();
  const since = SINCE.exec(trimmed);
  if (since) {
    const after = Date.parse(since[1]!);
    if (Number.isNaN(after)) {
      throw new UserError(`"${since[1]}" in "${trimmed}" is not a date; write since:2026-11-01 or an ISO time.`, "BAD_VERSION_WORD");
    }
    // No release since then is a normal answer for a nightly run, so this returns an empty list.
    return index.versions.filter((v) => (index.releases.get(v)?.publishedAt?.getTime() ?? -Infinity) > after);
  }
  const latestN = LATEST_N.exec(trimmed);
  if (latestN) {
    const n = Number(latestN[1]);
    if (n < 1) throw new UserError(`"${trimmed}" asks for no releases; use latest-1 or more.`, "BAD_VERSION_WORD");
    const ceiling = index.distTags["latest"] ?? index.versions.at(-1)!;
    const upTo = index.versions.filter((v) => semver.lte(v, ceiling) && !semver.prerelease(v));
    return upTo.slice(-n);
  }
  const tagged = index.distTags[trimmed];
  if (tagged) return [tagged];
  const exact = semver.valid(trimmed);
  if (exact) {
    if (!index.releases.has(exact)) throw unknownVersion(index, exact);
    return [exact];
  }
  if (semver.validRange(trimmed)) {
    const matching = index.versions.filter((v) => semver.satisfies(v, trimmed));
    // An empty range is almost always a typo, unlike an empty since: window.
    if (matching.length === 0) {
      throw new UserError(
        `No published ${CLAUDE_PACKAGE} release matches "${trimmed}" (published: ${index.versions[0]} … ${index.versions.at(-1)}).`,
        "NO_MATCHING_VERSIONS",
      );
    }
    return matching;
  }
  throw new UserError(
    `"${trimmed}" is not a version word. Use an exact version (2.1.281), latest, latest-N, a semver range ` +
      `(">=2.1.280 <2.1.283"), since:<ISO date>, or a path to a local binary (./claude).`,
    "BAD_VERSION_WORD",
  );
}

// Versions strictly between two releases, ascending, whichever order the two are given in.
export function versionsBetweenIn(index: ReleaseIndex, a: string, b: string): string[] {
  for (const v of [a, b]) if (!index.releases.has(v)) throw unknownVersion(index, v);
  const [low, high] = semver.lte(a, b) ? [a, b] : [b, a];
  return index.versions.filter((v) => semver.gt(v, low) && semver.lt(v, high));
}

// pacote does not read npm's configuration itself, so it is read here from npm's files and environment, once, and only
// when something must be fetched (an exact release already cached needs no registry).
let registryOptionsPromise: Promise<pacote.Options> | undefined;

export function registryOptions(): Promise<pacote.Options> {
  registryOptionsPromise ??= Promise.resolve().then(() => pacoteOptionsFrom(readNpmConfig(), readCaFile) as pacote.Options);
  return registryOptionsPromise;
}

function readCaFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(`npm's cafile ${file} cannot be read (${(err as Error).message}); fix or unset it in your .npmrc.`, "BAD_CONFIG");
  }
}

let indexPromise: Promise<ReleaseIndex> | undefined;

// The release list is read once per process; a failed read is not remembered, so a retry asks again.
export function releaseIndex(): Promise<ReleaseIndex> {
  indexPromise ??= fetchReleaseIndex().catch((err: unknown) => {
    indexPromise = undefined;
    throw err;
  });
  return indexPromise;
}

async function fetchReleaseIndex(): Promise<ReleaseIndex> {
  const options = await registryOptions();
  // pacote (half a second to load) only when the registry is read.
  const { default: pacote } = await import("pacote");
  const platform = detectPlatform();
  // Full metadata, because the abbreviated document the registry serves by default has no publication times (and,
  // for the SDK, no claudeCodeVersion). The two extra sources only widen the list: if either fails, the main one stands.
  const read = (name: string) => pacote.packument(name, { ...options, fullMetadata: true });
  const [main, platformOnly, sdk] = await Promise.allSettled([read(CLAUDE_PACKAGE), read(`${PLATFORM_PACKAGE_PREFIX}${platform}`), read(SDK_PACKAGE)]);
  if (main.status === "rejected") {
    const reason = main.reason as Error & { code?: string; statusCode?: number };
    const where = options.registry ?? "the npm registry";
    // The registry answered (401, 403, 404…): a stale list would hide what must be fixed in npm's configuration.
    if (reason.statusCode !== undefined || /^E\d{3}$/.test(reason.code ?? "")) {
      throw new UserError(`${where} refused the ${CLAUDE_PACKAGE} release list: ${reason.message}.`, "REGISTRY_REFUSED", {
        hint: "check the registry and its credentials in your .npmrc (npm config get registry; npm whoami --registry …)",
      });
    }
    const saved = readSavedReleaseList(savedListFile());
    if (!saved) {
      throw new UserError(`Could not reach ${where} for the ${CLAUDE_PACKAGE} release list: ${reason.message}. Check the network and \`npm config get registry\`.`, "REGISTRY_UNREACHABLE", {
        hint: offlineHint(),
      });
    }
    process.stderr.write(`ccrepro: the registry is unreachable, so this uses the release list read ${ageOf(saved.fetchedAt)} ago (${saved.fetchedAt.toISOString()}); releases published since are missing from it\n`);
    return saved.index;
  }
  let index = parseReleaseIndex(main.value);
  if (platformOnly.status === "fulfilled") index = withExtraReleases(index, platformOnly.value, { kind: "platform-package", package: `${PLATFORM_PACKAGE_PREFIX}${platform}` });
  if (sdk.status === "fulfilled") index = withExtraReleases(index, sdk.value, { kind: "agent-sdk", package: sdkPlatformPackage(platform) });
  saveReleaseList(savedListFile(), index, new Date());
  return index;
}

const savedListFile = () => path.join(cacheDir(), SAVED_LIST_FILE);

function offlineHint(): string {
  const cached = fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()).filter((name) => semver.valid(name)).sort(semver.compare) : [];
  const which = cached.length > 0 ? `cached here: ${cached.join(", ")}` : `none is cached in ${cacheDir()} yet`;
  return `offline, an exact release already in the cache works (--claude <version>, not latest or a range); ${which}`;
}

function ageOf(at: Date): string {
  const minutes = Math.max(0, Math.round((Date.now() - at.getTime()) / 60_000));
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

export async function releaseInfo(version: string): Promise<ReleaseInfo> {
  const index = await releaseIndex();
  const info = index.releases.get(version);
  if (!info) throw unknownVersion(index, version);
  return info;
}

export async function resolveVersions(word: string): Promise<string[]> {
  return resolveVersionWord(await releaseIndex(), word);
}

export async function versionsBetween(older: string, newer: string): Promise<string[]> {
  return versionsBetweenIn(await releaseIndex(), older, newer);
}
