// The body as the API reads it: JSON with paired surrogate escapes, else the API's own "not valid JSON" text.
import { describe, expect, it } from "vitest";
import { readJsonBody } from "../../mock-api/json-body.ts";

describe("readJsonBody", () => {
  it("parses JSON, paired surrogate escapes and escaped backslashes included", () => {
    expect(readJsonBody('{"t":"\\ud83d\\ude00 and \\\\ud83d"}')).toEqual({ ok: true, value: { t: "😀 and \\ud83d" } });
    expect(readJsonBody(JSON.stringify({ t: "😀" }))).toEqual({ ok: true, value: { t: "😀" } });
  });

  it("refuses a body that does not start as JSON with the API's message (anthropics/claude-code#77330)", () => {
    expect(readJsonBody("x{}")).toEqual({ ok: false, message: "The request body is not valid JSON: unexpected character: line 1 column 1 (char 0)" });
  });

  it("refuses an unpaired high surrogate, which JSON.parse alone would take, where its low half should be", () => {
    // What JSON.stringify makes of half an emoji: "ab\ud83d" (a text cut in the middle of a pair).
    const body = JSON.stringify({ t: "ab😀".slice(0, 3) });
    expect(() => JSON.parse(body)).not.toThrow();
    expect(readJsonBody(body)).toEqual({ ok: false, message: "The request body is not valid JSON: no low surrogate in string: line 1 column 15 (char 14)" });
    expect(readJsonBody('{"t":"\\ud83d\\u0041"}')).toMatchObject({ ok: false, message: expect.stringContaining("no low surrogate in string") });
  });
});
