// Issue 45, item 7: `ccrepro advise` with no flags answers from the atlas checked in with ccrepro, from any folder,
// and avoids only the scenarios that reproduce a reported bug (guards do not count).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CHECKED_IN_ATLAS, readAtlasFile } from "../../atlas/atlas-file.ts";
import { SCENARIOS } from "../../scenarios/index.ts";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;

describe("ccrepro advise", { timeout: 60_000 }, () => {
  it("with no flags, from a folder that holds no atlas, answers from the checked-in one, avoiding its reproductions", async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-advise-"));
    try {
      const result = await execa("node", [CLI, "advise", "--json"], { cwd: elsewhere, reject: false });
      // Exit 1 when no release is free of them all (docs/atlas.md), 0 otherwise.
      const advice = JSON.parse(result.stdout) as { avoid: string[]; newest: string | null };
      expect(result.exitCode, result.stderr).toBe(advice.newest === null ? 1 : 0);
      const inAtlas = new Set(readAtlasFile(CHECKED_IN_ATLAS).entries.map((e) => e.scenario));
      const reproductions = SCENARIOS.filter((s) => s.publicRecord?.role === "reproduction" && inAtlas.has(s.name)).map((s) => s.name);
      expect(reproductions.length).toBeGreaterThan(0);
      expect(advice.avoid.sort()).toEqual(reproductions.sort());
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
