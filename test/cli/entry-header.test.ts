// bin/ccrepro.mjs is shell and JavaScript at once: run as a program (as npx and the bin link run it) it starts node
// with --no-memory-reducer; run as `node bin/ccrepro.mjs` it is the same CLI without the flag.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const CLI = path.resolve(import.meta.dirname, "../../bin/ccrepro.mjs");
const run = promisify(execFile);

// A preload that writes the flags node started with, so the test reads them from the process itself.
function flagsOf(command: string, args: string[]): Promise<{ flags: string[]; stdout: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-entry-"));
  const preload = path.join(dir, "flags.cjs");
  const out = path.join(dir, "flags.json");
  fs.writeFileSync(preload, `require("fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.execArgv));`);
  return run(command, args, { env: { ...process.env, NODE_OPTIONS: `--require ${preload}` } })
    .then(({ stdout }) => ({ flags: JSON.parse(fs.readFileSync(out, "utf8")) as string[], stdout }))
    .finally(() => fs.rmSync(dir, { recursive: true, force: true }));
}

describe("the entry's shell header", () => {
  it("passes --no-memory-reducer when the entry runs as a program, through a link as well", async () => {
    const link = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-link-")), "ccrepro");
    fs.symlinkSync(CLI, link);
    try {
      for (const entry of [CLI, link]) {
        const { flags, stdout } = await flagsOf(entry, ["--help"]);
        expect(flags).toContain("--no-memory-reducer");
        expect(stdout).toMatch(/^Usage: ccrepro /);
      }
    } finally {
      fs.rmSync(path.dirname(link), { recursive: true, force: true });
    }
  });

  it("is a string and a comment to node: `node bin/ccrepro.mjs` runs the same CLI", async () => {
    const { flags, stdout } = await flagsOf(process.execPath, [CLI, "--help"]);
    expect(flags).not.toContain("--no-memory-reducer");
    expect(stdout).toMatch(/^Usage: ccrepro /);
  });
});
