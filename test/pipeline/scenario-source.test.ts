// Scenario files from a path: what loads, and the message each kind of bad file gets (file named, fix said).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { recordSource } from "../../harness/record-run.ts";
import { runLayout } from "../../harness/run-layout.ts";
import { readRunRecord, writeRunRecord } from "../../harness/run-record.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { loadScenario, looksLikePath, originOf, ScenarioFileError, scenarioOfRun } from "../../pipeline/scenario-source.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-scenario-files-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// A minimal valid scenario body; each bad case changes one thing.
const body = (fields: Record<string, string> = {}) => {
  const all: Record<string, string> = {
    name: '"user-file-test"',
    summary: '"a test scenario"',
    source: '"a test"',
    params: "z.strictObject({})",
    findings: '["x"]',
    mockScript: '() => conversation({ main: { marker: "M", replies: [text("hi")] } })',
    sessions: "[s1]",
    steps: '() => [start(s1, { prompt: "M go" }), wait("a result", () => true, { timeout: 1000 })]',
    check: "() => ({ reached: { ok: true }, findings: [], notes: [] })",
    known: "[]",
    timeoutMs: "60000",
    ...fields,
  };
  return `{\n${Object.entries(all).map(([k, v]) => `  ${k}: ${v},`).join("\n")}\n}`;
};
const HEADER = 'import { conversation, defineScenario, session, start, stop, text, wait, z } from "ccrepro";\nconst s1 = session("s1");\n';

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function loadError(file: string): Promise<ScenarioFileError> {
  const error = await loadScenario(file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ScenarioFileError);
  expect(error).toBeInstanceOf(UserError);
  return error as ScenarioFileError;
}

