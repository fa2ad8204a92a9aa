// The remembered sha256 of an unchanged file: the memo is read while the file is unchanged, and any write (even one
// that keeps the size and sets the modification time back) makes it hashed again.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256File, sha256OfUnchangedFile } from "../../releases/binary-info.ts";

let dir: string;
let previous: string | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-hash-"));
  previous = process.env["CCREPRO_CACHE_DIR"];
  process.env["CCREPRO_CACHE_DIR"] = path.join(dir, "cache");
});
afterEach(() => {
  if (previous === undefined) delete process.env["CCREPRO_CACHE_DIR"];
  else process.env["CCREPRO_CACHE_DIR"] = previous;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("sha256OfUnchangedFile", () => {
  it("hashes once, answers from the memo while the file is unchanged, and hashes again after any write", async () => {
    const file = path.join(dir, "claude");
    fs.writeFileSync(file, "first build");
    const first = await sha256OfUnchangedFile(file);
    expect(first).toBe(await sha256File(file));
    const memos = fs.readdirSync(path.join(dir, "cache", "hashes"));
    expect(memos).toHaveLength(1);
    // The memo is what answers: a planted value comes back while the file is unchanged.
    const planted = "0".repeat(64);
    fs.writeFileSync(path.join(dir, "cache", "hashes", memos[0]!), planted);
    expect(await sha256OfUnchangedFile(file)).toBe(planted);
    // Same size, modification time set back: the change time still moved.
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, "other build");
    fs.utimesSync(file, atime, mtime);
    expect(await sha256OfUnchangedFile(file)).toBe(await sha256File(file));
    expect(await sha256OfUnchangedFile(file)).not.toBe(first);
  });

  it("still answers when the memo cannot be written", async () => {
    const file = path.join(dir, "claude");
    fs.writeFileSync(file, "bytes");
    fs.writeFileSync(path.join(dir, "cache"), "a file where the cache directory would be");
    expect(await sha256OfUnchangedFile(file)).toBe(await sha256File(file));
  });
});
