// The folder tree is the architecture: dependency-cruiser checks every import against the floor plan in
// .dependency-cruiser.cjs (each folder imports only lower floors; no cycles), and this test fails on any violation.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { runLayout, sdkSessionFiles, sessionLayout, terminalFiles } from "../harness/run-layout.ts";

const root = path.join(import.meta.dirname, "..");
const config = createRequire(import.meta.url)(path.join(root, ".dependency-cruiser.cjs")) as {
  FLOORS: string[][];
  forbidden: unknown[];
  options: Record<string, unknown>;
};

async function cruiseTree(dir: string): Promise<ICruiseResult> {
  const folders = config.FLOORS.flat().filter((folder) => fs.existsSync(path.join(dir, folder)));
  const previous = process.cwd();
  process.chdir(dir);
  try {
    const result = await cruise(folders, { validate: true, ruleSet: { forbidden: config.forbidden }, ...config.options } as never);
    return result.output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
}

const violations = (result: ICruiseResult) => result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

describe("the floor plan", () => {
  it("holds for the whole tree: no import against the flow, no cycle", async () => {
    const result = await cruiseTree(root);
    expect(result.summary.totalCruised).toBeGreaterThan(100);
    expect(violations(result)).toEqual([]);
  });

  it("catches an import against the flow, a cycle, and a command importing a command", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-arch-"));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    fs.copyFileSync(path.join(root, "tsconfig.json"), path.join(dir, "tsconfig.json"));
    write("checker/judge.ts", 'export const x = 1;\n');
    write("harness/driver.ts", 'import { x } from "../checker/judge.ts";\nexport const y = x;\n');
    write("mock-api/a.ts", 'import { b } from "./b.ts";\nexport const a = () => b;\n');
    write("mock-api/b.ts", 'import { a } from "./a.ts";\nexport const b = () => a;\n');
    write("cli/commands/run.ts", 'export const shared = 1;\n');
    write("report/page.ts", 'export const p = 1;\n');
    write("atlas/search.ts", 'import { p } from "../report/page.ts";\nexport const s = p;\n');
    write("bisect/step.ts", 'import { s } from "../atlas/search.ts";\nexport const t = s;\n');
    write("cli/commands/bench.ts", 'import { shared } from "./run.ts";\nexport const b = shared;\n');
    try {
      const found = violations(await cruiseTree(dir));
      expect(found).toContain("harness-imports-only-lower-floors: harness/driver.ts → checker/judge.ts");
      expect(found.some((v) => v.startsWith("no-circular: mock-api/"))).toBe(true);
      expect(found).toContain("command-imports-command: cli/commands/bench.ts → cli/commands/run.ts");
      // The atlas sits above bisect and sweep and below the reports.
      expect(found).toContain("atlas-imports-only-lower-floors: atlas/search.ts → report/page.ts");
      expect(found).toContain("bisect-imports-only-lower-floors: bisect/step.ts → atlas/search.ts");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("type-checks every floor's folder, and builds every one the CLI loads", () => {
    const include = (file: string) => (JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as { include: string[] }).include;
    const floors = config.FLOORS.flat();
    expect(floors.filter((folder) => folder !== "bin" && !include("tsconfig.json").includes(folder))).toEqual([]);
    // bin/ and scripts/ are plain .mjs run as they are; examples/ is copied, not compiled.
    expect(floors.filter((folder) => !["bin", "scripts", "examples"].includes(folder) && !include("tsconfig.build.json").includes(folder))).toEqual([]);
  });

  it("names every top-level source folder on a floor", () => {
    const onPlan = new Set([...config.FLOORS.flat(), "test", "node_modules", "runs", "test-output"]);
    const sourceFolders = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith(".") && fs.readdirSync(path.join(root, e.name)).some((f) => /\.(ts|mjs)$/.test(f)));
    expect(sourceFolders.map((e) => e.name).filter((name) => !onPlan.has(name))).toEqual([]);
  });
});

// The entry points that run claude (once or over a range) and the orchestrators above them. A command calls one of
// them once and prints; a loop over them in cli/ is orchestration that belongs to pipeline/, sweep/, bisect/ or nightly/.
const RUNNERS = new Set(["runAndCheck", "runRepeats", "runSweep", "runNightly", "nightly", "runBisect", "flakyBisect", "fixedRepeatBisect", "bisectClaudeReleases", "bisectClaudeRates", "bisectSdkReleases", "runAtlas"]);
const LOOPS = new Set([ts.SyntaxKind.ForStatement, ts.SyntaxKind.ForOfStatement, ts.SyntaxKind.ForInStatement, ts.SyntaxKind.WhileStatement, ts.SyntaxKind.DoStatement]);
const ITERATING = /^(map|forEach|flatMap|reduce|filter|some|every)$/;

// Calls of a runner inside a loop, or inside a callback given to an array's iterating method, in this source text.
function runnersInLoops(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const insideLoop = (node: ts.Node): boolean => {
    for (let at = node.parent; at; at = at.parent) {
      if (LOOPS.has(at.kind)) return true;
      if (ts.isCallExpression(at) && ts.isPropertyAccessExpression(at.expression) && ITERATING.test(at.expression.name.text) && at.arguments.some((arg) => arg.pos <= node.pos && node.end <= arg.end)) return true;
    }
    return false;
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && RUNNERS.has(node.expression.text) && insideLoop(node)) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.expression.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("commands orchestrate nothing", () => {
  const cliFiles = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? cliFiles(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));

  it("no module of cli/ calls a runner in a loop", () => {
    const found = cliFiles(path.join(root, "cli")).flatMap((file) => runnersInLoops(path.relative(root, file), fs.readFileSync(file, "utf8")));
    expect(found).toEqual([]);
  });

  it("catches a loop of runs, and a map over releases", () => {
    const loop = "for (const v of versions) { await runAndCheck({ v }); }";
    const mapped = "await Promise.all(entries.map((e) => runSweep(e)));";
    const once = "const outcome = await runSweep(options); for (const r of outcome.results) print(r);";
    expect(runnersInLoops("cli/commands/x.ts", loop)).toEqual(["cli/commands/x.ts:1 runAndCheck"]);
    expect(runnersInLoops("cli/commands/y.ts", mapped)).toEqual(["cli/commands/y.ts:1 runSweep"]);
    expect(runnersInLoops("cli/commands/z.ts", once)).toEqual([]);
  });
});


// A run directory's names, as harness/run-layout.ts spells them: its entries (run.json, mock, sessions, …) and the files
// of a session's directory (stdout.jsonl, session.json, terminal.jsonl, sdk.json, …).
const LAYOUT = runLayout("/");
const SESSION = sessionLayout(LAYOUT, "s");
const RUN_DIR_NAMES = new Set([
  ...Object.entries(LAYOUT).filter(([key]) => key !== "root").map(([, file]) => file.split("/")[1]!),
  ...[...Object.values(SESSION), ...Object.values(terminalFiles(LAYOUT, "s")), ...Object.values(sdkSessionFiles(SESSION))].filter((file) => file !== SESSION.dir).map((file) => path.basename(file)),
]);
// The isolated home, config, tmp and work directories hold the binary's own files, named by the binary, not by ccrepro.
const BINARY_DIRS = new Set(["home", "config", "tmp", "work"]);

// Where a module spells a run directory's name itself: a string starting with one of them given to path.join,
// path.resolve or path.relative (unless it is under one of the binary's directories), or a file's name (one with a
// dot: run.json, hooks.jsonl) anywhere.
function runDirNamesSpelled(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node)) {
      const first = node.text.split("/")[0]!;
      const call = node.parent;
      const inPathCall =
        ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && ts.isIdentifier(call.expression.expression) && call.expression.expression.text === "path" && /^(join|resolve|relative)$/.test(call.expression.name.text);
      const base = inPathCall ? call.arguments[0] : undefined;
      const underBinaryDir = base !== undefined && ts.isPropertyAccessExpression(base) && BINARY_DIRS.has(base.name.text);
      if (RUN_DIR_NAMES.has(first) && ((inPathCall && !underBinaryDir) || first.includes("."))) {
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the run directory's layout has one owner", () => {
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|mts|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : []));

  it("no module but harness/run-layout.ts spells a name inside a run directory", () => {
    const found = config.FLOORS.flat()
      .flatMap((folder) => sources(path.join(root, folder)))
      .map((file) => path.relative(root, file))
      .filter((file) => file !== path.join("harness", "run-layout.ts"))
      .flatMap((file) => runDirNamesSpelled(file, fs.readFileSync(path.join(root, file), "utf8")));
    expect(RUN_DIR_NAMES).toContain("run.json");
    expect(RUN_DIR_NAMES).toContain("terminal.jsonl");
    expect(found).toEqual([]);
  });

  it("catches a run.json, a session file and a run directory's folder spelled elsewhere, not the binary's own", () => {
    const spelled = [
      'const a = path.join(dir, "run.json");',
      'const b = ["hooks.jsonl", "x"];',
      'const c = path.join(runDir, "sessions", label, "stderr.log");',
      'const d = path.join("mock", REQUEST_INDEX_FILE);',
    ].join("\n");
    const fine = ['const e = path.join(layout.config, "sessions");', 'const f = runLayout(dir).runJson;', 'const g = `${dir} has no run.json`;'].join("\n");
    expect(runDirNamesSpelled("report/x.ts", spelled)).toEqual(['report/x.ts:1 "run.json"', 'report/x.ts:2 "hooks.jsonl"', 'report/x.ts:3 "sessions"', 'report/x.ts:3 "stderr.log"', 'report/x.ts:4 "mock"']);
    expect(runDirNamesSpelled("report/y.ts", fine)).toEqual([]);
  });
});
