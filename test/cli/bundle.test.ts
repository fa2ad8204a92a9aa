// The built CLI runs from dist/bundle/, and a user's scenario file gets its kit from the same bundle (under tsx's
// namespace for that load, so as its own instance of the kit's chunks): every module the process loads is listed by a
// module hook, and none of the unbundled copies (the compiled cli/, kit/, scenarios/, or zod from node_modules) is
// among them. Without that, the CLI still works, only paying again for what it loads.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..");
const CLI = path.join(ROOT, "bin", "ccrepro.mjs");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-bundle-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

it("loads the CLI and a user's scenario file's kit from dist/bundle/ alone", async () => {
  const log = path.join(tmp, "loaded.txt");
  const hooks = path.join(tmp, "hooks.mjs");
  fs.writeFileSync(hooks, `import fs from "node:fs";\nexport async function load(url, context, next) { if (url.startsWith("file:")) fs.appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }\n`);
  const register = path.join(tmp, "register.mjs");
  fs.writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  // The scenario file loads; the missing binary then stops the run before anything is started.
  const result = await execa("node", ["--import", register, CLI, "run", path.join(ROOT, "examples", "my-bug.ts"), "--claude", path.join(tmp, "no-such-claude")], { reject: false, timeout: 60_000 });
  expect(result.stderr).toContain("does not exist");
  // Without the query tsx adds for the scenario file's namespace.
  const loaded = fs.readFileSync(log, "utf8").split("\n").filter(Boolean).map((url) => url.replace(/\?.*/, ""));
  const dist = pathToFileURL(path.join(ROOT, "dist")).href;
  expect(loaded).toContain(`${dist}/bundle/main.js`);
  expect(loaded).toContain(`${dist}/bundle/index.js`);
  expect(loaded).toContain(`${dist}/bundle/checkers.js`);
  // The compiled modules (.js); the plain .mjs files the modules reach by URL, such as the module hook, are assets.
  expect(loaded.filter((url) => /\/dist\/(cli|kit|scenarios|pipeline|harness)\/.*\.js$|\/node_modules\/zod\//.test(url))).toEqual([]);
});
