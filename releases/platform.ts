// Which @anthropic-ai/claude-code-<platform> package carries the native executable for this machine.
import fs from "node:fs";
import { UserError } from "../core/errors.ts";

export const PLATFORM_SUFFIXES = [
  "linux-x64",
  "linux-arm64",
  "linux-x64-musl",
  "linux-arm64-musl",
  "darwin-x64",
  "darwin-arm64",
] as const;
export type PlatformSuffix = (typeof PLATFORM_SUFFIXES)[number];

export interface HostFacts {
  platform: NodeJS.Platform;
  arch: string;
  musl: boolean;
}

export function platformSuffix(host: HostFacts): PlatformSuffix {
  const base = `${host.platform}-${host.arch}`;
  const candidate = host.platform === "linux" && host.musl ? `${base}-musl` : base;
  const known = PLATFORM_SUFFIXES.find((s) => s === candidate);
  if (!known) {
    throw new UserError(
      `No native Claude Code build exists for ${candidate}; supported: ${PLATFORM_SUFFIXES.join(", ")}. ` +
        `Use a release up to 2.1.112 (run with node) or pass --claude <path> to a binary you built.`,
      "UNSUPPORTED_PLATFORM",
    );
  }
  return known;
}

// glibc's Node reports the runtime glibc version; musl builds leave it out. The loader file is the fallback
// for when the report is unavailable.
export function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  if (header) return header.glibcVersionRuntime === undefined;
  try {
    return fs.readdirSync("/lib").some((f) => f.startsWith("ld-musl-"));
  } catch {
    return false;
  }
}

export function detectPlatform(): PlatformSuffix {
  return platformSuffix({ platform: process.platform, arch: process.arch, musl: isMusl() });
}
