// Parameter types that accept both typed values (configs) and the strings `--param key=value` gives, each with an
// options object.
import { z } from "zod";
import { optionsObject } from "./definition-error.ts";

/**
 * One of a list of words; `--param how=sigterm`.
 *
 * @example how: choice(["sigkill", "sigterm"], { default: "sigkill" })
 */
export function choice<const T extends readonly [string, ...string[]]>(values: T, options: { default: T[number] }) {
  const fallback = optionsObject(options, "choice(values, …)", `choice(${JSON.stringify(values)}, { default: ${JSON.stringify(values[0])} })`).default;
  return z.enum(values, { error: () => `expected one of ${values.join(" | ")}` }).default(fallback);
}

/**
 * true or false; `--param background=false`.
 *
 * @example background: flag({ default: true })
 */
export function flag(options: { default: boolean }) {
  const fallback = optionsObject(options, "flag(…)", "flag({ default: true })").default;
  return z
    .union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")], {
      error: () => "expected true or false",
    })
    .default(fallback);
}

/**
 * A whole number of milliseconds from 0 to `max` (default 600 000).
 *
 * @example grace: milliseconds({ default: 4000, max: 60_000 })
 */
export function milliseconds(options: { default: number; max?: number }) {
  const { default: fallback, max = 600_000 } = optionsObject(options, "milliseconds(…)", "milliseconds({ default: 4000, max: 60_000 })");
  return z.coerce
    .number({ error: () => "expected a number of milliseconds" })
    .int("expected a whole number of milliseconds")
    .min(0, "expected 0 or more milliseconds")
    .max(max, `expected at most ${max} ms`)
    .default(fallback);
}

/**
 * A whole number from `min` to `max`.
 *
 * @example maxTurns: count({ default: 2, min: 1, max: 50 })
 */
export function count(options: { default: number; min: number; max: number }) {
  const { default: fallback, min, max } = optionsObject(options, "count(…)", "count({ default: 2, min: 1, max: 50 })");
  return z.coerce
    .number({ error: () => "expected a whole number" })
    .int("expected a whole number")
    .min(min, `expected at least ${min}`)
    .max(max, `expected at most ${max}`)
    .default(fallback);
}
