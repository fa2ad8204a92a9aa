// The last release list read from the registry, kept beside the cache so that `latest` and ranges still resolve when
// the registry cannot be reached (issue 27, item 7). Written whole on every successful read; read only offline.
import fs from "node:fs";
import path from "node:path";
import * as semver from "./semver-functions.ts";
import { z } from "zod";
import type { ReleaseIndex, ReleaseInfo } from "./release-index.ts";
import { writeFileWhole } from "../core/write-whole.ts";

export const SAVED_LIST_FILE = "release-list.json";
const FORMAT = 1;

const originSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("claude-code") }),
  z.object({ kind: z.literal("platform-package"), package: z.string() }),
  z.object({ kind: z.literal("agent-sdk"), package: z.string(), sdkVersion: z.string() }),
]);

const savedSchema = z.object({
  format: z.literal(FORMAT),
  fetchedAt: z.iso.datetime(),
  distTags: z.record(z.string(), z.string()),
  releases: z.array(
    z.object({
      version: z.string(),
      publishedAt: z.iso.datetime().nullable(),
      integrity: z.string().nullable(),
      era: z.enum(["js", "native"]),
      jsEntry: z.string().nullable(),
      platformPackages: z.array(z.string()),
      origin: originSchema,
    }),
  ),
});

export function saveReleaseList(file: string, index: ReleaseIndex, fetchedAt: Date): void {
  try {
    // A publication time the registry gave malformed is kept as none, not allowed to throw.
    const releases = index.versions.map((v) => index.releases.get(v)!).map((r) => ({ ...r, publishedAt: r.publishedAt && !Number.isNaN(r.publishedAt.getTime()) ? r.publishedAt.toISOString() : null }));
    const text = `${JSON.stringify({ format: FORMAT, fetchedAt: fetchedAt.toISOString(), distTags: index.distTags, releases })}\n`;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileWhole(file, text);
  } catch {
    // A list that cannot be kept costs only the offline fallback, never the command that read it.
  }
}

// null when there is none, or it is not one this ccrepro wrote (then the registry's own error stands).
export function readSavedReleaseList(file: string): { index: ReleaseIndex; fetchedAt: Date } | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
  const parsed = savedSchema.safeParse(raw);
  if (!parsed.success) return null;
  const releases = new Map<string, ReleaseInfo>(parsed.data.releases.map((r) => [r.version, { ...r, publishedAt: r.publishedAt === null ? null : new Date(r.publishedAt) }]));
  return { index: { versions: [...releases.keys()].sort(semver.compare), distTags: parsed.data.distTags, releases }, fetchedAt: new Date(parsed.data.fetchedAt) };
}
