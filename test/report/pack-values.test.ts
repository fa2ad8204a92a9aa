// `pack` replaces only values that stand as a path or a secret (issue 27, item 11): MODE_WORD=result and
// EDITOR_HINT=assistant once broke run.json and rewrote "role":"assistant" in request bodies. The packed run judges as
// recorded, and the pack lists what it replaced.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { packRun } from "../../report/pack.ts";

const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "runs", "notification-green-2.1.332");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-pack-values-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("pack with word-like environment values", { timeout: 60_000 }, () => {
  it("keeps run.json and bodies whole, judges the same, and lists what it replaced", async () => {
    const run = path.join(tmp, "run");
    fs.cpSync(FIXTURE, run, { recursive: true });
    const env = { HOME: "/home/someone", MODE_WORD: "result", EDITOR_HINT: "assistant", API_TOKEN: "tok-not-a-real-one-1234", PATH: "/usr/bin" };
    const packed = await packRun(run, path.join(tmp, "run.tar.gz"), { env });
    expect(packed.judgedSame, `${packed.rejudged.verdict}: ${packed.rejudged.reason}`).toBe(true);
    expect(packed.recorded).toBe("GREEN");
    expect(packed.replaced.map((r) => r.to)).not.toContain("$MODE_WORD");
    expect(packed.replaced.map((r) => r.to)).not.toContain("$EDITOR_HINT");
    const out = path.join(tmp, "unpacked");
    fs.mkdirSync(out);
    await tar.x({ file: packed.file, cwd: out });
    const unpacked = path.join(out, "run");
    expect(fs.readFileSync(path.join(unpacked, "run.json"), "utf8")).toContain('"result"');
    const bodies = fs.readdirSync(path.join(unpacked, "mock", "requests"));
    expect(fs.readFileSync(path.join(unpacked, "mock", "requests", bodies[0]!), "utf8")).toContain('"role":"assistant"');
  });
});
