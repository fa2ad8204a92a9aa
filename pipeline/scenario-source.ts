// Where scenarios come from: a built-in name, or a file anywhere on disk that imports "ccrepro". Every command that
// takes a scenario goes through loadScenario(); a bad file is a ScenarioFileError naming the file and the fix.
import fs from "node:fs";
import module from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { z } from "zod";
import { isUserError, UserError } from "../core/errors.ts";
import { withScenarioDataFiles } from "../core/scenario-data.ts";
import type { ScenarioDataFile, ScenarioSource } from "../harness/plan.ts";
import { readRunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import { REMOVED_NAMES } from "../kit/definition-error.ts";
import { defineScenario, isDefinedScenario, scenarioProblems, type Scenario } from "../kit/scenario.ts";
import { mockScriptSchema } from "../mock-api/script.ts";
import { sha256Hex } from "../core/hash.ts";
import { defaultParams } from "../kit/scenario-params.ts";

export class ScenarioFileError extends UserError {
  constructor(
    readonly file: string,
    problem: string,
    fix: string,
  ) {
    super(`scenario file ${file}: ${problem}. ${fix}`, "BAD_SCENARIO_FILE");
    this.name = "ScenarioFileError";
  }
}

const SCENARIO_EXTENSIONS = /\.(ts|mts|mjs|js)$/;

// A word is a path when it could not be a scenario name: it has a slash or a script's extension.
export function looksLikePath(word: string): boolean {
  return word.includes("/") || word.includes(path.sep) || SCENARIO_EXTENSIONS.test(word);
}

const origins = new WeakMap<Scenario, ScenarioSource>();
// File scenarios loaded in this process, by name, so a run's name finds its scenario again (check, nightly cells).
const loaded = new Map<string, Scenario>();

// The hash run.json keeps of a scenario file's source (the text as read, UTF-8).
export function sourceSha256(text: string): string {
  return sha256Hex(text);
}

export function originOf(scenario: Scenario): ScenarioSource {
  return origins.get(scenario) ?? { kind: "builtin", name: scenario.name };
}

// A file scenario this process loaded, by name (pipeline/scenario-registry.ts adds the built-ins).
export function loadedFileScenario(name: string): Scenario | undefined {
  return loaded.get(name);
}

// Every file scenario this process loaded, in load order.
export function loadedFileScenarios(): Scenario[] {
  return [...loaded.values()];
}

// The module beside this one: the sources in a checkout, the compiled .js in a built or installed package.
const OWN_EXTENSION = import.meta.url.endsWith(".ts") ? "ts" : "js";
const SCENARIOS_DIR = new URL("../scenarios/", import.meta.url);
// Defined by the build in dist/bundle/ (scripts/build.mjs). There the built-ins are taken from the bundle and share
// the CLI's modules; the kit that scenario files import is too, which loads its bundled chunks (a copy per tsx
// namespace, as the compiled kit/ was) instead of the compiled kit's modules and zod's 95 files.
declare const CCREPRO_BUNDLED: boolean | undefined;
const BUNDLE_DIR = typeof CCREPRO_BUNDLED === "undefined" ? null : new URL("../bundle/", import.meta.url);

// The built-ins' names: scenarios/NAME.ts is the scenario NAME (test/scenarios/registry.test.ts holds every file to it).
export function builtinScenarioNames(): string[] {
  return fs
    .readdirSync(SCENARIOS_DIR)
    .filter((file) => file.endsWith(`.${OWN_EXTENSION}`) && !file.endsWith(".d.ts"))
    .map((file) => file.slice(0, -(OWN_EXTENSION.length + 1)))
    .filter((name) => name !== "index")
    .sort();
}

// One built-in, its own module alone: a run of one scenario imported all of them through the registry, some 50 ms of
// CPU and most of the scenario load.
async function builtinScenario(name: string): Promise<Scenario | undefined> {
  if (!builtinScenarioNames().includes(name)) return undefined;
  return ((await import(new URL(`${name}.${OWN_EXTENSION}`, BUNDLE_DIR ?? SCENARIOS_DIR).href)) as { default: Scenario }).default;
}

export async function loadScenario(word: string, options: { baseDir?: string } = {}): Promise<Scenario> {
  if (!looksLikePath(word)) {
    const scenario = await builtinScenario(word);
    if (scenario) return scenario;
    throw new UserError(
      `unknown scenario "${word}"; known: ${builtinScenarioNames().join(", ")} (a scenario file is given by its path, e.g. ./${word}.ts)`,
      "UNKNOWN_SCENARIO",
    );
  }
  return loadScenarioFile(path.resolve(options.baseDir ?? process.cwd(), word), word);
}

let hooksInstalled = false;
let loads = 0;

// Where "ccrepro" and "ccrepro/checkers" resolve: the kit beside this module.
const KIT_ENTRIES = { ccrepro: "index", "ccrepro/checkers": "checkers" } as const;
function kitEntryUrl(entry: keyof typeof KIT_ENTRIES): string {
  const file = KIT_ENTRIES[entry];
  return pathToFileURL(fileURLToPath(new URL(BUNDLE_DIR ? `${file}.js` : `../kit/${file}.${OWN_EXTENSION}`, BUNDLE_DIR ?? import.meta.url))).href;
}

function installHooks(): void {
  if (hooksInstalled) return;
  module.register(new URL("./resolve-ccrepro.mjs", import.meta.url).href, { data: { entries: { ccrepro: kitEntryUrl("ccrepro"), "ccrepro/checkers": kitEntryUrl("ccrepro/checkers") } } });
  hooksInstalled = true;
}

// tsx reports a transform error as "<file>:<line>:<column>: ERROR: <message>"; keep that line, drop the rest.
async function importFailure(shown: string, error: unknown): Promise<ScenarioFileError> {
  const message = error instanceof Error ? error.message : String(error);
  const located = /:(\d+):(\d+): ERROR: (.*)/.exec(message);
  if (located) return new ScenarioFileError(`${shown}:${located[1]}:${located[2]}`, `syntax error: ${located[3]}`, "Fix the file and run again");
  // By its code: the file's own copy of the kit threw it, so `instanceof` against this copy's class does not hold.
  if (isUserError(error) && error.code === "BAD_SCENARIO_DEFINITION") {
    return new ScenarioFileError(shown, `defineScenario() found problems: ${message}`, error.hint ?? "Fix those fields and run again");
  }
  const missing = /The requested module '(ccrepro(?:\/checkers)?)' does not provide an export named '([\w$]+)'/.exec(message);
  if (missing) return missingExport(shown, missing[1] as keyof typeof KIT_ENTRIES, missing[2]!);
  if (error instanceof SyntaxError) return new ScenarioFileError(shown, `syntax error: ${message}`, "Fix the file and run again");
  const where = error instanceof Error ? firstFrameIn(error, shown) : "";
  return new ScenarioFileError(`${shown}${where}`, `loading it threw ${error instanceof Error ? error.name : "a value"}: ${message}`, "Fix the file and run again");
}

// A name the file imports that its entry lacks: it is in the other entry, or it was dropped at 0.1 and something
// replaces it, or it never existed. Each answer says what to write instead.
// The other entry is loaded already: the file's import of it resolved to the same URL.
async function missingExport(shown: string, entry: keyof typeof KIT_ENTRIES, name: string): Promise<ScenarioFileError> {
  const problem = `it imports ${name} from "${entry}", which has no such export`;
  const other = entry === "ccrepro" ? "ccrepro/checkers" : "ccrepro";
  const otherModule = (await import(kitEntryUrl(other))) as Record<string, unknown>;
  if (name in otherModule) return new ScenarioFileError(shown, problem, `Import ${name} from "${other}"`);
  const replacement = REMOVED_NAMES[name];
  if (replacement !== undefined) return new ScenarioFileError(shown, problem, `${name} was dropped in 0.1: use ${replacement} (docs/kit.md, "What changed for an existing scenario file")`);
  return new ScenarioFileError(shown, problem, "Check the name against docs/kit.md and the API reports in docs/api/");
}

// Where in the user's file a load-time exception happened, as ":line", when the stack says.
function firstFrameIn(error: Error, shown: string): string {
  const base = path.basename(shown);
  const frame = (error.stack ?? "").split("\n").find((line) => line.includes(base));
  const at = frame ? /:(\d+):\d+\)?$/.exec(frame.replace(/\?[^:]*/, "")) : null;
  return at ? `:${at[1]}` : "";
}

