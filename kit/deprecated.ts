// Old kit names still work for one release: each use warns once, naming what replaces it.
const warned = new Set<string>();

export function deprecated(old: string, replacement: string): void {
  if (warned.has(old)) return;
  warned.add(old);
  process.emitWarning(`${old} is deprecated and goes in the next release: ${replacement}`, { type: "DeprecationWarning", code: "CCREPRO_KIT" });
}
