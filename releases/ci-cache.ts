// A CI job's release cache, cut to what its matrix needs before it is saved under a key naming exactly that
// (`ccrepro ci prune-cache`): releases restored from an older key and not run tonight would otherwise ride along in
// every later save.
import { cacheDir } from "./cache-dir.ts";
import { evictAllBut } from "./release-cache.ts";
import { evictSdkAllBut } from "./sdk-install.ts";

export interface CacheKeep {
  releases: readonly string[];
  sdk: readonly string[];
}

// What was removed: claude releases, and Agent SDK releases as sdk-<version>.
export async function pruneCacheTo(keep: CacheKeep, cache: string = cacheDir()): Promise<string[]> {
  const releases = await evictAllBut(cache, keep.releases);
  const sdk = await evictSdkAllBut(cache, keep.sdk);
  return [...releases, ...sdk.map((version) => `sdk-${version}`)];
}
