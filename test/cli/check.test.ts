// `ccrepro check` on recorded runs (test/fixtures/runs): re-judging with an edited scenario file, the warning for a
// run directory whose scenario copy was edited, and cache notes folded to a line per stream in the text output.
// Every edit is made on a copy in a temp directory; the fixtures stay as recorded.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;
const RUNS = path.join(import.meta.dirname, "..", "fixtures", "runs");
// A run of a file scenario on 2.1.332: nine in-process continuations of "main", then one --resume (its README).
const FILE_RUN = path.join(RUNS, "continuations-2.1.332");
const COPY = path.join("scenario", "many-continuations.ts");
const RECORDED_SHA = "abb9f8c4e0a8d34891ee0541e9d84174960f0f4a482abac1d5eb3a6809930d1d";

const ccrepro = (...args: string[]) => execa("node", [CLI, ...args], { reject: false, timeout: 60_000 });
const sha256 = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-check-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function copyOfRun(name: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(FILE_RUN, dir, { recursive: true });
  return dir;
}

// The run's scenario with its check changed to always find a red `never-answered`; `rename` gives it another name.
function editedScenario(file: string, rename?: string): string {
  const source = fs.readFileSync(path.join(FILE_RUN, COPY), "utf8");
  const edited = source
    .replace("import { answeredAndSettled,", "import { answeredAndSettled, finding,")
    .replace(
      "findings: [], notes: [] };",
      'findings: [finding({ id: "never-answered", red: true, title: "edited check: always red", where: "the edited check" })], notes: [] };',
    )
    .replace('name: "many-continuations"', `name: "${rename ?? "many-continuations"}"`);
  expect(edited).toContain("edited check: always red");
  const out = path.join(tmp, file);
  fs.writeFileSync(out, edited);
  return out;
}

describe("ccrepro check --scenario FILE", { timeout: 60_000 }, () => {
  it("gives the edited check's verdict, says where the check came from, and leaves run.json as it was judged", async () => {
    const run = copyOfRun("edited-check");
    const runJson = path.join(run, "run.json");
    const before = sha256(runJson);
    const file = editedScenario("always-red.ts");

    const text = await ccrepro("check", run, "--scenario", file);
    expect(text.exitCode, text.stderr).toBe(1);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe("RED: never-answered");
    expect(lines[2]).toBe(`  check: from the scenario file ${file} (sha256 ${sha256(file)}), not from the run directory's copy ${path.join(run, COPY)}`);
    expect(lines[3]).toBe("  not written to run.json, which keeps the verdict the run was recorded with (GREEN)");
    expect(text.stdout).toContain("✗ never-answered — edited check: always red");

    const json = await ccrepro("check", run, "--scenario", file, "--json");
    expect(json.exitCode).toBe(1);
    const parsed = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      verdict: "RED",
      findings: [{ id: "never-answered", red: true }],
      judgedWith: { kind: "file", path: file, sha256: sha256(file), recordedSha256: RECORDED_SHA },
      recordedVerdict: "GREEN",
    });
    expect(parsed).not.toHaveProperty("warnings");

    expect(sha256(runJson)).toBe(before);
    expect(JSON.parse(fs.readFileSync(runJson, "utf8")).result.verdict).toBe("GREEN");
    // Without --scenario the run's own copy judges it again: as recorded.
    expect((await ccrepro("check", run)).exitCode).toBe(0);
  });

  it("blames an edited check that throws on the edited file, not on the file the run recorded", async () => {
    const source = fs.readFileSync(path.join(FILE_RUN, COPY), "utf8").replace("check: (rec) => {", 'check: (rec) => {\n    if (rec) throw new Error("the edit broke it");');
    const file = path.join(tmp, "throws.ts");
    fs.writeFileSync(file, source);
    const result = await ccrepro("check", FILE_RUN, "--scenario", file);
    expect(result.exitCode).toBe(3);
    expect(result.stdout.split("\n")[0]).toBe(`ERROR: the check of scenario file ${file} threw: the edit broke it; fix its check() and run \`ccrepro check\` on this run directory again`);
  });

  it("refuses a file whose scenario has another name, and says which file would do", async () => {
    const file = editedScenario("renamed.ts", "another-bug");
    const result = await ccrepro("check", FILE_RUN, "--scenario", file);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe("");
    // The recorded file uses the kit's old names, which warn on stderr before the error.
    expect(result.stderr.trim().split("\n").filter((line) => line.startsWith("ccrepro:"))).toEqual([
      `ccrepro: scenario file ${file} defines "another-bug", but ${FILE_RUN} was recorded with "many-continuations"; ` +
        `pass the file that defines "many-continuations" (the run's own copy is ${path.join(FILE_RUN, COPY)}), or check a run of "another-bug"`,
    ]);
  });

  it("refuses it for a run of a built-in, with the way to iterate on a built-in's check", async () => {
    const result = await ccrepro("check", path.join(RUNS, "print-resume-red-2.1.69"), "--scenario", editedScenario("for-builtin.ts"));
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/was recorded with the built-in scenario "print-resume-cache-reuse", which a file cannot stand in for; .*ccrepro new my-print-resume-cache-reuse --from print-resume-cache-reuse/);
  });
});

