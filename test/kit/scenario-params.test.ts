// The one owner of a scenario's parameters (issue 43, item 13): parsed through the schema everywhere, compared as
// the scenario reads them, and refused with every problem and the names it has.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isUserError } from "../../core/errors.ts";
import { defaultParams, givenParams, hasDefaults, paramsOf, sameParams, sameParsedParams } from "../../kit/scenario-params.ts";

const scenario = { params: z.strictObject({ gapMs: z.coerce.number().int().default(4000), mode: z.enum(["a", "b"]).default("a") }) };

describe("a scenario's parameters", () => {
  it("are parsed through the schema, strings from --param becoming the values the scenario reads", () => {
    expect(paramsOf(scenario, { gapMs: "1000" }, "scenario s")).toEqual({ gapMs: 1000, mode: "a" });
    expect(defaultParams(scenario)).toEqual({ gapMs: 4000, mode: "a" });
  });

  it("are refused with each problem, where they came from and the names the scenario has", () => {
    let thrown: unknown;
    try {
      paramsOf(scenario, { mode: "c", colour: "red" }, "the nightly config, atlas.scenarios[2] (s)");
    } catch (error) {
      thrown = error;
    }
    expect(isUserError(thrown) && thrown.code).toBe("BAD_PARAM");
    expect((thrown as Error).message).toMatch(/^bad parameters for the nightly config, atlas\.scenarios\[2\] \(s\): .*colour: unrecognized key.* \(its parameters: gapMs, mode\)$/);
    expect((thrown as Error).message).toMatch(/mode: /);
  });

  it("compare as the scenario reads them: a string and its number, an omitted default, any key order", () => {
    expect(sameParams(scenario, { gapMs: "4000" }, {})).toBe(true);
    expect(sameParams(scenario, { mode: "b", gapMs: 1 }, { gapMs: 1, mode: "b" })).toBe(true);
    expect(sameParams(scenario, { mode: "b" }, {})).toBe(false);
    expect(sameParams(scenario, { mode: "c" }, { mode: "c" })).toBe(false);
  });

  it("written down already parsed, compare by value whatever the key order", () => {
    expect(sameParsedParams({ gapMs: 1, mode: "b" }, { mode: "b", gapMs: 1 })).toBe(true);
    expect(sameParsedParams({ gapMs: 1 }, { gapMs: "1" })).toBe(false);
  });

  it("say which a person set, and whether every one has a default", () => {
    expect(givenParams(scenario, { gapMs: 4000, mode: "b" })).toEqual({ mode: "b" });
    expect(hasDefaults(scenario)).toBe(true);
    expect(hasDefaults({ params: z.strictObject({ n: z.number() }) })).toBe(false);
  });
});
