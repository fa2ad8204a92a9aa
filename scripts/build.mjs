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

// The CLI, the kit and the built-in scenarios as one module graph in dist/bundle/, split where a command loads lazily.
// A run loaded some 275 modules (95 of them zod's); resolving, reading, linking and compiling them one by one cost
// about 600 ms of CPU against 265 ms for the same code bundled (docs/startup.md). Packages that read files beside
// themselves, or load native code, stay outside and resolve from node_modules as before. Every output sits in one
// folder, so each module's import.meta.url can be rewritten to its compiled file's place, where its assets are.
const bundleDir = path.join(dist, "bundle");
const BUNDLED_PACKAGES = new Set(["zod", "hono", "@hono/node-server", "semver", "diff", "commander", "p-limit", "yocto-queue", "proper-lockfile", "graceful-fs", "retry", "signal-exit"]);
const packageOf = (specifier) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
const scenarioEntries = fs.readdirSync(path.join(dist, "scenarios")).filter((name) => name.endsWith(".js") && name !== "index.js");
const esbuild = await import("esbuild");
const ts = require("typescript");
// The module's source with every `import.meta.url` expression (not the words in a string or comment) replaced.
function withOwnUrl(source, replacement) {
  const file = ts.createSourceFile("module.js", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const spans = [];
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && node.expression.keywordToken === ts.SyntaxKind.ImportKeyword && node.name.text === "url") {
      spans.push([node.getStart(file), node.getEnd()]);
    } else ts.forEachChild(node, visit);
  };
  visit(file);
  return spans.reverse().reduce((text, [start, end]) => text.slice(0, start) + replacement + text.slice(end), source);
}
await esbuild.build({
  entryPoints: [path.join(dist, "cli", "main.js"), path.join(dist, "kit", "index.js"), path.join(dist, "kit", "checkers.js"), ...scenarioEntries.map((name) => path.join(dist, "scenarios", name))],
  outdir: bundleDir,
  entryNames: "[name]",
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Less source for V8 to parse at start-up; identifiers are not minified, so stacks still read.
  minifyWhitespace: true,
  minifySyntax: true,
  // Read by the modules that must know they run bundled (pipeline/scenario-source.ts).
  define: { CCREPRO_BUNDLED: "true" },
  // CommonJS packages inside the bundle still call require for node's built-ins.
  banner: { js: 'import { createRequire as __ccreproRequire } from "node:module"; const require = __ccreproRequire(import.meta.url);' },
  logLevel: "warning",
  plugins: [
    {
      name: "ccrepro-layout",
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("node:") || BUNDLED_PACKAGES.has(packageOf(args.path)) ? undefined : { path: args.path, external: true }));
        build.onLoad({ filter: /\.js$/ }, (args) => {
          if (!args.path.startsWith(dist + path.sep)) return undefined;
          const own = `new URL(${JSON.stringify(path.relative(bundleDir, args.path).split(path.sep).join("/"))}, import.meta.url).href`;
          return { contents: withOwnUrl(fs.readFileSync(args.path, "utf8"), own), loader: "js" };
        });
      },
    },
  ],
});

const { fullHelp } = await import(path.join(dist, "cli", "main.js"));
fs.writeFileSync(path.join(dist, "cli", "help.txt"), await fullHelp());
// Last: bin/ccrepro.mjs takes dist/ as current only when this stamp is newer than every source file.
fs.writeFileSync(path.join(dist, "BUILT"), `${new Date().toISOString()}\n`);
