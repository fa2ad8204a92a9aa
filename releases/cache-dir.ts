// Where ccrepro keeps downloaded releases (and the last release list it read): one place, so the registry and the
// cache agree on it.
import os from "node:os";
import path from "node:path";

export function cacheDir(): string {
  if (process.env["CCREPRO_CACHE_DIR"]) return path.resolve(process.env["CCREPRO_CACHE_DIR"]);
  const xdg = process.env["XDG_CACHE_HOME"] || path.join(os.homedir(), ".cache");
  return path.join(xdg, "ccrepro", "releases");
}
