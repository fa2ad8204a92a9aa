// A cache lock left by a dead process (issue 27, item 6): taken over at once and said so, even when its directory's
// time is in the future (proper-lockfile's staleness never fires then); a file where the lock should be is removed;
// a live holder's lock is waited on, and the wait says what it waits for and whose lock it is.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ownerToken } from "../../core/process-owner.ts";
import { withVersionLock } from "../../releases/release-cache.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-lock-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// The token of a process that has exited: its pid with a start time no live process has, in this pid namespace and boot.
function deadOwner(): string {
  const child = spawnSync("true");
  const [, , namespace, boot] = ownerToken().split(":");
  return `${child.pid}:1:${namespace}:${boot}`;
}

function lockOf(cache: string, version: string): string {
  const lock = path.join(cache, ".locks", `${version}.lock`);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  return lock;
}

describe("the cache's version lock", { timeout: 20_000 }, () => {
  it("takes over a lock whose owner is dead, at once, and says so", async () => {
    const cache = path.join(tmp, "dead");
    const lock = lockOf(cache, "9.9.1");
    fs.mkdirSync(lock);
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(lock, future, future);
    const owner = deadOwner();
    fs.writeFileSync(`${lock}.owner`, JSON.stringify({ owner, version: "9.9.1", since: "2026-12-01T00:00:00.000Z" }));
    const notes: string[] = [];
    const started = Date.now();
    const done = await withVersionLock(cache, "9.9.1", { wait: true }, async () => "ran", (line) => notes.push(line));
    expect(done).toBe("ran");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(notes).toEqual([`ccrepro: took over the cache lock ${lock}: its owner, pid ${owner.split(":")[0]} (since 2026-12-01T00:00:00.000Z), is gone`]);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("removes a file where the lock should be, instead of failing with ENOTDIR", async () => {
    const cache = path.join(tmp, "file");
    const lock = lockOf(cache, "9.9.2");
    fs.writeFileSync(lock, "not a lock");
    const notes: string[] = [];
    expect(await withVersionLock(cache, "9.9.2", { wait: true }, async () => "ran", (line) => notes.push(line))).toBe("ran");
    expect(notes[0]).toContain("which is not a lock (a file)");
  });

  it("waits for a live holder and says whose lock it is", async () => {
    const cache = path.join(tmp, "live");
    const notes: string[] = [];
    let second = "";
    await withVersionLock(cache, "9.9.3", { wait: true }, async () => {
      const waiting = withVersionLock(cache, "9.9.3", { wait: true }, async () => (second = "ran after"), (line) => notes.push(line));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(second).toBe("");
      void waiting;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(second).toBe("ran after");
    expect(notes[0]).toMatch(new RegExp(`^ccrepro: waiting for the cache lock for 9\\.9\\.3 \\(.*\\), held by pid ${process.pid} \\(since .*\\)`));
    // A process that will not wait is told the same.
    await withVersionLock(cache, "9.9.3", { wait: true }, async () => {
      await expect(withVersionLock(cache, "9.9.3", { wait: false }, async () => "no")).rejects.toThrow(`is held by pid ${process.pid}`);
    });
    expect(ownerToken()).toMatch(/^\d+:\d+:\d+:[0-9a-f-]+$/);
  });
});
