// A release's declared npm dependencies are installed beside its package (0.2.90–0.2.109 import better-sqlite3, which
// their tarball does not bundle). Offline: the dependency here is a tarball on disk, as npm takes a `file:` range.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { declaredDependencies, installDeclaredDependencies, unresolvedDependencies } from "../../releases/release-dependencies.ts";

const roots: string[] = [];
const tempDir = (label: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ccrepro-deps-${label}-`));
  roots.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of roots) fs.rmSync(dir, { recursive: true, force: true });
});

// A release-shaped entry: root/package/{package.json, cli.mjs}, its package.json declaring `dependencies`.
function entryDeclaring(dependencies: Record<string, string> | undefined): string {
  const root = tempDir("entry");
  fs.mkdirSync(path.join(root, "package"));
  fs.writeFileSync(path.join(root, "package", "package.json"), JSON.stringify({ name: "release", version: "0.2.90", type: "module", ...(dependencies ? { dependencies } : {}) }));
  fs.writeFileSync(path.join(root, "package", "cli.mjs"), 'import greet from "tiny-dep";\nconsole.log(greet());\n');
  return root;
}

async function tinyDepTarball(): Promise<string> {
  const src = tempDir("tiny-dep");
  fs.writeFileSync(path.join(src, "package.json"), JSON.stringify({ name: "tiny-dep", version: "1.2.3", main: "index.js" }));
  fs.writeFileSync(path.join(src, "index.js"), 'module.exports = () => "hello from tiny-dep";\n');
  const out = tempDir("tarball");
  await execa("npm", ["pack", "--pack-destination", out], { cwd: src });
  return path.join(out, "tiny-dep-1.2.3.tgz");
}

describe("installDeclaredDependencies", () => {
  it("installs what the package declares where its entry script finds it, and says which version", async () => {
    const root = entryDeclaring({ "tiny-dep": `file:${await tinyDepTarball()}` });
    const before = await execa(process.execPath, [path.join(root, "package", "cli.mjs")], { reject: false });
    expect(before.stderr).toContain("ERR_MODULE_NOT_FOUND");
    expect(unresolvedDependencies(path.join(root, "package"))).toEqual(["tiny-dep"]);

    expect(await installDeclaredDependencies(root, "release@0.2.90")).toEqual({ "tiny-dep": "1.2.3" });
    const after = await execa(process.execPath, [path.join(root, "package", "cli.mjs")]);
    expect(after.stdout).toBe("hello from tiny-dep");
    expect(unresolvedDependencies(path.join(root, "package"))).toEqual([]);
    // The package itself is as it was unpacked: nothing written into it.
    expect(fs.readdirSync(path.join(root, "package")).sort()).toEqual(["cli.mjs", "package.json"]);
  }, 60_000);

  it("does nothing, and runs no npm, for a package that declares none", async () => {
    const root = entryDeclaring(undefined);
    expect(await installDeclaredDependencies(root, "release@1.0.0")).toEqual({});
    expect(fs.readdirSync(root)).toEqual(["package"]);
    expect(declaredDependencies(path.join(root, "missing"))).toEqual({});
  });

  it("says what could not be installed, and what to do, when npm fails", async () => {
    const root = entryDeclaring({ "tiny-dep": `file:${path.join(tempDir("empty"), "absent.tgz")}` });
    const failure = await installDeclaredDependencies(root, "release@0.2.90").catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(UserError);
    expect((failure as UserError).message).toMatch(/^release@0\.2\.90 imports tiny-dep@file:.*absent\.tgz, which npm could not install beside it: /);
    expect((failure as UserError).code).toBe("INSTALL_FAILED");
    expect((failure as UserError).hint).toMatch(/pick another release/);
  }, 60_000);
});
