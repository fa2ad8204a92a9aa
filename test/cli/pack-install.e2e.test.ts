// The package as a user gets it: `npm pack`'s tarball, installed as a dev dependency into an empty folder where a
// scenario file lives, runs that file on a cached release and gives an editor the kit's types, nothing else set up.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { installRelease } from "../../releases/release-cache.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
// A template `ccrepro new` writes, GREEN as written.
const EXAMPLE = path.join(ROOT, "examples", "templates", "headless.ts");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const VERSION = "2.1.332";
// What the tarball is built from: the folders the build compiles (tsconfig.build.json names them, so a new floor is
// packed too) and what the build reads besides; everything else (tests, fixtures, runs) stays out of the copy.
const BUILT = (JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.build.json"), "utf8")) as { include: string[] }).include;
const PACKED = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "bin", "scripts", "examples", "docs/atlas/atlas.json", ...BUILT];

describe("npm pack, installed where a user keeps scenarios", { timeout: 600_000 }, () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-pack-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("runs `npx ccrepro run ./my-bug.ts` and type-checks the file against the kit", async () => {
    // Packed from a copy, so its prepare build cannot swap dist/ under other tests that run the checkout's CLI.
    const source = path.join(scratch, "source");
    for (const entry of PACKED) fs.cpSync(path.join(ROOT, entry), path.join(source, entry), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(source, "node_modules"));
    const packed = await execa("npm", ["pack", "--json", "--pack-destination", scratch], { cwd: source });
    const tarball = path.join(scratch, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);

    const user = path.join(scratch, "my-scenarios");
    fs.mkdirSync(user);
    await execa("npm", ["install", "--save-dev", "--prefer-offline", "--no-audit", "--no-fund", tarball], { cwd: user });
    fs.copyFileSync(EXAMPLE, path.join(user, "my-bug.ts"));
    expect(fs.readFileSync(path.join(user, "my-bug.ts"), "utf8")).toMatch(/from "ccrepro";/);

    await installRelease(VERSION);
    const run = await execa("npx", ["ccrepro", "run", "./my-bug.ts", "--claude", VERSION, "--json", "--runs-dir", path.join(scratch, "runs")], { cwd: user, reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split("\n").at(-1)!)).toMatchObject({ verdict: "GREEN" });
    // The installed CLI is the compiled one: no TypeScript sources were shipped to fall back to.
    expect(fs.existsSync(path.join(user, "node_modules", "ccrepro", "cli"))).toBe(false);
    const help = await execa("npx", ["ccrepro", "--help"], { cwd: user });
    expect(help.stdout).toMatch(/run \[options\] <scenario>/);
    // The package ships the checked-in atlas, so advise answers with no flags where the user is.
    const advice = await execa("npx", ["ccrepro", "advise", "--json"], { cwd: user, reject: false });
    const said = JSON.parse(advice.stdout) as { considered: number; newest: string | null };
    expect(said.considered).toBeGreaterThan(0);
    expect(advice.exitCode, advice.stderr).toBe(said.newest === null ? 1 : 0);

    // What an editor's TypeScript sees with no tsconfig of the user's: both module resolutions a project might use.
    for (const resolution of [["--module", "nodenext", "--moduleResolution", "nodenext"], ["--module", "preserve", "--moduleResolution", "bundler"]]) {
      const types = await execa("node", [TSC, "--noEmit", "--strict", "--target", "es2022", ...resolution, "my-bug.ts"], { cwd: user, reject: false });
      expect(types.exitCode, `${resolution.join(" ")}\n${types.stdout}`).toBe(0);
    }
    fs.writeFileSync(path.join(user, "wrong.ts"), 'import { session } from "ccrepro";\nconst s: number = session("s1");\n');
    const wrong = await execa("node", [TSC, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "wrong.ts"], { cwd: user, reject: false });
    expect(wrong.stdout).toMatch(/wrong\.ts\(2,7\): error TS2322/);
  });
});
