// The npm dependencies a release's package declares, installed beside it as `npm install -g` would. Releases
// 0.2.90–0.2.109 import better-sqlite3 (their package.json's `dependencies`), and the unpacked tarball alone fails at
// start with ERR_MODULE_NOT_FOUND; every other release declares none, and installing none costs nothing.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { npmFailure } from "./npm-failure.ts";

// better-sqlite3 builds from source where its prebuilt binary cannot be downloaded: about 1.5 min on 2 cores.
const NPM_TIMEOUT_MS = 10 * 60_000;

const declaredSchema = z.object({ dependencies: z.record(z.string(), z.string()).optional() });

/** What a package's package.json declares under `dependencies`: name → range. Empty when it declares none. */
export function declaredDependencies(packageDir: string): Record<string, string> {
  // A missing or damaged package.json declares nothing: the entry's own checks refetch a damaged release.
  try {
    const parsed = declaredSchema.safeParse(JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")));
    return parsed.success ? (parsed.data.dependencies ?? {}) : {};
  } catch {
    return {};
  }
}

/**
 * Installs what the package in `root/package` declares under `dependencies` into `root/node_modules`, where its
 * entry script's imports find them, and returns each one's installed version. Optional dependencies (prebuilt image
 * libraries) are left out, as for every other release the cache holds.
 */
export async function installDeclaredDependencies(root: string, spec: string): Promise<Record<string, string>> {
  const declared = declaredDependencies(path.join(root, "package"));
  const wanted = Object.entries(declared).map(([name, range]) => `${name}@${range}`);
  if (wanted.length === 0) return {};
  const { execa } = await import("execa");
  // --prefix root: the package's own lifecycle scripts (a `prepare` that refuses to run outside its publisher) are
  // not run, only the dependencies' install scripts, which a user's ignore-scripts or global setting must not skip
  // (the native module would be left unbuilt, and the entry look whole).
  const result = await execa(
    "npm",
    ["install", "--omit=optional", "--omit=dev", "--no-audit", "--no-fund", "--no-package-lock", "--ignore-scripts=false", "--global=false", "--prefix", root, ...wanted],
    { reject: false, timeout: NPM_TIMEOUT_MS, stdin: "ignore", cleanup: true },
  );
  const installed = Object.fromEntries(Object.keys(declared).map((name) => [name, installedVersion(root, name)]));
  const missing = Object.keys(declared).filter((name) => installed[name] === null);
  if (result.exitCode !== 0 || missing.length > 0) {
    throw new UserError(`${spec} imports ${wanted.join(", ")}, which npm could not install beside it: ${npmFailure(result)}.`, "INSTALL_FAILED", {
      hint: "check the network and `npm config get registry`; a native module (better-sqlite3) builds from source when no prebuilt binary downloads, which needs python3, make and a C++ compiler. Or pick another release with --claude",
    });
  }
  return installed as Record<string, string>;
}

function installedVersion(root: string, name: string): string | null {
  try {
    const parsed = z.object({ version: z.string() }).safeParse(JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")));
    return parsed.success ? parsed.data.version : null;
  } catch {
    return null;
  }
}

/**
 * The dependencies the package in `packageDir` declares that its entry script could not import from where it lies: a
 * copy unpacked alone, outside the cache, has them all missing. Resolved as node resolves a bare import, up the folders.
 */
export function unresolvedDependencies(packageDir: string): string[] {
  const resolveFrom = createRequire(path.join(packageDir, "package.json"));
  return Object.keys(declaredDependencies(packageDir)).filter((name) => {
    try {
      resolveFrom.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}
