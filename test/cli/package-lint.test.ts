// The package as it will be installed, linted by the tools TypeScript libraries use: publint (what package.json
// promises against what the tarball holds) and arethetypeswrong (whether its types resolve as its code does), on a
// tarball packed from a copy, plus what the tarball must and must not carry.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packFromCopy } from "../packed-package.ts";

describe("the packed package", { timeout: 300_000 }, () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-lint-"));
  let tarball: Uint8Array;
  beforeAll(async () => {
    tarball = new Uint8Array(fs.readFileSync(await packFromCopy(scratch)));
  }, 300_000);
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("has nothing publint finds, at its strictest", async () => {
    const { messages, pkg } = await publint({ pack: { tarball: tarball.buffer as ArrayBuffer }, level: "suggestion", strict: true });
    expect(messages.map((m) => `${m.code}: ${formatMessage(m, pkg) ?? ""}`)).toEqual([]);
  });

  it("has types that resolve as its code does, for an ESM-only package", async () => {
    const result = await checkPackage(createPackageFromTarballData(tarball));
    if (!("problems" in result)) throw new Error(`arethetypeswrong found no types: ${JSON.stringify(result)}`);
    // ccrepro is ESM-only (type: module; scenarios are ES modules its own loader reads), so `require("ccrepro")` under
    // node16's CommonJS and node10's resolution are not promised: attw's own esm-only profile leaves them out the same way.
    const ignored = new Set(["node10", "node16-cjs"]);
    const problems = result.problems.filter((p) => !("resolutionKind" in p) || !ignored.has(p.resolutionKind));
    expect(problems).toEqual([]);
    // Both entries were looked at, so an empty list is an answer and not a package with no entries.
    expect(Object.keys(result.entrypoints).sort()).toEqual([".", "./checkers", "./package.json"]);
  });

  it("ships the CLI, the kit's types, the action and the changelog, and no TypeScript source of the tool", async () => {
    const pkg = createPackageFromTarballData(tarball);
    const files = pkg.listFiles().map((file) => file.replace(/^\/node_modules\/ccrepro\//, ""));
    for (const file of ["bin/ccrepro.mjs", "dist/bundle/main.js", "dist/kit/index.d.ts", "dist/kit/checkers.d.ts", "action.yml", "CHANGELOG.md", "README.md", "LICENSE", "package.json"]) expect(files).toContain(file);
    // Sources outside dist/: none (dist/ carries the built-in scenarios' and templates' sources on purpose, for
    // `ccrepro new --from` and the copy a run keeps).
    expect(files.filter((file) => /\.ts$/.test(file) && !file.endsWith(".d.ts") && !file.startsWith("dist/"))).toEqual([]);
    expect(files.filter((file) => file.startsWith("test/") || file.startsWith("runs/"))).toEqual([]);
    // Every file the exports name is shipped, but for the `source` condition's: this checkout's own type check reads
    // kit/*.ts through it (tsconfig's customConditions), and only a project that asks for that condition reaches it.
    // tsconfig `paths` would do the same for tsc, but tsx reads them too, and a scenario file in the checkout would
    // then load the kit's sources instead of the bundle's (test/cli/bundle.test.ts).
    type Exports = { [key: string]: string | Exports };
    const leaves = (value: string | Exports): string[] =>
      typeof value === "string" ? [value] : Object.entries(value).flatMap(([key, inner]) => (key === "source" ? [] : leaves(inner)));
    const exported = leaves((JSON.parse(pkg.readFile("/node_modules/ccrepro/package.json") as string) as { exports: Exports }).exports);
    expect(exported.length).toBeGreaterThan(3);
    expect(exported.map((target) => target.replace(/^\.\//, "")).filter((file) => !files.includes(file))).toEqual([]);
  });
});
