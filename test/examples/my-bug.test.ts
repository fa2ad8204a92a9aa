// The README's "Reproduce your own bug" shows examples/my-bug.ts verbatim, so the file the end-to-end test runs is
// the one a reader copies.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..");

describe("examples/my-bug.ts", () => {
  it("is printed in the README unchanged, under 40 lines", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Reproduce your own bug"));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    const file = fs.readFileSync(path.join(ROOT, "examples", "my-bug.ts"), "utf8");
    expect(block).toBe(file);
    expect(file.trimEnd().split("\n").length).toBeLessThan(40);
  });
});
