// Working-directory snapshots on temp dirs: what is listed and how, the text limit and budget, links never followed,
// the harness's .git left out; written into a run directory and read back by loadRecordings; taken live as sessions end.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LiveRecordings } from "../../harness/live-recordings.ts";
import { emptyWorkdir, loadRecordings, type SessionRecording } from "../../harness/recordings.ts";
import { runLayout, sessionLayout } from "../../harness/run-layout.ts";
import { snapshotWorkdir, WORKDIR_TEXT_BUDGET, WORKDIR_TEXT_LIMIT, writeWorkdirSnapshot } from "../../harness/workdir.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-workdir-"));
let n = 0;
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const sha = (data: string | Buffer) => crypto.createHash("sha256").update(data).digest("hex");

function tree(files: Record<string, string | Buffer>): string {
  const dir = path.join(root, `tree-${(n += 1)}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

describe("snapshotWorkdir", () => {
  it("lists every regular file recursively, by path, with size, sha256 and text", () => {
    const dir = tree({ "out.txt": "hello", "b/c/deep.md": "# deep\n", "a-b.txt": "dash", "b/a.txt": "ä ✓" });
    const { files, links } = snapshotWorkdir(dir);
    // Code-unit order: "-" (0x2d) sorts before "." and "/", whatever the locale says.
    expect(files.map((f) => f.path)).toEqual(["a-b.txt", "b/a.txt", "b/c/deep.md", "out.txt"]);
    expect(files.find((f) => f.path === "out.txt")).toEqual({ path: "out.txt", size: 5, sha256: sha("hello"), text: "hello" });
    // Size counts bytes, not characters.
    expect(files.find((f) => f.path === "b/a.txt")).toMatchObject({ size: Buffer.byteLength("ä ✓"), text: "ä ✓" });
    expect(links).toEqual([]);
  });

  it("keeps no text for a file that is not UTF-8, but its size and sha256; a BOM stays in the text", () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);
    const dir = tree({ "image.png": binary, "bom.txt": "\ufeffwith bom", "empty.txt": "" });
    const byPath = Object.fromEntries(snapshotWorkdir(dir).files.map((f) => [f.path, f]));
    expect(byPath["image.png"]).toEqual({ path: "image.png", size: 10, sha256: sha(binary), text: null });
    expect(byPath["bom.txt"]!.text).toBe("\ufeffwith bom");
    expect(byPath["empty.txt"]).toEqual({ path: "empty.txt", size: 0, sha256: sha(""), text: "" });
  });

  it("keeps the text of a file of exactly WORKDIR_TEXT_LIMIT bytes, and none of a larger one (hashed whole)", () => {
    const atLimit = "a".repeat(WORKDIR_TEXT_LIMIT);
    // Bigger than the read chunk too, so the hash is taken over several reads.
    const large = Buffer.alloc(3 * 1024 * 1024 + 7, "x");
    const dir = tree({ "at-limit.txt": atLimit, "large.txt": large });
    const [limit, big] = snapshotWorkdir(dir).files;
    expect(limit).toMatchObject({ path: "at-limit.txt", size: WORKDIR_TEXT_LIMIT, text: atLimit });
    expect(big).toEqual({ path: "large.txt", size: large.length, sha256: sha(large), text: null });
  });

  it("records a link as a link with its target, never following it (a file or a directory outside)", () => {
    const outside = tree({ "secret.txt": "outside the work dir", "dir/inner.txt": "inner" });
    const dir = tree({ "real.txt": "real" });
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "to-file"));
    fs.symlinkSync(path.join(outside, "dir"), path.join(dir, "to-dir"));
    fs.symlinkSync("real.txt", path.join(dir, "relative"));
    fs.symlinkSync("/nonexistent/target", path.join(dir, "dangling"));
    const { files, links } = snapshotWorkdir(dir);
    expect(files.map((f) => f.path)).toEqual(["real.txt"]);
    expect(links).toEqual([
      { path: "dangling", target: "/nonexistent/target" },
      { path: "relative", target: "real.txt" },
      { path: "to-dir", target: path.join(outside, "dir") },
      { path: "to-file", target: path.join(outside, "secret.txt") },
    ]);
    expect(JSON.stringify(snapshotWorkdir(dir))).not.toContain("outside the work dir");
  });

  it("leaves out the top-level .git the harness makes, and only that one", () => {
    const dir = tree({ ".git/HEAD": "ref: refs/heads/main\n", ".git/objects/ab/cd": "x", "sub/.git/config": "nested", ".gitignore": "node_modules\n" });
    expect(snapshotWorkdir(dir).files.map((f) => f.path)).toEqual([".gitignore", "sub/.git/config"]);
  });

  it("gives out text in path order until the budget is spent; the rest keep size and sha256, a smaller later file may still fit", () => {
    const dir = tree({ "1.txt": "aaaa", "2.txt": "bbbbbb", "3.txt": "cc", "4.txt": "dddd" });
    const files = snapshotWorkdir(dir, { textLimit: 100, textBudget: 7 }).files;
    expect(files.map((f) => f.text)).toEqual(["aaaa", null, "cc", null]);
    expect(files[1]).toEqual({ path: "2.txt", size: 6, sha256: sha("bbbbbb"), text: null });
  });

  it("caps the text of one snapshot at WORKDIR_TEXT_BUDGET bytes with the default limits", () => {
    const count = Math.floor(WORKDIR_TEXT_BUDGET / WORKDIR_TEXT_LIMIT) + 3;
    const dir = tree(Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${String(i).padStart(3, "0")}.txt`, "t".repeat(WORKDIR_TEXT_LIMIT)])));
    const files = snapshotWorkdir(dir).files;
    expect(files).toHaveLength(count);
    const kept = files.filter((f) => f.text !== null);
    expect(kept).toHaveLength(WORKDIR_TEXT_BUDGET / WORKDIR_TEXT_LIMIT);
    expect(kept.reduce((sum, f) => sum + f.size, 0)).toBeLessThanOrEqual(WORKDIR_TEXT_BUDGET);
    expect(files.slice(kept.length).every((f) => f.text === null && f.size === WORKDIR_TEXT_LIMIT && /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
    const file = path.join(root, `budget-${n}.json`);
    writeWorkdirSnapshot(file, snapshotWorkdir(dir));
    // The written snapshot stays near the budget, not the tree's size times the sessions.
    expect(fs.statSync(file).size).toBeLessThan(WORKDIR_TEXT_BUDGET + 64 * 1024);
  });

  it("skips FIFOs without blocking on them, and gives nothing for a directory that does not exist", async () => {
    const dir = tree({ "a.txt": "a" });
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    expect(snapshotWorkdir(dir).files.map((f) => f.path)).toEqual(["a.txt"]);
    expect(snapshotWorkdir(path.join(root, "missing"))).toMatchObject({ files: [], links: [] });
  });
});