describe("ccrepro check on a run directory whose scenario copy was edited", { timeout: 60_000 }, () => {
  it("warns with the file and both hashes, in text and JSON, and still judges", async () => {
    const run = copyOfRun("edited-copy");
    const copy = path.join(run, COPY);
    fs.appendFileSync(copy, "// an edit after the run\n");
    const now = sha256(copy);
    expect(now).not.toBe(RECORDED_SHA);

    const text = await ccrepro("check", run);
    expect(text.exitCode, text.stderr).toBe(0);
    const warning = text.stdout.split("\n").find((line) => line.includes("warning"));
    expect(warning).toBe(
      `  ⚠ warning: the run directory's copy of the scenario, ${copy}, was changed since the run: its sha256 is ${now}, run.json records ${RECORDED_SHA} ` +
        "for the file that ran (/TMP/ccrepro-recheck/many-continuations.ts); this verdict is of the changed scenario, not of the one the run was recorded with",
    );

    const json = JSON.parse((await ccrepro("check", run, "--json")).stdout) as { warnings: string[]; judgedWith: unknown };
    expect(json.judgedWith).toEqual({ kind: "run-copy", path: copy, sha256: now, recordedSha256: RECORDED_SHA });
    expect(json.warnings).toEqual([warning!.replace("  ⚠ warning: ", "")]);
  });

  it("says nothing of the kind when the copy is as recorded", async () => {
    const text = await ccrepro("check", FILE_RUN);
    expect(text.stdout).not.toContain("warning");
    expect(JSON.parse((await ccrepro("check", FILE_RUN, "--json")).stdout)).not.toHaveProperty("warnings");
  });
});

describe("the cache notes of a run with many continuations", { timeout: 60_000 }, () => {
  it("are one line per stream in the text output, and every note in JSON", async () => {
    const text = await ccrepro("check", FILE_RUN);
    const cacheLines = text.stdout.split("\n").filter((line) => line.includes("cache"));
    expect(cacheLines).toEqual([
      "  cache (main): 12 requests, 91% of estimated input tokens read from cache; 9 continuations (1 task notification, 8 prompts) read all 74058 readable tokens; " +
        "1 process resume (1 prompt) read all 8806 readable tokens; breakpoints: 4 placements (--json lists them)",
    ]);

    const { notes } = JSON.parse((await ccrepro("check", FILE_RUN, "--json")).stdout) as { notes: string[] };
    expect(notes).toHaveLength(11);
    expect(notes[0]).toMatch(/^cache \(main\): 12 request\(s\), 91% of estimated input tokens read from cache; breakpoints: /);
    expect(notes.filter((n) => n.startsWith("cache: continuation "))).toHaveLength(9);
    expect(notes[1]).toBe("cache: continuation 1 (main, task notification): req 2 → req 3 reads all 7734 readable tokens");
    expect(notes[10]).toBe("cache: process resume 1 (main, prompt): req 11 → req 12 reads all 8806 readable tokens");
  });
});
