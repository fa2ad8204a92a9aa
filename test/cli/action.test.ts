// action.yml read as GitHub reads it, and its steps run here by the local runner (test/action-runner.ts) where no
// claude is needed: a matrix that cannot be planned fails the job at that step, with nothing after it but the
// `if: always()` steps. The runs on real releases are in pack-install.e2e.test.ts, against the installed package.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseOutputFile, readAction, runAction, substitute } from "../action-runner.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const action = readAction(path.join(ROOT, "action.yml"));
const runSteps = action.runs.steps.filter((step) => step.run !== undefined);

describe("action.yml", () => {
  it("passes inputs to scripts through env: only, never as an expression inside a script", () => {
    for (const step of runSteps) expect(step.run, step.name).not.toContain("${{");
    // Every input reaches some step, and every output names a step that exists.
    const text = JSON.stringify(action.runs.steps);
    for (const input of Object.keys(action.inputs)) expect(text, input).toContain(`inputs.${input} }}`);
    const ids = new Set(action.runs.steps.flatMap((step) => (step.id === undefined ? [] : [step.id])));
    for (const [name, output] of Object.entries(action.outputs)) {
      const step = /^\$\{\{ steps\.([\w-]+)\.outputs\.[\w-]+ \}\}$/.exec(output.value);
      expect(step, `output ${name}: ${output.value}`).not.toBeNull();
      expect(ids, name).toContain(step![1]);
    }
    // Every steps.<id> an expression names is a step that exists.
    for (const [, id] of text.matchAll(/steps\.([\w-]+)\.outputs/g)) expect(ids, id).toContain(id);
  });

  it("uses only GitHub's own actions, at a major version", () => {
    const used = action.runs.steps.flatMap((step) => (step.uses ? [step.uses] : []));
    expect(used.every((uses) => /^actions\/[\w/-]+@v\d+$/.test(uses))).toBe(true);
    expect([...new Set(used)].sort()).toEqual(["actions/cache/restore@v4", "actions/cache/save@v4", "actions/upload-artifact@v4"]);
  });

  it("saves the ledger and the release cache on a failing night too, but not on a cancelled one", () => {
    const saves = action.runs.steps.filter((step) => step.uses === "actions/cache/save@v4");
    expect(saves.map((step) => step.name)).toEqual(["Save the release cache", "Save the ledger"]);
    for (const step of saves) expect(step.if, step.name).toMatch(/^\$\{\{ !cancelled\(\) && /);
    // The steps that prepare what is saved run on a failing night as well.
    for (const name of ["Cut the release cache to the plan's releases", "Keep the ledger for the next run"]) {
      expect(action.runs.steps.find((step) => step.name === name)?.if, name).toBe("${{ !cancelled() }}");
    }
  });

  it("restores a ledger by a key whose prefix belongs to one matrix name, this run's own attempt first", () => {
    const restore = action.runs.steps.find((step) => step.name === "Restore the ledger")!;
    const save = action.runs.steps.find((step) => step.name === "Save the ledger")!;
    const prefix = "${{ steps.install.outputs.ledger-key }}";
    expect(restore.with).toEqual({
      path: "${{ steps.install.outputs.ledger }}",
      key: `${prefix}\${{ github.run_id }}-\${{ github.run_attempt }}`,
      "restore-keys": `${prefix}\${{ github.run_id }}-\n${prefix}\n`,
    });
    expect(save.with).toEqual({ path: restore.with!["path"], key: restore.with!["key"] });
  });
});

describe("the local action runner", () => {
  it("reads GitHub's output file, line and heredoc forms, and resolves the expressions action.yml uses", () => {
    expect(parseOutputFile("a=1\nb=x=y\nc<<EOF\nline 1\nline 2\nEOF\nd=\n")).toEqual({ a: "1", b: "x=y", c: "line 1\nline 2", d: "" });
    const context = { inputs: { name: "n", empty: "" }, steps: { run: { outputs: { "exit-code": "1" } } } };
    expect(substitute("k-${{ inputs.name }}-${{ steps.run.outputs.exit-code }}", context)).toBe("k-n-1");
    expect(substitute("${{ inputs.empty || 'latest' }}", context)).toBe("latest");
    expect(() => substitute("${{ toJSON(inputs) }}", context)).toThrow(/cannot evaluate/);
  });

  it("runs a step after a failure only for always() and !cancelled(), and refuses a condition it cannot read", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-runner-"));
    try {
      const write = (steps: object[]) =>
        fs.writeFileSync(path.join(dir, "action.yml"), JSON.stringify({ name: "t", description: "t", inputs: {}, outputs: {}, runs: { using: "composite", steps } }));
      const step = (name: string, extra: object = {}) => ({ name, shell: "bash", run: name === "fail" ? "exit 1" : "true", ...extra });
      write([step("fail"), step("plain"), step("always", { if: "always()" }), step("not cancelled", { if: "${{ !cancelled() }}" })]);
      const run = await runAction({ actionDir: dir, workspace: dir, runnerTemp: path.join(dir, "temp"), inputs: {} });
      expect(run.steps.map((s) => [s.name, s.ran])).toEqual([["fail", true], ["plain", false], ["always", true], ["not cancelled", true]]);
      write([step("guessed", { if: "${{ success() }}" })]);
      await expect(runAction({ actionDir: dir, workspace: dir, runnerTemp: path.join(dir, "temp"), inputs: {} })).rejects.toThrow(/cannot evaluate if: \$\{\{ success\(\) \}\}/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the action's steps, run here", { timeout: 120_000 }, () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-action-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("fails at the plan on a scenario that does not exist, skipping all but the if: always() and !cancelled() steps", async () => {
    const workspace = path.join(scratch, "workspace");
    fs.mkdirSync(workspace);
    const releaseCache = path.join(scratch, "releases");
    const run = await runAction({ actionDir: ROOT, workspace, runnerTemp: path.join(scratch, "temp"), inputs: { scenarios: "no-such-scenario", claude: "2.1.332", "release-cache": releaseCache } });
    const plan = run.steps.find((step) => step.name === "Plan the matrix")!;
    expect(plan.exitCode).toBe(3);
    expect(plan.stderr).toMatch(/scenarios\[0\]: unknown scenario "no-such-scenario"/);
    expect(run.failed).toBe(true);
    const ran = run.steps.filter((step) => step.ran).map((step) => step.name);
    expect(ran).toEqual([
      "Install ccrepro",
      "Choose the summary to compare with",
      "Plan the matrix",
      "Write the job summary",
      "Cut the release cache to the plan's releases",
      "Keep the ledger for the next run",
    ]);
    // With no plan there is nothing to cut the cache to or keep: those steps ran and did nothing.
    for (const name of ["Cut the release cache to the plan's releases", "Keep the ledger for the next run"]) {
      expect(run.steps.find((step) => step.name === name), name).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    }
    expect(fs.readdirSync(path.join(scratch, "temp")).filter((entry) => entry.startsWith("ccrepro-ledger"))).toEqual([]);
    expect(run.outputs).toMatchObject({ "exit-code": "", cells: "", "artifact-url": "" });
    expect(run.summary).toBe("");
  });
});