describe("loadScenario", () => {
  it("tells paths from names", () => {
    expect(looksLikePath("./my-bug.ts")).toBe(true);
    expect(looksLikePath("my-bug.mjs")).toBe(true);
    expect(looksLikePath("hook-task-notification-prompt")).toBe(false);
  });

  it("loads a built-in by name and says an unknown name is unknown", async () => {
    expect((await loadScenario("hook-task-notification-prompt")).name).toBe("hook-task-notification-prompt");
    await expect(loadScenario("no-such-bug")).rejects.toThrow(/unknown scenario "no-such-bug".*\.\/no-such-bug\.ts/);
  });

  it("loads a TypeScript file outside the checkout that imports \"ccrepro\", and records its origin", async () => {
    const file = write("good.ts", `${HEADER}const t: number = 1;\nexport default defineScenario(${body()});\n`);
    const scenario = await loadScenario(file);
    expect(scenario.name).toBe("user-file-test");
    expect(originOf(scenario)).toMatchObject({ kind: "file", path: file, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("loads a plain .mjs or .js file, relative to the base directory", async () => {
    write("plain.mjs", `${HEADER}export default defineScenario(${body({ name: '"plain-mjs-test"' })});\n`);
    expect((await loadScenario("./plain.mjs", { baseDir: dir })).name).toBe("plain-mjs-test");
    write("plain.js", `${HEADER}export default defineScenario(${body({ name: '"plain-js-test"' })});\n`);
    expect((await loadScenario("plain.js", { baseDir: dir })).name).toBe("plain-js-test");
  });

  it("a missing file", async () => {
    const error = await loadError(path.join(dir, "missing.ts"));
    expect(error.message).toMatch(/missing\.ts: cannot be read \(ENOENT\)\. Pass the path of a \.ts or \.mjs scenario file/);
  });

  it("a syntax error, with file:line", async () => {
    const file = write("syntax.ts", `${HEADER}\nconst x = ;\nexport default defineScenario(${body()});\n`);
    const error = await loadError(file);
    expect(error.message).toMatch(new RegExp(`^scenario file ${file}:4:\\d+: syntax error: .+\\. Fix the file and run again$`));
  });

  it("no default export", async () => {
    const file = write("nodefault.ts", `${HEADER}export const scenario = defineScenario(${body()});\n`);
    expect((await loadError(file)).message).toBe(
      `scenario file ${file}: has no default export. End it with \`export default defineScenario({ … })\` (ccrepro new NAME writes a starting file)`,
    );
  });

  it("fields of the wrong type, with the field path (through defineScenario and without it)", async () => {
    const typed = write("fields.ts", `${HEADER}export default defineScenario(${body({ timeoutMs: '"soon"' as string })} as never);\n`);
    expect((await loadError(typed)).message).toMatch(/fields\.ts: defineScenario\(\) found problems: timeoutMs: .*Fix those fields/);
    const plain = write("fields.mjs", `${HEADER}export default ${body({ known: '[{ versions: "2.1.1", verdict: "ERROR", note: "" }]' })};\n`);
    expect((await loadError(plain)).message).toMatch(/fields\.mjs: the default export is not a scenario: known\.0\.verdict: expected GREEN, RED or INCONCLUSIVE/);
  });

  it("a wrong reply in the mock script, with its path", async () => {
    const file = write("reply.ts", `${HEADER}export default defineScenario(${body({ mockScript: '() => conversation({ main: { marker: "M", replies: [{ content: [{ type: "txt" }] }] } })' })} as never);\n`);
    expect((await loadError(file)).message).toMatch(/reply\.ts: its mock script is wrong: mockScript\.replies\.main\.0\.content\.0/);
  });

  it("a step naming a session that was never started", async () => {
    const file = write("session.ts", `${HEADER}export default defineScenario(${body({ sessions: '[s1, session("s2")]', steps: '() => [start(s1, { prompt: "M go" }), stop(session("s2"), { how: "sigterm" })]' })});\n`);
    expect((await loadError(file)).message).toBe(
      `scenario file ${file}: defineScenario() found problems: steps[2] (stop) names session "s2", which no earlier start step started (started so far: s1). Start each session (start(s1, …), resume, continueLatest, print or terminal) before the steps that use it`,
    );
  });

  // Issue 43, item 11: the pre-0.1 names and forms are gone; a file still written in them is refused at load, saying
  // what replaces each, since a scenario file is loaded without a type check.
  describe("a file in the forms the kit had before 0.1", () => {
    const refused = async (name: string, source: string) => (await loadError(write(name, source))).message;
    it("an import that moved to the other entry names that entry", async () => {
      const file = `import { finding } from "ccrepro";\nvoid finding;\n${HEADER}export default defineScenario(${body()});\n`;
      expect(await refused("moved.ts", file)).toMatch(/moved\.ts: it imports finding from "ccrepro", which has no such export\. Import finding from "ccrepro\/checkers"$/);
    });
    it("a dropped name names what replaces it", async () => {
      const file = `import { startWith } from "ccrepro";\nvoid startWith;\n${HEADER}export default defineScenario(${body()});\n`;
      expect(await refused("dropped.ts", file)).toContain('startWith was dropped in 0.1: use start(s1, { prompt }) or resume(s2, { from: s1, prompt })');
      const checker = `import { viewRequest } from "ccrepro/checkers";\nvoid viewRequest;\n${HEADER}export default defineScenario(${body()});\n`;
      expect(await refused("dropped-checker.ts", checker)).toContain("viewRequest was dropped in 0.1: use requestsOf(rec, …)");
    });
    it("a name that never was points at the reference", async () => {
      const file = `import { startsWith } from "ccrepro";\nvoid startsWith;\n${HEADER}export default defineScenario(${body()});\n`;
      expect(await refused("unknown.ts", file)).toMatch(/it imports startsWith from "ccrepro", which has no such export\. Check the name against docs\/kit\.md/);
    });
    it.each([
      ["stop.ts", { steps: '() => [start(s1, { prompt: "M go" }), stop(s1, "sigkill", 500)]' }, 'stop(s1, …): give the options as an object, e.g. stop(s1, { how: "sigkill", grace: 500 })'],
      ["choice.ts", { params: 'z.strictObject({ mode: choice(["a", "b"], "a") })' }, 'choice(values, …): give the options as an object, e.g. choice(["a","b"], { default: "a" })'],
      ["count.ts", { params: "z.strictObject({ n: count(3, 1, 60) })" }, "count(…): give the options as an object, e.g. count({ default: 2, min: 1, max: 50 })"],
      ["session.ts", { steps: '() => [start("s1", { prompt: "M go" })]' }, '"s1" is not a session: use a handle, const s1 = session("s1")'],
      ["hooks.ts", { hooks: '{ events: "all" }' }, 'hooks: { events } is now hooks: { record }, e.g. hooks: { record: ["Stop"] }'],
    ])("%s: an old positional form or field names the one that replaces it", async (name, fields, said) => {
      const header = HEADER.replace("session, start, stop,", "choice, count, session, start, stop,");
      expect(await refused(name, `${header}export default defineScenario(${body(fields)});\n`)).toContain(said);
    });
  });

  it("a name taken by a built-in", async () => {
    const file = write("taken.ts", `${HEADER}export default defineScenario(${body({ name: '"background-mid-turn"' })});\n`);
    expect((await loadError(file)).message).toMatch(/its name "background-mid-turn" is a built-in scenario's\. Give it a name of its own/);
  });

  it("a check that throws is an ERROR naming the file and the exception, also when re-checked from the run's copy", async () => {
    // A run recorded from subagent-resume-notification-header on 2.1.332 (test/fixtures/runs), re-labelled as a file scenario's.
    const runDir = path.join(dir, "run");
    fs.cpSync(path.join(import.meta.dirname, "..", "fixtures", "runs", "notification-green-2.1.332"), runDir, { recursive: true });
    const source = `${HEADER}export default defineScenario(${body({ name: '"throwing-check"', check: '() => { throw new Error("no stream named main"); }' })});\n`;
    fs.mkdirSync(path.join(runDir, "scenario"));
    fs.writeFileSync(path.join(runDir, "scenario", "throwing.ts"), source);
    const runJson = path.join(runDir, "run.json");
    writeRunRecord(runJson, { ...readRunRecord(runJson), scenario: "throwing-check", params: {}, source: { kind: "file", path: "/elsewhere/throwing.ts", sha256: "0".repeat(64), copy: "scenario/throwing.ts" } });
    const result = checkRecordedRun(runDir, await scenarioOfRun(runDir));
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toBe("the check of scenario file /elsewhere/throwing.ts threw: no stream named main; fix its check() and run `ccrepro check` on this run directory again");
  });

  it("keeps a recording the file reads beside the run directory's copy, and refuses one outside the file's folder", async () => {
    const folder = path.join(dir, "replayed");
    fs.mkdirSync(path.join(folder, "data"), { recursive: true });
    const recording = { format: "ccrepro-recording", version: 1, recordedAt: "2026-12-02T00:00:00.000Z", upstream: "http://127.0.0.1:1", command: null, processes: [], exchanges: [] };
    fs.writeFileSync(path.join(folder, "data", "bug.recording.json"), JSON.stringify(recording));
    const reads = (where: string) =>
      `import { recording } from "ccrepro";\n${HEADER}const recorded = recording(new URL(${JSON.stringify(where)}, import.meta.url));\n` +
      `export default defineScenario(${body({ name: '"replayed-test"', mockScript: "() => recorded.mockScript()" })});\n`;
    const file = path.join(folder, "replayed.ts");
    fs.writeFileSync(file, reads("./data/bug.recording.json"));
    const origin = originOf(await loadScenario(file));
    expect(origin).toMatchObject({ kind: "file", data: [{ relative: path.join("data", "bug.recording.json"), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }] });

    const layout = runLayout(path.join(dir, "replayed-run"));
    const source = recordSource(layout, origin!);
    expect(source).toMatchObject({ kind: "file", copy: path.join("scenario", "replayed.ts"), data: [{ copy: path.join("scenario", "data", "bug.recording.json") }] });
    expect(fs.readFileSync(path.join(layout.root, "scenario", "data", "bug.recording.json"), "utf8")).toBe(JSON.stringify(recording));
    // The copy loads from the run directory alone, its recording found beside it.
    fs.rmSync(folder, { recursive: true });
    expect((await loadScenario(path.join(layout.root, "scenario", "replayed.ts"))).name).toBe("replayed-test");

    fs.mkdirSync(path.join(dir, "elsewhere", "inner"), { recursive: true });
    fs.writeFileSync(path.join(dir, "elsewhere", "bug.recording.json"), JSON.stringify(recording));
    const outside = path.join(dir, "elsewhere", "inner", "reads-outside.ts");
    fs.writeFileSync(outside, reads("../bug.recording.json"));
    const error = await loadError(outside);
    expect(error.message).toContain("outside its own folder");
    expect(error.message).toContain('new URL("./name.recording.json", import.meta.url)');
  });
});