// A union's "Invalid input" says nothing; the branch that got furthest into the value says what is wrong.
function describeIssue(issue: z.core.$ZodIssue, at: PropertyKey[]): string {
  const here = [...at, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const branches = issue.errors.filter((branch) => branch.length > 0);
    const deepest = branches.flat().sort((a, b) => b.path.length - a.path.length)[0];
    if (deepest) return describeIssue(deepest, here);
  }
  return `${here.map(String).join(".")}: ${issue.message}`;
}

// How a file becomes a module: through tsx here; the confined check's child imports it through its own hooks.
export type ModuleImporter = (file: string) => Promise<Record<string, unknown>>;

const tsxImport: ModuleImporter = async (file) => {
  installHooks();
  // A namespace per load: a file edited since an earlier load in this process is imported afresh.
  loads += 1;
  // tsx (esbuild) strips the file's types; loaded only here, for scenario files, never for the tool's own modules.
  const { register } = await import("tsx/esm/api");
  const api = register({ namespace: `ccrepro-scenario-${loads}` });
  return api.import(pathToFileURL(file).href, import.meta.url);
};

export async function loadScenarioFile(file: string, shown: string, importer: ModuleImporter = tsxImport): Promise<Scenario> {
  const { value, files } = await withScenarioDataFiles(() => importScenarioFile(file, shown, importer));
  const { scenario, text } = value;
  origins.set(scenario, { kind: "file", path: file, sha256: sourceSha256(text), text, data: dataFilesOf(file, shown, files) });
  loaded.set(scenario.name, scenario);
  return scenario;
}

