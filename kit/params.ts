// Parameter types that accept both typed values (configs) and the strings `--param key=value` gives.
import { z } from "zod";

export function choice<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.enum(values, { error: () => `expected one of ${values.join(" | ")}` }).default(fallback);
}

export function flag(fallback: boolean) {
  return z
    .union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")], {
      error: () => "expected true or false",
    })
    .default(fallback);
}

export function milliseconds(fallback: number, max = 600_000) {
  return z.coerce
    .number({ error: () => "expected a number of milliseconds" })
    .int("expected a whole number of milliseconds")
    .min(0, "expected 0 or more milliseconds")
    .max(max, `expected at most ${max} ms`)
    .default(fallback);
}

export function count(fallback: number, min: number, max: number) {
  return z.coerce
    .number({ error: () => "expected a whole number" })
    .int("expected a whole number")
    .min(min, `expected at least ${min}`)
    .max(max, `expected at most ${max}`)
    .default(fallback);
}
