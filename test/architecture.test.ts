// The folder tree is the architecture: dependency-cruiser checks every import against the floor plan in
// .dependency-cruiser.cjs (each folder imports only lower floors; no cycles), and this test fails on any violation.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import ts from "typescript";
import { describe, expect, it } from "vitest";

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