describe("loadRecordings: the working directory's snapshots", () => {
  it("reads each session's snapshot and the run's last one from the run directory alone", () => {
    const run = runLayout(path.join(root, `run-${(n += 1)}`));
    const work = tree({ "out.txt": "hello" });
    fs.symlinkSync("/etc/passwd", path.join(work, "link"));
    const snapshot = snapshotWorkdir(work);
    writeWorkdirSnapshot(sessionLayout(run, "s1").workdir, snapshot);
    fs.mkdirSync(sessionLayout(run, "s2").dir, { recursive: true });
    writeWorkdirSnapshot(run.workdirAtEnd, { ...snapshot, t: snapshot.t + 1 });
    const { workdir } = loadRecordings(run.root);
    expect(Object.keys(workdir.afterSession)).toEqual(["s1"]);
    expect(workdir.afterSession.s1).toEqual(snapshot);
    expect(workdir.atEnd?.files).toEqual([{ path: "out.txt", size: 5, sha256: sha("hello"), text: "hello" }]);
    expect(workdir.atEnd?.links).toEqual([{ path: "link", target: "/etc/passwd" }]);
  });

  it("gives an empty record for runs recorded before snapshots were kept", () => {
    const fixtures = path.join(import.meta.dirname, "..", "fixtures", "runs");
    // Fixtures recorded since snapshots were kept have a workdir-at-end.json; the older ones have none.
    const runs = fs.readdirSync(fixtures).filter((name) => fs.existsSync(path.join(fixtures, name, "run.json")) && !fs.existsSync(runLayout(path.join(fixtures, name)).workdirAtEnd));
    expect(runs.length).toBeGreaterThan(3);
    for (const name of runs) expect(loadRecordings(path.join(fixtures, name)).workdir).toEqual(emptyWorkdir());
  });

  it("throws on a damaged snapshot, as on any damaged log", () => {
    const run = runLayout(path.join(root, `run-${(n += 1)}`));
    fs.mkdirSync(run.root, { recursive: true });
    fs.writeFileSync(run.workdirAtEnd, JSON.stringify({ t: 1, files: [{ path: "x", size: 1, sha256: "not-a-hash", text: null }] }));
    expect(() => loadRecordings(run.root)).toThrow(/sha256/);
  });
});

