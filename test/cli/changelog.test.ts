// CHANGELOG.md is changesets' (.changeset/): its newest section is the version package.json has, and `changeset
// version` on a copy turns the pending changesets into the next section, at the version it gives package.json.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CHANGESET = createRequire(import.meta.url).resolve("@changesets/cli/bin.js");

const newestSection = (changelog: string) => /^## (\d+\.\d+\.\d+\S*)$/m.exec(changelog)?.[1];
const versionOf = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
// The changesets waiting for the next version, each with its bump and text.
function pending(dir: string): { bump: string; text: string }[] {
  return fs
    .readdirSync(path.join(dir, ".changeset"))
    .filter((name) => name.endsWith(".md") && name !== "README.md")
    .map((name) => {
      const match = /^---\n"ccrepro": (patch|minor|major)\n---\n\n([\s\S]+)$/.exec(fs.readFileSync(path.join(dir, ".changeset", name), "utf8"));
      if (!match) throw new Error(`.changeset/${name} is not a changeset of ccrepro ("ccrepro": patch | minor | major, then the text)`);
      return { bump: match[1]!, text: match[2]!.trim() };
    });
}

describe("CHANGELOG.md", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-changelog-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("names package.json's version as its newest", () => {
    expect(newestSection(fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8"))).toBe(versionOf(ROOT));
  });

  it("bumps a breaking change as docs/versioning.md says: the minor version while ccrepro is 0.x, else the major", () => {
    const breaking = pending(ROOT).filter((change) => /^Breaking:/m.test(change.text));
    const wanted = versionOf(ROOT).startsWith("0.") ? "minor" : "major";
    for (const change of breaking) expect(change.bump, change.text.split("\n")[0]).toBe(wanted);
  });

  it("gets the next version's section from the pending changesets", async () => {
    const changes = pending(ROOT);
    for (const entry of ["package.json", "CHANGELOG.md", ".changeset"]) fs.cpSync(path.join(ROOT, entry), path.join(scratch, entry), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(scratch, "node_modules"));
    const ran = await execa("node", [CHANGESET, "version"], { cwd: scratch, reject: false });
    expect(ran.exitCode, ran.stderr).toBe(0);
    const changelog = fs.readFileSync(path.join(scratch, "CHANGELOG.md"), "utf8");
    expect(newestSection(changelog)).toBe(versionOf(scratch));
    if (changes.length === 0) {
      expect(versionOf(scratch)).toBe(versionOf(ROOT));
      return;
    }
    expect(versionOf(scratch)).not.toBe(versionOf(ROOT));
    // Each change's first line, reflowed as changesets indents it, is in the new section.
    for (const change of changes) expect(changelog).toContain(change.text.split("\n")[0]);
  });
});
