// The README's way to give an editor the types: the checkout linked as node_modules/ccrepro (what `npm link ccrepro`
// makes) in a folder outside it. "ccrepro" then resolves through package.json's exports to kit/index.ts, and the
// example type-checks against it.
import fs from "node:fs";
import module from "node:module";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-linked-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe("a scenario folder with ccrepro linked", () => {
  fs.mkdirSync(path.join(folder, "node_modules"));
  fs.symlinkSync(ROOT, path.join(folder, "node_modules", "ccrepro"), "dir");
  fs.copyFileSync(path.join(ROOT, "examples", "my-bug.ts"), path.join(folder, "my-bug.ts"));
  fs.writeFileSync(path.join(folder, "package.json"), JSON.stringify({ type: "module" }));

  it("resolves the bare name to the public entry", () => {
    const resolved = module.createRequire(path.join(folder, "my-bug.ts")).resolve("ccrepro");
    // Node takes the exports' default: the compiled kit (the `source` condition is the type checker's, in the checkout).
    expect(fs.realpathSync(resolved)).toBe(path.join(fs.realpathSync(ROOT), "dist", "kit", "index.js"));
  });

  it("type-checks the example against it", async () => {
    fs.writeFileSync(
      path.join(folder, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true, typeRoots: [path.join(ROOT, "node_modules", "@types")], types: ["node"] },
        files: ["my-bug.ts"],
      }),
    );
    const tsc = await execa("node", [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", folder], { reject: false });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.exitCode).toBe(0);
  }, 120_000);
});
