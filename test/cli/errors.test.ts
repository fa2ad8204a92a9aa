// Everything a user can get wrong gets one clear line on stderr and exit 3, never a stack trace.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import os from "node:os";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;
const ccrepro = (...args: string[]) => execa("node", [CLI, ...args], { reject: false, timeout: 60_000 });

function expectUserError(result: Awaited<ReturnType<typeof ccrepro>>, message: RegExp) {
  expect(result.exitCode).toBe(3);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe("ccrepro's user errors", { timeout: 60_000 }, () => {
  it("names the known scenarios for an unknown one", async () => {
    expectUserError(await ccrepro("run", "no-such-scenario", "--claude", "latest"), /unknown scenario "no-such-scenario"; known: .*subagent-resume-notification-header/);
  });

  it("names a bad scenario file, the place and the fix, for every command that takes one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-bad-file-"));
    const file = path.join(dir, "broken.ts");
    fs.writeFileSync(file, 'import { z } from "ccrepro";\nexport default {\n  name: ,\n};\n');
    for (const command of [["run", file, "--claude", "latest"], ["bench", file], ["bisect", file, "--old", "2.1.281", "--new", "2.1.332"], ["mock", "--scenario", file]]) {
      expectUserError(await ccrepro(...command), new RegExp(`^ccrepro: scenario file ${file}:3:\\d+: syntax error: .*\\. Fix the file and run again$`));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a built-in's name for ccrepro new before it writes anything", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-new-name-"));
    expectUserError(await ccrepro("new", "compact-twice", "--dir", dir), /"compact-twice" is a built-in scenario's name; pick a name of your own/);
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lists the allowed values of a bad parameter", async () => {
    expectUserError(
      await ccrepro("run", "resume-orphaned-background-task", "--claude", "latest", "--param", "stop=bogus"),
      /stop: expected one of sigkill \| sigterm \| stdin/,
    );
    expectUserError(await ccrepro("run", "resume-orphaned-background-task", "--claude", "latest", "--param", "nokey"), /--param takes key=value/);
  });

  it("suggests published neighbours for an unpublished version", async () => {
    expectUserError(await ccrepro("run", "resume-orphaned-background-task", "--claude", "2.1.115"), /2\.1\.115 is not a published .*2\.1\.114.*2\.1\.116/);
  });

  it("explains a missing local binary", async () => {
    expectUserError(await ccrepro("run", "resume-orphaned-background-task", "--claude", "./no/such/claude"), /no\/such\/claude/);
  });

  it("refuses a busy port for the mock", async () => {
    const blocker = net.createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => blocker.once("listening", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      expectUserError(await ccrepro("mock", "--port", String(port), "--log-dir", os.tmpdir()), new RegExp(`port ${port} on 127.0.0.1 is already in use`));
    } finally {
      blocker.close();
    }
  });

  it("refuses --recheck with --extend, saying to recheck first", async () => {
    const result = await ccrepro("atlas", "--extend", "--recheck", "--out", "nowhere");
    expectUserError(result, /--recheck judges the cells .* does not go with --extend or --merge/);
    expect(result.stderr).toMatch(/ccrepro atlas SCENARIO --versions RANGE --recheck --out DIR first/);
  });

  it("refuses --until-red with --extend, which measures each entry as it was measured", async () => {
    const result = await ccrepro("atlas", "--extend", "--until-red", "3", "--repeat", "2", "--out", "nowhere");
    expectUserError(result, /atlas --extend measures each entry as it was measured; --repeat, --until-red do not apply/);
  });

  // Issue 45, item 10: the atlas's runs are its proofs and live under --out; --runs-dir was accepted and ignored.
  it("refuses --runs-dir for the atlas, saying where its runs go", async () => {
    const result = await ccrepro("atlas", "stop-hook-loop", "--versions", "2.1.300", "--runs-dir", "elsewhere");
    expectUserError(result, /atlas keeps its runs under --out \(DIR\/runs\/\).*--runs-dir does not apply/);
    expect(result.stderr).toContain("pass --out DIR");
  });

  it("reports ERROR (exit 3) for a directory that is not a run", async () => {
    const result = await ccrepro("check", os.tmpdir());
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/ERROR: .*has no run\.json/);
  });
});
