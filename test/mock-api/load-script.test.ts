import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MockApiError } from "../../mock-api/errors.ts";
import { loadMockScript, parseMockScript } from "../../mock-api/load-script.ts";

function scriptFile(content: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-script-test-")), "script.json");
  fs.writeFileSync(file, content);
  return file;
}

function errorOf(run: () => unknown): MockApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof MockApiError) return error;
    throw error;
  }
  throw new Error("expected a MockApiError");
}

describe("loadMockScript", () => {
  it("loads and fills defaults for a valid script", () => {
    const script = loadMockScript(scriptFile(JSON.stringify({ replies: { main: [{ content: [{ type: "text", text: "x" }] }] } })));
    expect(script.defaultStream).toBe("other");
    expect(script.replies.main).toEqual([
      expect.objectContaining({ content: [{ type: "text", text: "x" }], delayMs: 0, usage: expect.objectContaining({ input_tokens: 100 }) }),
    ]);
  });

  it.each([
    [{ replies: { main: [{ content: [{ type: "txt", text: "x" }] }] } }, "replies.main.0.content.0.type: Invalid discriminator value"],
    [{ replies: { main: { "0": { content: [{ type: "text" }] } } } }, "replies.main.0.content.0.text: Invalid input: expected string"],
    [{ replies: { main: { x: { content: [] } } } }, "replies.main.x: Invalid key in record: keys are step numbers or '*'"],
    [{ replies: { main: "nope" } }, "replies.main: Invalid input"],
    [{ streams: [{ stream: "a" }] }, "streams.0: a stream rule needs at least one condition"],
    [{ fallback: { fault: { kind: "http-error", status: 200 } } }, "fallback.fault.status: Too small"],
    [{ bogus: true }, '(top level): Unrecognized key: "bogus"'],
  ])("names the bad field of %j", (value, expected) => {
    const error = errorOf(() => loadMockScript(scriptFile(JSON.stringify(value))));
    expect(error.code).toBe("SCRIPT_INVALID");
    expect(error.message).toContain(expected);
  });

  it("says when the file is missing", () => {
    const error = errorOf(() => loadMockScript("/nonexistent/dir/script.json"));
    expect([error.code, error.message]).toEqual(["SCRIPT_NOT_FOUND", "cannot read mock script /nonexistent/dir/script.json: does not exist; pass the path of a JSON reply script (or --scenario NAME)"]);
  });

  it("says when the file is not JSON", () => {
    const file = scriptFile("{ replies: ");
    const error = errorOf(() => loadMockScript(file));
    expect(error.code).toBe("SCRIPT_NOT_JSON");
    expect(error.message).toContain(`mock script ${file} is not valid JSON`);
  });

  it("names the origin of a script value in its errors", () => {
    expect(() => parseMockScript({ defaultStream: "" }, "of scenario demo")).toThrow(/mock script of scenario demo is invalid:\n  defaultStream:/);
  });
});
