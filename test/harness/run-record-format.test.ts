// run.json's format has one owner: format 1 directories (every recorded fixture, made before 2026-12-02) are migrated
// when read, what is written is the current format, and a newer format is refused with what to do.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { readRunRecord, rewriteRunRecordText, RUN_FORMAT, writeRunRecord } from "../../harness/run-record.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "runs");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-run-format-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const raw = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;

describe("run.json formats", () => {
  const fixtures = fs.readdirSync(FIXTURES).filter((name) => fs.existsSync(path.join(FIXTURES, name, "run.json")));

  it("reads every recorded fixture, of format 1, as the current format with its source said", () => {
    expect(fixtures.length).toBeGreaterThan(20);
    for (const name of fixtures) {
      const file = path.join(FIXTURES, name, "run.json");
      const before = raw(file);
      const record = readRunRecord(file);
      expect(record.format, name).toBe(RUN_FORMAT);
      expect(record.source, name).toEqual(before["source"] ?? { kind: "builtin", name: before["scenario"] });
    }
  });

  it("writes the current format, which reads back unchanged", () => {
    const file = path.join(tmp, "run.json");
    const migrated = readRunRecord(path.join(FIXTURES, fixtures[0]!, "run.json"));
    writeRunRecord(file, migrated);
    expect(raw(file)["format"]).toBe(RUN_FORMAT);
    expect(readRunRecord(file)).toEqual(migrated);
  });

  it("refuses a format newer than this ccrepro's, naming the file and what to do", () => {
    const file = path.join(tmp, "newer.json");
    fs.writeFileSync(file, JSON.stringify({ ...raw(path.join(FIXTURES, fixtures[0]!, "run.json")), format: RUN_FORMAT + 1 }));
    expect(() => readRunRecord(file)).toThrow(UserError);
    expect(() => readRunRecord(file)).toThrow(`${file} is run.json format ${RUN_FORMAT + 1}, newer than this ccrepro reads (${RUN_FORMAT}): judge it with the ccrepro that recorded it, or a newer one`);
  });

  it("rewrites run.json as text keeping every other byte and its format, and refuses a change that breaks the record", () => {
    const fixture = path.join(FIXTURES, fixtures[0]!, "run.json");
    const text = fs.readFileSync(fixture, "utf8");
    const from = path.join(tmp, "rewrite.json");
    fs.writeFileSync(from, text);
    const to = path.join(tmp, "rewritten.json");
    const executable = (raw(fixture)["claude"] as { executable: string }).executable;
    expect(rewriteRunRecordText(from, (t) => t.replaceAll(executable, "/ELSEWHERE/claude"), to)).toBe(true);
    expect(fs.readFileSync(to, "utf8")).toBe(text.replaceAll(executable, "/ELSEWHERE/claude"));
    expect(raw(to)["format"]).toBe(raw(fixture)["format"]);
    expect(readRunRecord(to).claude.executable).toBe("/ELSEWHERE/claude");
    expect(rewriteRunRecordText(from, (t) => t)).toBe(false);

    expect(() => rewriteRunRecordText(from, (t) => t.replace('"steps": [', '"steps": 7, "was": ['))).toThrow();
    expect(() => rewriteRunRecordText(from, (t) => t.slice(0, -10))).toThrow();
    expect(fs.readFileSync(from, "utf8")).toBe(text);
  });
});
