// `report --format issue` on runs recorded from real releases (test/fixtures/runs, pruned with scripts/prune-run.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRunRecord, writeRunRecord } from "../../harness/run-record.ts";
import { renderIssue } from "../../report/issue.ts";

const fixture = (name: string) => path.join(import.meta.dirname, "..", "fixtures", "runs", name);

describe("renderIssue", () => {
  it("shows release, verdict, each finding with its diff, the timeline, the command and the scenario source", () => {
    const text = renderIssue(fixture("notification-changed-2.1.281"));
    expect(text).toMatch(/^### subagent-resume-notification-header: RED on Claude Code 2\.1\.281\n/);
    expect(text).toContain("| release | 2.1.281 (native), sha256 `56fe3da88458465fb27d7e9299dddb3fead55750fb9c2de795f233b5eea6dce1` |");
    expect(text).toContain("| platform | not recorded |");
    expect(text).toContain("```sh\nccrepro run subagent-resume-notification-header --claude 2.1.281\n```");
    expect(text).toContain("#### ✗ `notification-changed`: task bafx3q5r6's notification was re-sent with different bytes");
    expect(text).toContain("```diff\n--- messages[4].content[0].content\treq 6");
    expect(text).toContain("+[MESSAGE FROM NON-USER SOURCE - NOT USER INPUT]");
    expect(text).toMatch(/<details><summary>Timeline of session s1<\/summary>\n\n```\n.*push.*prompt #1/);
    expect(text).toContain('<details><summary>Scenario source</summary>\n\n```ts\n// ');
    // Named from the working directory, never by this machine's absolute path.
    expect(text).toContain(`Run directory: \`${path.relative(process.cwd(), fixture("notification-changed-2.1.281"))}\``);
    expect(text).not.toContain(fixture("notification-changed-2.1.281"));
  });

  it("for a file scenario: the file's copy inline, its sha256, the command naming the file, the parameters given", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-issue-"));
    const runDir = path.join(dir, "run");
    fs.cpSync(fixture("orphan-red-2.1.332"), runDir, { recursive: true });
    fs.mkdirSync(path.join(runDir, "scenario"));
    fs.writeFileSync(path.join(runDir, "scenario", "my-bug.ts"), "// my bug ``` with a fence inside\nexport default {};\n");
    const runJson = path.join(runDir, "run.json");
    const record = readRunRecord(runJson);
    // A finding that quotes a path inside the run directory, as checkers do (the working directory's files).
    const quoting = { id: "sentinel-written", title: "sentinel.txt was written", red: true, where: `${runDir}/iso/work/sentinel.txt`, detail: [], data: {} };
    writeRunRecord(runJson, { ...record, platform: "linux-x64", params: { ...record.params, grace: 1234 }, source: { kind: "file", path: "/home/someone/bugs/my-bug.ts", sha256: "ab".repeat(32), copy: "scenario/my-bug.ts" }, result: { ...record.result!, findings: [...record.result!.findings, quoting] } });
    const text = renderIssue(runDir);
    expect(text).toContain(`| scenario | my-bug.ts (sha256 ${"ab".repeat(32)}) |`);
    expect(text).toContain("| platform | linux-x64 |");
    expect(text).toContain("ccrepro run ./my-bug.ts --claude 2.1.332 --param grace=1234\n");
    // The source's own ``` cannot close the block early.
    expect(text).toContain("````ts\n// my bug ``` with a fence inside\nexport default {};\n````");
    expect(text).not.toContain("/home/someone");
    // A run outside the working directory goes by its name; a path into it, wherever it is quoted, by /RUN.
    expect(text).toContain("/RUN/iso/work/sentinel.txt");
    expect(text).toContain("Run directory: `run` (/RUN above)");
    expect(text).not.toContain(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a directory that is not a run", () => {
    expect(() => renderIssue(os.tmpdir())).toThrow(/is not a run directory \(no run\.json\); --format issue renders one run/);
  });
});