describe("LiveRecordings: snapshots as sessions end", () => {
  const open: LiveRecordings[] = [];
  afterAll(() => open.forEach((live) => live.close()));

  function live() {
    const run = runLayout(path.join(root, `live-${(n += 1)}`));
    fs.mkdirSync(run.work, { recursive: true });
    const recordings = new LiveRecordings(run.root, run.mockLog);
    open.push(recordings);
    return { run, recordings };
  }

  const recording = (label: string): SessionRecording => ({ label, stdout: [], stdin: [], process: null });

  it("snapshots the working directory once a session's exited settles, and wakes a wait on it", async () => {
    const { run, recordings } = live();
    let exit!: () => void;
    recordings.addSession(recording("s1"), new Promise<void>((resolve) => (exit = resolve)));
    expect(recordings.sessions.map((s) => s.label)).toEqual(["s1"]);
    const waiting = recordings.waitUntil((rec) => rec.workdir.afterSession.s1 !== undefined, 5000, new AbortController().signal);
    fs.writeFileSync(path.join(run.work, "out.txt"), "hello");
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Nothing is taken while the process runs.
    expect(recordings.workdir.afterSession).toEqual({});
    exit();
    expect(await waiting).toBe("ok");
    // Written after it: a later change in the directory is not in the session's snapshot.
    fs.writeFileSync(path.join(run.work, "later.txt"), "later");
    expect(recordings.workdir.afterSession.s1?.files.map((f) => f.path)).toEqual(["out.txt"]);
    recordings.snapshotAtEnd();
    expect(recordings.workdir.atEnd?.files.map((f) => f.path)).toEqual(["later.txt", "out.txt"]);
    expect(loadRecordings(run.root).workdir).toEqual(recordings.workdir);
    expect(recordings.workdirErrors).toEqual([]);
  });

  it("snapshots a session whose exited rejects too, and collects a write failure instead of throwing", async () => {
    const { run, recordings } = live();
    recordings.addSession(recording("s1"), Promise.reject(new Error("persist failed")));
    // A file where the session directory should be: the snapshot cannot be written.
    fs.mkdirSync(run.sessionsDir, { recursive: true });
    fs.writeFileSync(sessionLayout(run, "s2").dir, "");
    recordings.addSession(recording("s2"), Promise.resolve());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Object.keys(recordings.workdir.afterSession)).toEqual(["s1"]);
    expect(recordings.workdirErrors).toHaveLength(1);
    expect(recordings.workdirErrors[0]).toMatch(/^sessions\/s2\/workdir\.json: /);
  });
});
