// Probing a release touches nothing of the user's: 1.0.4 writes .claude/settings.local.json into its working
// directory even for `--help`, so the probe runs it in a folder of its own. Found when an atlas run, started in this
// checkout, left that file in the checkout's root.
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { probeBinary } from "../../releases/capabilities.ts";
import { fetchPackage } from "../../releases/release-cache.ts";
import { resolveClaude } from "../../releases/resolve.ts";
import { E2E_TIMEOUT_MS } from "../e2e-run.ts";
import { tempDirs } from "../stand-in-runner.ts";

const RELEASE = "1.0.4";
const folder = tempDirs("ccrepro-probe-folder-");
const filesUnder = (dir: string) => fs.readdirSync(dir, { recursive: true }).map(String).sort();

describe(`probing ${RELEASE}`, () => {
  it("leaves the folder ccrepro was started in as it was, though the release writes into its own", async () => {
    const claude = await resolveClaude(RELEASE);
    // The premise: run as the probe runs it, in a folder, the release writes there.
    const bare = folder();
    const home = folder();
    await execa(claude.command, [...claude.args, "--help"], { cwd: bare, env: { PATH: "/usr/bin:/bin", HOME: home, CLAUDE_CONFIG_DIR: path.join(home, ".claude") }, extendEnv: false, reject: false, stdin: "ignore" });
    expect(filesUnder(bare)).toContain(path.join(".claude", "settings.local.json"));

    // The probe itself, started from a user's folder, with a probe cache of its own so it runs rather than reads.
    const user = folder();
    fs.writeFileSync(path.join(user, "notes.txt"), "mine\n");
    const was = { cwd: process.cwd(), cache: process.env["CCREPRO_CACHE_DIR"] };
    process.env["CCREPRO_CACHE_DIR"] = folder();
    process.chdir(user);
    try {
      const probe = await probeBinary(await resolveClaude(RELEASE));
      expect(probe.reportedVersion).toBe(RELEASE);
    } finally {
      process.chdir(was.cwd);
      if (was.cache === undefined) delete process.env["CCREPRO_CACHE_DIR"];
      else process.env["CCREPRO_CACHE_DIR"] = was.cache;
    }
    expect(filesUnder(user)).toEqual(["notes.txt"]);
  }, E2E_TIMEOUT_MS);
});

describe("a release that cannot start", () => {
  // 0.2.90–0.2.109 import the npm dependency better-sqlite3, which their tarball does not bundle: the cache installs it
  // beside them (release-dependencies.ts), but a copy without it, given by path, fails, and the probe names why, so a
  // run's ERROR does not ask whether the file is claude at all. The same cli.js, cached with its dependency, does not
  // answer for the copy.
  it("0.2.100 unpacked alone: the probe names why --version gave nothing", async () => {
    // The premise: the cache's 0.2.100, with its dependency beside it, starts, and its probe is cached under the same
    // cli.js sha256 (CI's first run of this test got that answer back for the copy below).
    expect((await probeBinary(await resolveClaude("0.2.100"))).reportedVersion).toBe("0.2.100");
    const dir = folder();
    await fetchPackage("@anthropic-ai/claude-code@0.2.100", null, path.join(dir, "package"));
    const probe = await probeBinary(await resolveClaude(path.join(dir, "package", "cli.js")));
    expect(probe.reportedVersion).toBeNull();
    expect(probe.versionError).toMatch(/^`--version` failed: .*Cannot find package 'better-sqlite3'/);
  }, E2E_TIMEOUT_MS);
});
