// `ccrepro pack` on a run recorded from a real release (test/fixtures/runs/notification-changed-2.1.281, 2.1.281),
// put back at a machine-like path: a fake home under a temp dir, its release cache, a colour-coded path in a terminal
// log and values of the caller's environment in the logs. The archive must name none of them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { packRun } from "../../report/pack.ts";
import { walk } from "../../report/anonymise.ts";

const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "runs", "notification-changed-2.1.281");
const base = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-pack-test-"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const dashed = (p: string) => p.replace(/[^A-Za-z0-9]/g, "-");

describe("packRun", () => {
  it("writes a tarball with no path of the machine, no environment value, and the caches left out", async () => {
    const home = path.join(base, "home", "alice");
    const runDir = path.join(home, "bugs", "runs", "20261130T161508Z-subagent-resume-notification-header-2.1.281-abc123");
    const cache = path.join(home, ".cache", "ccrepro", "releases");
    const env = { HOME: home, TMPDIR: path.join(base, "tmpdir"), API_TOKEN: "tok-9f8e7d6c5b4a", PROJECT_NAME: "orbital-mechanics-42", SHORT: "ab", LANG: "C.UTF-8" };
    // The fixture as it was before pruning: its placeholders back to this "machine"'s paths.
    const restore = (text: string) =>
      text
        .replace(/\/RUN(?![A-Z])/g, runDir)
        .replace(/-RUN(?![A-Z])/g, dashed(runDir))
        .replace(/\/CACHE/g, cache)
        .replace(/\/TMP/g, env.TMPDIR);
    for (const file of walk(FIXTURE)) {
      const target = path.join(runDir, path.relative(FIXTURE, file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, restore(fs.readFileSync(file, "utf8")));
    }
    // What a real run also has: the binary's caches and shell snapshot, a terminal log with colour codes, values the
    // scenario passed through from the caller's environment.
    fs.mkdirSync(path.join(runDir, "iso", "home", ".cache", "claude"), { recursive: true });
    fs.writeFileSync(path.join(runDir, "iso", "home", ".cache", "claude", "blob"), "cached");
    fs.mkdirSync(path.join(runDir, "iso", "config", "shell-snapshots"), { recursive: true });
    fs.writeFileSync(path.join(runDir, "iso", "config", "shell-snapshots", "snapshot.sh"), `export API_TOKEN=${env.API_TOKEN}\n`);
    fs.writeFileSync(
      path.join(runDir, "sessions", "s1", "terminal.jsonl"),
      `${JSON.stringify({ t: 1, data: `\u001b[38;5;246m${runDir}/iso/work\u001b[39m and \u001b[1m${home}/notes.txt` })}\n`,
    );
    // claude names a project's folder by its working directory, dashed: the name holds the machine's path.
    const project = path.join(runDir, "iso", "config", "projects", `${dashed(runDir)}-iso-work`);
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, "notes.md"), "a project file\n");
    fs.appendFileSync(path.join(runDir, "sessions", "s1", "stdin.jsonl"), `${JSON.stringify({ t: 2, raw: `project ${env.PROJECT_NAME} token ${env.API_TOKEN}` })}\n`);

    const out = path.join(base, "out.tar.gz");
    const packed = await packRun(runDir, out, { env });
    expect(packed.file).toBe(out);
    expect(packed.trimmed).toEqual(["iso/home/.cache", "iso/config/shell-snapshots"]);
    expect(packed.leftovers).toEqual([]);
    expect(packed.renamed).toBe(1);

    const extracted = path.join(base, "extracted");
    fs.mkdirSync(extracted);
    await tar.x({ file: out, cwd: extracted });
    const files = walk(extracted);
    const names = files.map((f) => path.relative(extracted, f));
    expect(names).toContain(`${path.basename(runDir)}/run.json`);
    expect(names.some((n) => n.includes(".cache") || n.includes("shell-snapshots"))).toBe(false);
    expect(names).toContain(`${path.basename(runDir)}/iso/config/projects/-RUN-iso-work/notes.md`);
    for (const name of names) expect(name.includes(dashed(base)), `${name} names the machine`).toBe(false);
    const forbidden = [base, home, os.homedir(), dashed(base), env.API_TOKEN, env.PROJECT_NAME, env.TMPDIR].filter((p) => p.length > 1);
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      for (const value of forbidden) expect(text.includes(value), `${path.relative(extracted, file)} contains ${value}`).toBe(false);
    }
    const terminal = fs.readFileSync(path.join(extracted, path.basename(runDir), "sessions", "s1", "terminal.jsonl"), "utf8");
    expect(terminal).toContain("\\u001b[38;5;246m/RUN/iso/work");
    expect(terminal).toContain("\\u001b[1m/HOME/notes.txt");
    expect(fs.readFileSync(path.join(extracted, path.basename(runDir), "sessions", "s1", "stdin.jsonl"), "utf8")).toContain("project $PROJECT_NAME token $API_TOKEN");
    // Still a run: the archive's own run.json names /CACHE for the release.
    expect(fs.readFileSync(path.join(extracted, path.basename(runDir), "run.json"), "utf8")).toContain('"executable": "/CACHE/2.1.281/package/claude"');
  });
});
