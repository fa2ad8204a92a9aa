// Parsed JSON values: path naming, string walking/mapping, key stripping and canonical text, shared by the comparers.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type PathKey = string | number;

export function isJsonObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ["messages", 7, "content", 0, "text"] → "messages[7].content[0].text", the form every finding cites.
export function formatPath(keys: readonly PathKey[]): string {
  return keys.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? key : `.${key}`)).join("");
}

export function valueAt(value: Json | undefined, keys: readonly PathKey[]): Json | undefined {
  let current = value;
  for (const key of keys) {
    if (typeof key === "number") current = Array.isArray(current) ? current[key] : undefined;
    else current = isJsonObject(current) ? current[key] : undefined;
  }
  return current;
}

export function walkStrings(value: Json, keys: readonly PathKey[], visit: (text: string, keys: readonly PathKey[]) => void): void {
  if (typeof value === "string") visit(value, keys);
  else if (Array.isArray(value)) value.forEach((item, i) => walkStrings(item, [...keys, i], visit));
  else if (isJsonObject(value)) for (const [key, item] of Object.entries(value)) walkStrings(item, [...keys, key], visit);
}

export function mapStrings(value: Json, keys: readonly PathKey[], map: (text: string, keys: readonly PathKey[]) => string): Json {
  if (typeof value === "string") return map(value, keys);
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, [...keys, i], map));
  if (isJsonObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, [...keys, key], map)]));
  }
  return value;
}

// A copy without `key` on any object at any depth (used for cache_control, which is compared on its own).
export function withoutKey(value: Json, key: string): Json {
  if (Array.isArray(value)) return value.map((item) => withoutKey(item, key));
  if (isJsonObject(value)) {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== key).map(([k, item]) => [k, withoutKey(item, key)]));
  }
  return value;
}

// Every object holding `key`, with the path of that object and the key's value.
export function findKey(value: Json, key: string, keys: readonly PathKey[]): { keys: PathKey[]; value: Json }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => findKey(item, key, [...keys, i]));
  if (!isJsonObject(value)) return [];
  const here = key in value ? [{ keys: [...keys], value: value[key] as Json }] : [];
  return [...here, ...Object.entries(value).flatMap(([k, item]) => (k === key ? [] : findKey(item, key, [...keys, k])))];
}

// JSON text with object keys sorted, so key order (which does not reach the prompt) never counts as a change.
export function canonicalJson(value: Json, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isJsonObject(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k] as Json)]));
  return value;
}
