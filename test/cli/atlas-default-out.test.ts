// Issue 45, item 9: `ccrepro atlas X` with no --out wrote atlas.json, site/ and runs/ into the source folder atlas/,
// since the default output folder had the code folder's name. The default must be no source folder and be ignored by git.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_ATLAS_OUT } from "../../cli/commands/atlas.ts";

const root = path.join(import.meta.dirname, "..", "..");
const { FLOORS } = createRequire(import.meta.url)(path.join(root, ".dependency-cruiser.cjs")) as { FLOORS: string[][] };

describe("the atlas's default output folder", () => {
  it("is inside no source folder of the checkout, and git ignores it", () => {
    const top = path.relative(root, path.resolve(root, DEFAULT_ATLAS_OUT)).split(path.sep)[0]!;
    expect(FLOORS.flat()).not.toContain(top);
    expect(["docs", "test"]).not.toContain(top);
    // git check-ignore exits 0 for an ignored path, 1 for one it would track.
    const ignored = spawnSync("git", ["check-ignore", "-q", path.join(DEFAULT_ATLAS_OUT, "atlas.json")], { cwd: root, stdio: "ignore" });
    expect(ignored.status).toBe(0);
  });
});
