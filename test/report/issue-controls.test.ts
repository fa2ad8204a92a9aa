// The smaller faults of issue 27 (item 12): raw ANSI escapes do not reach issue.md; a nightly config that is an array
// says so; a --log-dir whose index.jsonl ends in a cut line starts the mock's log where it left off.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { FileRequestLog } from "../../mock-api/request-log.ts";
import { parseNightlyConfig } from "../../nightly/config.ts";
import { renderIssue, withoutControls } from "../../report/issue.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-small-faults-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "runs", "notification-green-2.1.332");

describe("issue.md", () => {
  it("drops terminal escapes and control characters, keeping tabs and newlines", () => {
    expect(withoutControls("\u001b[31mred\u001b[0m\tok\n\u001b]0;title\u0007bell\u0007")).toBe("red\tok\nbell");
  });

  it("holds no escape even when a run's reason carries one", () => {
    const dir = path.join(tmp, "ansi-run");
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const runJson = path.join(dir, "run.json");
    const record = JSON.parse(fs.readFileSync(runJson, "utf8")) as { result: { reason: string } };
    record.result.reason = "\u001b[31mclaude said: boom\u001b[0m";
    fs.writeFileSync(runJson, JSON.stringify(record));
    const issue = renderIssue(dir);
    expect(issue).not.toContain("\u001b");
  });
});

describe("a nightly config that is an array", () => {
  it("says the top level must be an object", () => {
    expect(() => parseNightlyConfig([{ scenarios: [] }], "n.json")).toThrow(/nightly config n\.json: the top level: is an array; a nightly config is an object/);
  });
});

describe("a --log-dir whose index.jsonl ends in a cut line", () => {
  it("drops the cut line and carries on after the last whole one", () => {
    const dir = path.join(tmp, "cut-log");
    fs.mkdirSync(dir);
    const index = path.join(dir, "index.jsonl");
    const whole = fs.readFileSync(path.join(FIXTURE, "mock", "index.jsonl"), "utf8").split("\n")[0]!;
    fs.writeFileSync(index, `${whole}\n${whole.slice(0, 40)}`);
    expect(() => new FileRequestLog(dir)).not.toThrow();
    expect(fs.readFileSync(index, "utf8")).toBe(`${whole}\n`);
  });

  it("names a whole line that is not a log line, instead of a stack", () => {
    const dir = path.join(tmp, "bad-log");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "index.jsonl"), "not json\n");
    expect(() => new FileRequestLog(dir)).toThrow(UserError);
    expect(() => new FileRequestLog(dir)).toThrow(/index\.jsonl:1 is not a request-log line/);
  });
});
