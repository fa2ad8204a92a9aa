// The releases a sweep's --versions word names: each comma word resolved, the union ascending.
import { UserError } from "../core/errors.ts";
import { resolveVersions } from "../releases/registry.ts";

// "2.1.245 - 2.1.290", ">=2.1.270 <2.1.284", "2.1.251,2.1.270,latest": each comma word resolved, the union ascending.
export async function resolveSweepVersions(word: string): Promise<string[]> {
  const words = word.split(",").map((w) => w.trim()).filter(Boolean);
  if (words.length === 0) throw new UserError("--versions needs a semver range or a comma list of versions", "MISSING_ARGUMENT");
  const all = new Set((await Promise.all(words.map((w) => resolveVersions(w)))).flat());
  return [...all].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}
