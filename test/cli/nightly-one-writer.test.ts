// One writer per nightly folder (issue 41, item 4), as sweep and atlas keep it: while a live process holds the --out
// folder, a second `ccrepro nightly` into it refuses before it plans or runs a cell, naming the holder; once the holder
// is gone, the folder is the next writer's.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { claimFolder, WRITER_FILE } from "../../core/folder-writer.ts";

const CLI = path.resolve(import.meta.dirname, "../../bin/ccrepro.mjs");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-nightly-writer-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("two nightlies into one --out", { timeout: 60_000 }, () => {
  it("the second refuses while the first holds the folder, and runs nothing", async () => {
    const out = path.join(tmp, "night");
    const config = path.join(tmp, "config.json");
    fs.writeFileSync(config, JSON.stringify({ scenarios: ["background-mid-turn"], versions: ["2.1.332"] }));
    // This test process stands in for the first nightly: a live holder of the folder, as ccrepro nightly claims it.
    const release = claimFolder(out, "ccrepro nightly");
    try {
      const second = await execa(process.execPath, [CLI, "nightly", "--config", config, "--out", out], { reject: false, timeout: 30_000 });
      expect(second.exitCode).toBe(3);
      expect(second.stderr).toContain(`${out} is being written by pid ${process.pid} (ccrepro nightly, since `);
      expect(second.stderr).not.toMatch(/planned|cell/i);
      expect(fs.readdirSync(out)).toEqual([WRITER_FILE]);
    } finally {
      release();
    }
    expect(fs.existsSync(path.join(out, WRITER_FILE))).toBe(false);
  });

  it("a config whose atlas.out is the nightly's own --out is refused before anything runs", async () => {
    const out = path.join(tmp, "same");
    const config = path.join(tmp, "atlas-config.json");
    fs.writeFileSync(config, JSON.stringify({ scenarios: ["background-mid-turn"], versions: ["2.1.332"], atlas: { scenarios: ["background-mid-turn"], versions: "2.1.332", out } }));
    const done = await execa(process.execPath, [CLI, "nightly", "--config", config, "--out", out], { reject: false, timeout: 30_000 });
    expect(done.exitCode).toBe(3);
    expect(done.stderr).toContain("atlas.out is the nightly's own --out");
    expect(fs.existsSync(out)).toBe(false);
  });
});
