// One error base: a code from a closed list, the cause kept, the hint printed on its own line; anything else is a
// bug of ccrepro's, printed with its stack. Both end the CLI with exit 3.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { describeUserError, ERROR_CODES, isUserError, UserError } from "../../core/errors.ts";
import { BisectError } from "../../bisect/errors.ts";
import { FlakyBisectError } from "../../bisect/flaky-bisector.ts";
import { OutsideRunError } from "../../harness/run-files.ts";
import { ScenarioDefinitionError } from "../../kit/scenario.ts";

const root = path.join(import.meta.dirname, "..", "..");
// The code, not what runs and tests write (a runs/ of thousands of run directories made this walk take seconds).
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (["node_modules", "dist", "test", "runs", "test-output"].includes(e.name) || e.name.startsWith(".") ? [] : sources(path.join(dir, e.name))) : /\.(ts|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : []));

describe("UserError", () => {
  it("keeps its cause and hint, and is described as its message and then its hint", () => {
    const cause = Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT" });
    const error = new UserError("cannot read runs/x/run.json", "BAD_RUN_DIR", { cause, hint: "pass a directory written by ccrepro run" });
    expect(error.cause).toBe(cause);
    expect(describeUserError(error)).toEqual({ lines: ["ccrepro: cannot read runs/x/run.json", "  pass a directory written by ccrepro run"], exitCode: 3 });
  });

  it("takes only a listed code", () => {
    // @ts-expect-error: a code outside ERROR_CODES does not type-check
    const unlisted = new UserError("x", "NOT_A_CODE");
    expect(ERROR_CODES).not.toContain(unlisted.code);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it("is the base of the kit's and the bisect's errors, with their codes listed", () => {
    const definition = new ScenarioDefinitionError(["name: required"]);
    expect(definition).toBeInstanceOf(UserError);
    expect(describeUserError(definition).lines).toEqual(["ccrepro: name: required", "  Fix those fields and run again"]);
    const bisect = new BisectError({ kind: "bad-input", message: "--old is newer than --new" });
    expect(bisect.code).toBe("BISECT_BAD_INPUT");
    expect(ERROR_CODES).toContain(bisect.code);
  });

  it("is the base of the flaky bisection's stops and of a link out of a run directory, with listed codes", () => {
    const stop = new FlakyBisectError({ kind: "no-signal", message: "neither end showed the signal", runs: 4, reused: 0, steps: [] });
    expect(stop).toBeInstanceOf(UserError);
    expect(stop.code).toBe("BISECT_NO_SIGNAL");
    expect(new FlakyBisectError({ kind: "budget-spent", message: "--max-runs 4 spent", runs: 4, reused: 0, steps: [] }).code).toBe("BISECT_BUDGET_SPENT");
    const outside = new OutsideRunError("runs/x/mock/requests/1.json", "/etc/passwd", "runs/x");
    expect(outside).toBeInstanceOf(UserError);
    expect(outside.code).toBe("BAD_RUN_DIR");
  });

  it("is recognised from another copy of its module, as a scenario file's own kit throws it", async () => {
    vi.resetModules();
    const copy = (await import("../../kit/scenario.ts")) as typeof import("../../kit/scenario.ts");
    const thrown = new copy.ScenarioDefinitionError(["params: expected a zod schema"], "Give params a z.object");
    expect(thrown).not.toBeInstanceOf(UserError);
    expect(isUserError(thrown)).toBe(true);
    expect(thrown.code).toBe("BAD_SCENARIO_DEFINITION");
    expect(describeUserError(thrown).lines).toEqual(["ccrepro: params: expected a zod schema", "  Give params a z.object"]);
    expect(isUserError(new Error("x"))).toBe(false);
    expect(isUserError({ code: "BAD_ARGUMENT", message: "a plain object" })).toBe(false);
  });

  it("lists only codes something throws", () => {
    const text = sources(root).map((file) => fs.readFileSync(file, "utf8")).join("\n").replace(/export const ERROR_CODES = \[[\s\S]*?\] as const;/, "");
    expect(ERROR_CODES.filter((code) => !text.includes(`"${code}"`))).toEqual([]);
  });

  it("describes any other error as a bug of ccrepro's, with its stack", () => {
    const described = describeUserError(new TypeError("x is undefined"));
    expect(described.exitCode).toBe(3);
    expect(described.lines[0]).toMatch(/^ccrepro: unexpected failure\nTypeError: x is undefined\n\s+at /);
  });
});
