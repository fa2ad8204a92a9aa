// Global setup of the tiers that open reports in a browser: Debian's Chromium is installed when it is missing and this
// user may (root, with apt), so the README's `npm ci && npm test` passes on a fresh machine; otherwise the run stops
// at once with the package to install. A browser test never skips.
import fs from "node:fs";
import { execFileSync } from "node:child_process";

export const CHROMIUM_PATH = process.env["CHROMIUM"] ?? "/usr/bin/chromium";

export default function provisionChromium(): void {
  if (fs.existsSync(CHROMIUM_PATH)) return;
  const hint = `The browser tests need Chromium at ${CHROMIUM_PATH}: install Debian's package "chromium" (apt-get install chromium), or set CHROMIUM to a Chromium executable.`;
  if (process.getuid?.() !== 0 || !fs.existsSync("/usr/bin/apt-get")) throw new Error(hint);
  process.stderr.write(`Chromium is missing: installing Debian's "chromium" with apt-get (once)…\n`);
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  } catch (error) {
    throw new Error(`${hint} (apt-get failed: ${(error as Error).message})`);
  }
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`${hint} (apt-get installed it, but not at ${CHROMIUM_PATH})`);
}
