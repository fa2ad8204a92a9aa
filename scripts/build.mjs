// Compiles the tool into dist/ (gitignored) so a user's `ccrepro` starts without a TypeScript compiler: tsc emits
// JavaScript and declarations (the kit's types for editors) from the one source tree, then the plain .mjs/.sh files
// the compiled modules load beside themselves are copied, and the top-level help is written from the commands.
// Runs as `prepare` (npm ci, npm install, npm pack); `node bin/ccrepro.mjs` falls back to the sources without it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, "dist");
const require = createRequire(import.meta.url);

// A fresh directory, so nothing compiled from a deleted source survives.
fs.rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(root, "tsconfig.build.json")], { stdio: "inherit", cwd: root });

// Files the modules reach by URL next to themselves, the built-in scenarios' sources (`new`, `report --format issue`
// quote them), the templates `ccrepro new --kind` writes, and the report-shaped harness `bench-seed` runs.
const ASSETS = [/^harness\/.*\.(mjs|sh)$/, /^pipeline\/.*\.mjs$/, /^scenarios\/[^/]*\.ts$/, /^examples\/templates\/[^/]*\.ts$/, /^scripts\/seed-shape\/[^/]*\.(sh|py)$/];
for (const dir of ["harness", "pipeline", "scenarios", "examples/templates", "scripts/seed-shape"]) {
  fs.mkdirSync(path.join(dist, dir), { recursive: true });
  for (const name of fs.readdirSync(path.join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (!ASSETS.some((pattern) => pattern.test(rel))) continue;
    fs.copyFileSync(path.join(root, rel), path.join(dist, rel));
    if (rel.endsWith(".sh")) fs.chmodSync(path.join(dist, rel), 0o755);
  }
}

const { fullHelp } = await import(path.join(dist, "cli", "main.js"));
fs.writeFileSync(path.join(dist, "cli", "help.txt"), await fullHelp());
// Last: bin/ccrepro.mjs takes dist/ as current only when this stamp is newer than every source file.
fs.writeFileSync(path.join(dist, "BUILT"), `${new Date().toISOString()}\n`);
