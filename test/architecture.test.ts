// The folder tree is the architecture: dependency-cruiser checks every import against the floor plan in
// .dependency-cruiser.cjs (each folder imports only lower floors; no cycles), and this test fails on any violation.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { cruise, type ICruiseResult } from "dependency-cruiser";
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

  it("names every top-level source folder on a floor", () => {
    const onPlan = new Set([...config.FLOORS.flat(), "test", "node_modules", "runs", "test-output"]);
    const sourceFolders = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith(".") && fs.readdirSync(path.join(root, e.name)).some((f) => /\.(ts|mjs)$/.test(f)));
    expect(sourceFolders.map((e) => e.name).filter((name) => !onPlan.has(name))).toEqual([]);
  });
});
