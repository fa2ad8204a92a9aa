// The explicit scenario index must list exactly the scenario files in scenarios/, each under its file's name.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SCENARIOS } from "../../scenarios/index.ts";

const folder = path.join(import.meta.dirname, "..", "..", "scenarios");
// Modules that support scenarios rather than being one.
const SUPPORT = new Set(["index.ts", "types.ts", "params.ts", "replies.ts", "waits.ts"]);

describe("scenario index", () => {
  it("registers every scenario file once, named after its file", () => {
    const files = fs.readdirSync(folder).filter((name) => name.endsWith(".ts") && !SUPPORT.has(name));
    expect(SCENARIOS.map((s) => `${s.name}.ts`).sort()).toEqual(files.sort());
  });

  it("gives every scenario defaults for all its parameters", () => {
    for (const scenario of SCENARIOS) expect(scenario.params.safeParse({}).success, scenario.name).toBe(true);
  });

  it("never lets a scenario module import process or server code", () => {
    for (const name of fs.readdirSync(folder)) {
      const source = fs.readFileSync(path.join(folder, name), "utf8");
      expect(source, name).not.toMatch(/from "(execa|hono|@hono\/node-server|node:child_process|node-pty)"/);
    }
  });
});
