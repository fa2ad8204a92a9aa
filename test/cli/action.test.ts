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
    const ids = new Set(action.runs.steps.map((step) => step.id));
    for (const output of Object.values(action.outputs)) expect(ids).toContain(/steps\.([\w-]+)\./.exec(output.value)?.[1]);
  });

  it("uses only GitHub's own actions, at a major version", () => {
    const used = action.runs.steps.flatMap((step) => (step.uses ? [step.uses] : []));
    expect(used.every((uses) => /^actions\/[\w/-]+@v\d+$/.test(uses))).toBe(true);
    expect(used).toEqual(expect.arrayContaining(["actions/cache@v4", "actions/cache/restore@v4", "actions/cache/save@v4", "actions/upload-artifact@v4"]));
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
});

describe("the action's steps, run here", { timeout: 120_000 }, () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-action-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("fails at the plan on a scenario that does not exist, skipping all but the if: always() steps", async () => {
    const workspace = path.join(scratch, "workspace");
    fs.mkdirSync(workspace);
    const run = await runAction({ actionDir: ROOT, workspace, runnerTemp: path.join(scratch, "temp"), inputs: { scenarios: "no-such-scenario", claude: "2.1.332" } });
    const plan = run.steps.find((step) => step.name === "Plan the matrix")!;
    expect(plan.exitCode).toBe(3);
    expect(plan.stderr).toMatch(/scenarios\[0\]: unknown scenario "no-such-scenario"/);
    expect(run.failed).toBe(true);
    const ran = run.steps.filter((step) => step.ran).map((step) => step.name);
    expect(ran).toEqual(["Install ccrepro", "Plan the matrix", "Write the job summary", "Keep this summary as the next run's ledger"]);
    expect(run.outputs).toMatchObject({ "exit-code": "", cells: "", "artifact-url": "" });
    expect(run.summary).toBe("");
  });
});
