// Runs a composite action's `run:` steps here, in order, the way a GitHub runner does: bash with -eo pipefail, the
// runner's files and variables (GITHUB_OUTPUT per step, GITHUB_STEP_SUMMARY, RUNNER_TEMP, GITHUB_WORKSPACE,
// GITHUB_ACTION_PATH, GITHUB_RUN_ID), `${{ }}` resolved in env and working-directory, a failed step skipping every
// later step but those with `if: always()` or `if: ${{ !cancelled() }}`. Steps that `uses:` another action (GitHub's
// cache and artefact actions) are skipped and their outputs are empty, so what is tested is ccrepro's own part. An
// expression this small evaluator does not know throws, rather than being read as empty.
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { parse } from "yaml";
import { z } from "zod";

// Every field of a step is optional; a run: step needs shell: (checked when it runs).
const stepSchema = z
  .object({
    name: z.string(),
    id: z.string(),
    if: z.string(),
    uses: z.string(),
    run: z.string(),
    shell: z.string(),
    "working-directory": z.string(),
    env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    with: z.record(z.string(), z.unknown()),
  })
  .partial();

export const actionSchema = z.object({
  name: z.string(),
  description: z.string(),
  inputs: z.record(z.string(), z.object({ description: z.string(), required: z.boolean().optional(), default: z.string().optional() })),
  outputs: z.record(z.string(), z.object({ description: z.string(), value: z.string() })),
  runs: z.object({ using: z.literal("composite"), steps: z.array(stepSchema) }),
});
export type Action = z.infer<typeof actionSchema>;

export function readAction(file: string): Action {
  return actionSchema.parse(parse(fs.readFileSync(file, "utf8")));
}

export interface ActionRun {
  // Each step: whether it ran, was skipped (a `uses:` step, or after a failure) and its exit code when it ran.
  steps: { name: string; ran: boolean; exitCode: number | null; stdout: string; stderr: string }[];
  outputs: Record<string, string>;
  // What the steps appended to their GITHUB_STEP_SUMMARY files, in order.
  summary: string;
  // The job's outcome: failed when any step that ran failed.
  failed: boolean;
}

export interface RunActionOptions {
  actionDir: string;
  inputs: Record<string, string>;
  workspace: string;
  runnerTemp: string;
  env?: NodeJS.ProcessEnv;
  // The workflow run this is (GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT): a night's run and a re-run of it differ here.
  run?: { id: string; attempt: string };
}

// A step's `if:` as this runner reads it: whether the step runs after an earlier one failed. Nothing is ever cancelled
// here, so `!cancelled()` runs as `always()` does; any other condition on a run: step is not understood.
function runsAfterFailure(condition: string | undefined, name: string, isRun: boolean): boolean {
  const bare = condition?.trim().replace(/^\$\{\{\s*(.*?)\s*\}\}$/, "$1");
  if (bare === undefined) return false;
  if (bare === "always()" || bare === "!cancelled()") return true;
  if (isRun) throw new Error(`the action runner cannot evaluate if: ${condition} (step "${name}")`);
  return false;
}

// GitHub's step output file: `name=value` lines, and `name<<DELIMITER` … `DELIMITER` for values with line breaks.
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      out[heredoc[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      out[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return out;
}

type Context = Record<string, Record<string, unknown>>;

// `${{ a.b.c }}` and `${{ a.b || 'text' }}`: dotted paths, with a literal for an empty value.
function evaluate(expression: string, context: Context): string {
  const [first, fallback, ...rest] = expression.split("||").map((part) => part.trim());
  if (rest.length > 0 || !/^[\w-]+(\.[\w-]+)+$/.test(first!)) throw new Error(`the action runner cannot evaluate \${{ ${expression} }}`);
  const value = first!.split(".").reduce<unknown>((at, key) => (at && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined), context);
  const text = value === undefined || value === null ? "" : String(value);
  if (text !== "" || fallback === undefined) return text;
  if (!/^'[^']*'$/.test(fallback)) throw new Error(`the action runner cannot evaluate the fallback in \${{ ${expression} }}`);
  return fallback.slice(1, -1);
}

export function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => evaluate(expression.trim(), context));
}

export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  const action = readAction(path.join(options.actionDir, "action.yml"));
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, options.inputs[name] ?? spec.default ?? ""]));
  for (const name of Object.keys(options.inputs)) if (!(name in action.inputs)) throw new Error(`action.yml has no input ${name}`);
  const stepsContext: Record<string, { outputs: Record<string, string> }> = {};
  const run = options.run ?? { id: "1", attempt: "1" };
  const github = { action_path: options.actionDir, workspace: options.workspace, run_id: run.id, run_attempt: run.attempt, server_url: "https://github.invalid", repository: "user/repo" };
  const runner = { temp: options.runnerTemp, os: "Linux" };
  const context = (): Context => ({ inputs, steps: stepsContext, github, runner });
  const summaries: string[] = [];
  const result: ActionRun = { steps: [], outputs: {}, summary: "", failed: false };
  for (const [i, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.id ?? `step ${i + 1}`;
    if (step.id) stepsContext[step.id] = { outputs: {} };
    const afterFailure = runsAfterFailure(step.if, name, step.run !== undefined);
    if (step.uses !== undefined || (result.failed && !afterFailure)) {
      result.steps.push({ name, ran: false, exitCode: null, stdout: "", stderr: "" });
      continue;
    }
    const script = step.run ?? "";
    // Inputs reach a script through env: only, never as an expression inside it (script injection).
    if (script.includes("${{")) throw new Error(`step "${name}" has an expression inside its script; pass it through env:`);
    if (step.shell !== "bash") throw new Error(`step "${name}": a composite action's run step needs shell: bash`);
    const files = path.join(options.runnerTemp, "_runner_file_commands", String(i));
    fs.mkdirSync(files, { recursive: true });
    const outputFile = path.join(files, "output");
    const summaryFile = path.join(files, "summary");
    const scriptFile = path.join(files, "script.sh");
    for (const file of [outputFile, summaryFile]) fs.writeFileSync(file, "");
    fs.writeFileSync(scriptFile, script);
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, substitute(String(value), context())]));
    const cwd = path.resolve(options.workspace, substitute(step["working-directory"] ?? ".", context()));
    const ran = await execa("bash", ["--noprofile", "--norc", "-eo", "pipefail", scriptFile], {
      cwd,
      reject: false,
      extendEnv: false,
      env: {
        ...(options.env ?? process.env),
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: options.workspace,
        GITHUB_ACTION_PATH: options.actionDir,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        RUNNER_TEMP: options.runnerTemp,
        RUNNER_OS: runner.os,
        GITHUB_RUN_ID: run.id,
        GITHUB_RUN_ATTEMPT: run.attempt,
        ...env,
      },
    });
    if (step.id) stepsContext[step.id] = { outputs: parseOutputFile(fs.readFileSync(outputFile, "utf8")) };
    summaries.push(fs.readFileSync(summaryFile, "utf8"));
    result.steps.push({ name, ran: true, exitCode: ran.exitCode ?? null, stdout: ran.stdout, stderr: ran.stderr });
    if (ran.exitCode !== 0) result.failed = true;
  }
  result.outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, substitute(output.value, context())]));
  result.summary = summaries.join("");
  return result;
}
