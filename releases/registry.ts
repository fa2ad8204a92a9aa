// Which claude releases npm has published, and which of them a version word names.
import fs from "node:fs";
import type pacote from "pacote";
import semver from "semver";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { pacoteOptionsFrom, readNpmConfig } from "./npm-config.ts";

export const CLAUDE_PACKAGE = "@anthropic-ai/claude-code";
// The native executable lives in one package per platform, named <CLAUDE_PACKAGE>-<platform suffix>.
export const PLATFORM_PACKAGE_PREFIX = `${CLAUDE_PACKAGE}-`;

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
export type Packument = z.input<typeof packumentSchema>;

export interface ReleaseInfo {
  version: string;
  publishedAt: Date | null;
  integrity: string | null;
  // "js": the main package's own entry script, run with node. "native": a per-platform package's executable.
  era: "js" | "native";
  // For "js" only: the entry script relative to the package root (cli.mjs in the earliest releases, then cli.js).
  jsEntry: string | null;
  // For "native" only: the platform packages the release lists.
  platformPackages: string[];
}

export interface ReleaseIndex {
  // Ascending semver order.
  versions: string[];
  distTags: Record<string, string>;
  releases: Map<string, ReleaseInfo>;
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
    });
  }
  return {
    versions: [...releases.keys()].sort(semver.compare),
    distTags: parsed.data["dist-tags"],
    releases,
  };
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

// The packument is read once per process; a failed read is not remembered, so a retry asks again.
export function releaseIndex(): Promise<ReleaseIndex> {
  indexPromise ??= fetchReleaseIndex().catch((err: unknown) => {
    indexPromise = undefined;
    throw err;
  });
  return indexPromise;
}

async function fetchReleaseIndex(): Promise<ReleaseIndex> {
  const options = await registryOptions();
  let packument: unknown;
  try {
    // Full metadata, because the abbreviated document the registry serves by default has no publication times.
    // pacote (half a second to load) only when the registry is read.
    const { default: pacote } = await import("pacote");
    packument = await pacote.packument(CLAUDE_PACKAGE, { ...options, fullMetadata: true });
  } catch (err) {
    throw new UserError(
      `Could not read the ${CLAUDE_PACKAGE} release list from ${options.registry ?? "the npm registry"}: ` +
        `${(err as Error).message}. Check the network and \`npm config get registry\`.`,
      "REGISTRY_UNREACHABLE",
    );
  }
  return parseReleaseIndex(packument);
}

export async function listVersions(): Promise<string[]> {
  return (await releaseIndex()).versions;
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