// The data files the scenario read while it loaded, as the run directory copies them: beside its copy of the file,
// at the same place relative to it. One outside the scenario's folder could not be found from the copy, so it is refused.
function dataFilesOf(file: string, shown: string, files: string[]): ScenarioDataFile[] {
  const folder = path.dirname(file);
  return files.map((data) => {
    const relative = path.relative(folder, data);
    if (relative.startsWith("..") || path.isAbsolute(relative)) {
      throw new ScenarioFileError(shown, `it reads ${data}, outside its own folder, so a run directory could not keep it beside its copy of the file`, "Keep the recordings a scenario file reads in its folder (ccrepro import writes them there), and load them relative to the file: new URL(\"./name.recording.json\", import.meta.url)");
    }
    const bytes = fs.readFileSync(data);
    return { relative, bytes, sha256: sha256Hex(bytes) };
  });
}

async function importScenarioFile(file: string, shown: string, importer: ModuleImporter): Promise<{ scenario: Scenario; text: string }> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ScenarioFileError(shown, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, "Pass the path of a .ts or .mjs scenario file, or a built-in name from `ccrepro scenarios`");
  }
  let exported: Record<string, unknown>;
  try {
    exported = await importer(file);
  } catch (error) {
    throw await importFailure(shown, error);
  }
  if (exported.default === undefined) {
    throw new ScenarioFileError(shown, "has no default export", "End it with `export default defineScenario({ … })` (ccrepro new NAME writes a starting file)");
  }
  const problems = scenarioProblems(exported.default);
  if (problems.length > 0) throw new ScenarioFileError(shown, `the default export is not a scenario: ${problems.join("; ")}`, "Fix those fields and run again");
  let scenario: Scenario;
  try {
    // A plain object (a file that skipped defineScenario) is defined here, so it runs as the built-ins do.
    scenario = isDefinedScenario(exported.default) ? exported.default : defineScenario(exported.default as Parameters<typeof defineScenario>[0]);
  } catch (error) {
    throw await importFailure(shown, error);
  }
  if (builtinScenarioNames().includes(scenario.name)) {
    throw new ScenarioFileError(shown, `its name "${scenario.name}" is a built-in scenario's`, "Give it a name of its own");
  }
  // What a run would do with the default parameters, checked now rather than minutes into a run.
  const defaults = defaultParams(scenario);
  try {
    const script = mockScriptSchema.safeParse(scenario.mockScript(defaults));
    if (!script.success) {
      const issues = script.error.issues.map((issue) => describeIssue(issue, ["mockScript"]));
      throw new ScenarioFileError(shown, `its mock script is wrong: ${issues.join("; ")}`, "Fix the replies and run again");
    }
    // defineScenario already refused steps on sessions never started; building them here names a throw in this file.
    scenario.steps(defaults);
  } catch (error) {
    if (error instanceof ScenarioFileError) throw error;
    throw new ScenarioFileError(shown, `building its script or steps for the default parameters threw: ${(error as Error).message}`, "Fix mockScript() or steps() and run again");
  }
  return { scenario, text };
}

// The scenario a run directory was recorded with: its copy of a file scenario, or the built-in it names.
export async function scenarioOfRun(runDir: string): Promise<Scenario | undefined> {
  const layout = runLayout(runDir);
  let record;
  try {
    record = readRunRecord(layout.runJson);
  } catch {
    // checkRecordedRun says what is wrong with run.json.
    return undefined;
  }
  if (record.source?.kind !== "file") return builtinScenario(record.scenario);
  return loadScenarioFile(path.join(runDir, record.source.copy), path.join(runDir, record.source.copy));
}
