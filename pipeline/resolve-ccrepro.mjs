// Module hook for scenario files: the bare specifiers "ccrepro" and "ccrepro/checkers" resolve to this checkout's
// public entries, so a file anywhere on disk imports them without installing anything, and a .ts or .js file outside
// any "type": "module" package still loads as ESM (scenario files use import/export; they would otherwise be taken for CommonJS).
// Plain .mjs: it runs in the module-hooks thread, before any TypeScript loader is in place there.
let entries = {};

export function initialize(data) {
  entries = data.entries;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(entries[specifier] ?? specifier, context);
  const commonOrUnknown = !resolved.format || resolved.format === "commonjs" || resolved.format === "commonjs-typescript";
  if (commonOrUnknown && resolved.url.startsWith("file:") && /\.(ts|js)$/.test(resolved.url) && !resolved.url.includes("/node_modules/")) {
    return { ...resolved, format: "module" };
  }
  return resolved;
}
