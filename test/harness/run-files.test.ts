// Nothing that reads a run directory follows a link out of it (issue 27, item 3): a request body, a session's
// stdout or run.json linked to a file of the machine's, or an index line naming "../", is refused, and neither the
// checker's verdict nor the HTML report carries the file. Each run is a copy of a recorded fixture in a temp directory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { OutsideRunError, readInside } from "../../harness/run-files.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;
const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "runs", "notification-green-2.1.332");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-links-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A file of "the machine's", outside every run directory, with a word no run holds.
const SECRET = path.join(tmp, "passwd");
fs.writeFileSync(SECRET, "root:x:0:0:SECRET_OUTSIDE_7Q:/root:/bin/bash\n");

function copyOfRun(name: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

describe("reading a run directory", () => {
  it("refuses a request body linked out of it, in the recordings and in the check's verdict", () => {
    const dir = copyOfRun("linked-body");
    const body = path.join(dir, "mock", "requests", "000006.body");
    fs.rmSync(body);
    fs.symlinkSync(SECRET, body);
    expect(() => loadRecordings(dir).body(6)).toThrow(OutsideRunError);
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain("leads outside");
    expect(JSON.stringify(result)).not.toContain("SECRET_OUTSIDE_7Q");
  });

  it("refuses a body that is a link even to a file inside the run directory, whether or not the check reads it (issue 41, item 7)", () => {
    const dir = copyOfRun("linked-inside");
    const body = path.join(dir, "mock", "requests", "000006.body");
    fs.rmSync(body);
    fs.symlinkSync(path.join(dir, "mock", "requests", "000005.body"), body);
    expect(() => loadRecordings(dir)).toThrow(/000006\.body is a link .* cannot be judged/);
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toMatch(/is a link/);
  });

  it("refuses bodies reached through a linked requests/ folder, even one inside the run directory", () => {
    const dir = copyOfRun("linked-folder");
    const requests = path.join(dir, "mock", "requests");
    fs.renameSync(requests, path.join(dir, "mock", "elsewhere"));
    fs.symlinkSync(path.join(dir, "mock", "elsewhere"), requests);
    expect(() => loadRecordings(dir)).toThrow(/requests is a link .* as a folder, so .* cannot be judged/);
    expect(checkRecordedRun(dir, scenarioByName).verdict).toBe("ERROR");
  });

  it("keeps a linked body out of the HTML report", async () => {
    const dir = copyOfRun("linked-body-html");
    const body = path.join(dir, "mock", "requests", "000008.body");
    fs.rmSync(body);
    fs.symlinkSync(SECRET, body);
    const html = await execa("node", [CLI, "report", dir, "--format", "html"], { reject: false, timeout: 60_000 });
    expect(html.stdout + html.stderr).not.toContain("SECRET_OUTSIDE_7Q");
  }, 60_000);

  it("refuses an index line whose body file climbs out of the log with ../", () => {
    const dir = copyOfRun("climbing-index");
    const index = path.join(dir, "mock", "index.jsonl");
    const relative = path.relative(path.join(dir, "mock"), SECRET);
    fs.writeFileSync(index, fs.readFileSync(index, "utf8").replace('"bodyFile":"requests/000006.body"', `"bodyFile":${JSON.stringify(relative)}`));
    expect(fs.readFileSync(index, "utf8")).toContain(relative);
    expect(() => loadRecordings(dir).body(6)).toThrow(/leads outside/);
  });

  it("refuses a linked session stdout and a linked run.json", () => {
    const dir = copyOfRun("linked-files");
    const stdout = path.join(dir, "sessions", "s1", "stdout.jsonl");
    fs.rmSync(stdout);
    fs.symlinkSync(SECRET, stdout);
    expect(() => loadRecordings(dir)).toThrow(OutsideRunError);
    const runJson = path.join(dir, "run.json");
    fs.renameSync(runJson, path.join(tmp, "run.json"));
    fs.symlinkSync(path.join(tmp, "run.json"), runJson);
    expect(checkRecordedRun(dir, scenarioByName)).toMatchObject({ verdict: "ERROR" });
    expect(checkRecordedRun(dir, scenarioByName).reason).toContain("leads outside");
  });

  it("follows a link that stays inside, and a run directory reached through a link", () => {
    const dir = copyOfRun("inner-link");
    const linkedRun = path.join(tmp, "link-to-run");
    fs.symlinkSync(dir, linkedRun);
    expect(readInside(linkedRun, path.join(linkedRun, "run.json"), "utf8")).toContain('"scenario"');
    expect(checkRecordedRun(linkedRun, scenarioByName).verdict).toBe(checkRecordedRun(FIXTURE, scenarioByName).verdict);
  });
});
