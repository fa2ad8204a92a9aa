// Global setup of the tiers that start the CLI: bin/ccrepro.mjs runs dist/ when it is the build of the sources and
// the sources otherwise, and a fresh clone (`npm ci` builds) or an installed package runs dist/. A stale build is
// rebuilt here, so these tests run what CI and users run, never only the sources.
import { execFileSync } from "node:child_process";
import { builtIsCurrent } from "../bin/build-state.mjs";

const ROOT = new URL("../", import.meta.url);

export default function buildCurrent(): void {
  if (builtIsCurrent(ROOT)) return;
  process.stderr.write("dist/ is older than the sources: building it (npm run build) so the CLI under test is the one users get…\n");
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
}
