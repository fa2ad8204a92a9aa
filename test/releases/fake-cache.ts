// A release cache entry as installRelease leaves it (manifest, executable, last-used mark), without downloading one.
import fs from "node:fs";
import path from "node:path";
import type { CacheManifest } from "../../releases/release-cache.ts";

export function fakeEntry(cache: string, version: string, lastUsedSecondsAgo: number, bytes = 1000): void {
  const dir = path.join(cache, version);
  fs.mkdirSync(path.join(dir, "package"), { recursive: true });
  fs.writeFileSync(path.join(dir, "package", "claude"), "x");
  const manifest: CacheManifest = {
    version,
    era: "native",
    package: `@anthropic-ai/claude-code-linux-x64@${version}`,
    integrity: "sha512-x",
    executable: "package/claude",
    sha256: "0".repeat(64),
    executableBytes: 1,
    executableMtimeMs: 0,
    bytes,
    downloadedBytes: bytes,
    fetchMs: 1,
    fetchedAt: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(dir, "complete.json"), JSON.stringify(manifest));
  const lastUsed = path.join(dir, "last-used");
  fs.writeFileSync(lastUsed, "");
  const when = new Date(Date.now() - lastUsedSecondsAgo * 1000);
  fs.utimesSync(lastUsed, when, when);
}
