// One error base: a code from a closed list, the cause kept, the hint printed on its own line; anything else is a
// bug of ccrepro's, printed with its stack. Both end the CLI with exit 3.
import { describe, expect, it } from "vitest";
import { describeUserError, ERROR_CODES, UserError } from "../../core/errors.ts";
import { BisectError } from "../../bisect/errors.ts";
import { ScenarioDefinitionError } from "../../kit/scenario.ts";

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

  it("describes any other error as a bug of ccrepro's, with its stack", () => {
    const described = describeUserError(new TypeError("x is undefined"));
    expect(described.exitCode).toBe(3);
    expect(described.lines[0]).toMatch(/^ccrepro: unexpected failure\nTypeError: x is undefined\n\s+at /);
  });
});
