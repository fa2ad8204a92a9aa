// `ccrepro init ci`: checks that the repository can run the action, finds its scenario files, and writes the
// workflow (ci-workflow.ts) to .github/workflows/ccrepro.yml; never over a file without --force.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { CCREPRO_ROOT } from "../core/package-root.ts";
import { renderCiWorkflow, workflowScenarios, type WorkflowScenario } from "./ci-workflow.ts";

export const WORKFLOW_FILE = path.join(".github", "workflows", "ccrepro.yml");

export interface InitCiOptions {
  // The repository's root (where package.json is).
  dir: string;
  // Scenario files (relative to dir) or built-in names; found under dir when absent.
  scenarios?: readonly string[];
  // `owner/repo@ref` of a ccrepro checkout; null: the installed package's action.
  action: string | null;
  force: boolean;
}

export interface InitCiResult {
  file: string;
  scenarios: WorkflowScenario[];
  found: boolean;
  replaced: boolean;
}

// Folders no scenario of the user's lives in.
const SKIPPED = new Set(["node_modules", ".git", "dist", "runs", "coverage", ".cache"]);
const SCENARIO_FILE = /\.(ts|mts|js|mjs)$/;
// A file that imports the kit and defines a scenario with it.
const DEFINES_SCENARIO = /from\s+["']ccrepro["'][\s\S]*defineScenario\s*\(/;

export function findScenarioFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string, depth: number) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name, "en"))) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        if (depth < 6 && !SKIPPED.has(entry.name) && !entry.name.startsWith(".")) walk(full, depth + 1);
      } else if (entry.isFile() && SCENARIO_FILE.test(entry.name) && !entry.name.endsWith(".d.ts") && DEFINES_SCENARIO.test(fs.readFileSync(full, "utf8"))) {
        found.push(path.relative(dir, full).split(path.sep).join("/"));
      }
    }
  };
  walk(dir, 0);
  return found;
}

function dependsOnCcrepro(dir: string): boolean {
  const file = path.join(dir, "package.json");
  if (!fs.existsSync(file)) return false;
  const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, Record<string, string> | undefined>;
  return ["dependencies", "devDependencies", "optionalDependencies"].some((field) => pkg[field]?.["ccrepro"] !== undefined);
}

const hasLockfile = (dir: string) => ["package-lock.json", "npm-shrinkwrap.json"].some((name) => fs.existsSync(path.join(dir, name)));

export function initCi(options: InitCiOptions): InitCiResult {
  const dir = path.resolve(options.dir);
  if (options.action !== null && !/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[\w./-]+$/.test(options.action)) {
    throw new UserError(`--action ${options.action}: expected owner/repo@ref, the ccrepro repository and the tag, branch or commit to use (e.g. someone/ccrepro@v0.2.0)`, "BAD_ARGUMENT");
  }
  if (options.action === null) {
    if (!dependsOnCcrepro(dir)) {
      throw new UserError(`${path.join(dir, "package.json")} does not list ccrepro: run \`npm i -D ccrepro\` here first (the workflow runs the action of the version you install), or pass --action owner/repo@ref`, "NOT_SET_UP");
    }
    if (!hasLockfile(dir)) throw new UserError(`no package-lock.json in ${dir}: run \`npm install\` first, so the workflow's \`npm ci\` installs the ccrepro you have`, "NOT_SET_UP");
  }
  const words = options.scenarios && options.scenarios.length > 0 ? [...options.scenarios] : findScenarioFiles(dir);
  if (words.length === 0) {
    throw new UserError(`no scenario file under ${dir} (a file that imports "ccrepro" and calls defineScenario): write one with \`npx ccrepro new my-bug\`, or pass --scenarios`, "NOT_SET_UP");
  }
  for (const word of words) {
    if (/[\\/]|\.(ts|mts|js|mjs)$/.test(word) && !fs.existsSync(path.join(dir, word))) throw new UserError(`--scenarios ${word}: no such file under ${dir}`, "BAD_ARGUMENT", { hint: "give each scenario file by its path relative to that folder, or a built-in by its name (ccrepro scenarios lists them)" });
  }
  const file = path.join(dir, WORKFLOW_FILE);
  const replaced = fs.existsSync(file);
  if (replaced && !options.force) throw new UserError(`${file} already exists: pass --force to replace it, or edit it`, "FILE_EXISTS");
  const scenarios = workflowScenarios(words);
  const version = (JSON.parse(fs.readFileSync(path.join(CCREPRO_ROOT, "package.json"), "utf8")) as { version: string }).version;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, renderCiWorkflow({ scenarios, action: options.action, version, npmCi: hasLockfile(dir) }));
  return { file, scenarios, found: !options.scenarios?.length, replaced };
}
