// Module hooks for the confined check's child (confined-check.ts): TypeScript is transpiled in-process with the
// typescript package, because tsx's esbuild runs as a child process, which the child may not start; and the bare
// specifiers "ccrepro" and "ccrepro/checkers" resolve to this checkout's entries, as resolve-ccrepro.mjs does for tsx.
import fs from "node:fs";
import { createRequire } from "node:module";

let entries = {};
let ts;

export function initialize(data) {
  entries = data.entries;
  ts = createRequire(import.meta.url)("typescript");
}

export async function resolve(specifier, context, next) {
  return next(entries[specifier] ?? specifier, context);
}

export async function load(url, context, next) {
  const ours = url.startsWith("file:") && !url.includes("/node_modules/");
  if (ours && /\.(ts|mts)$/.test(url)) {
    const source = fs.readFileSync(new URL(url), "utf8");
    const { outputText } = ts.transpileModule(source, {
      fileName: new URL(url).pathname,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false, inlineSourceMap: true },
    });
    return { format: "module", source: outputText, shortCircuit: true };
  }
  // A scenario .js file outside any "type": "module" package still loads as ESM, as under tsx.
  if (ours && url.endsWith(".js")) {
    const loaded = await next(url, context);
    return loaded.format === "commonjs" ? { format: "module", source: fs.readFileSync(new URL(url), "utf8"), shortCircuit: true } : loaded;
  }
  return next(url, context);
}
