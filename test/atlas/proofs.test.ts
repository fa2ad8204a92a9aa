// The checked-in atlas's proofs (issue 45, items 4 and 5): every boundary's runs are in the repository under
// docs/atlas/proofs/, named by that path, within the budget, and `ccrepro check`'s re-judging of each gives the verdict
// and red findings its cell recorded. The proofs were kept by scripts/atlas-proofs.ts from real runs.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readAtlasFile } from "../../atlas/atlas-file.ts";
import { PROOF_BUDGET, PROOFS_DIR, recheck, sizeOf } from "../../report/atlas-proofs.ts";
import { findScenario } from "../../scenarios/index.ts";

const ATLAS = path.join(import.meta.dirname, "..", "..", "docs", "atlas");
const atlas = readAtlasFile(ATLAS);
const proofs = atlas.entries.flatMap((entry) =>
  entry.boundaries.flatMap((b) =>
    [...b.proof.before, ...b.proof.after].map((dir) => {
      const run = entry.cells.flatMap((cell) => cell.runs).find((r) => r.dir === dir);
      return { name: `${entry.scenario} ${b.before}→${b.after}: ${dir}`, dir, run };
    }),
  ),
);

describe("the checked-in atlas's proofs", () => {
  it("are named by paths inside the repository, each under proofs/, within the budget", () => {
    expect(proofs.length).toBeGreaterThan(0);
    for (const proof of proofs) {
      expect(proof.dir, proof.name).toMatch(new RegExp(`^${PROOFS_DIR}/[^/]+$`));
      expect(fs.existsSync(path.join(ATLAS, proof.dir, "run.json")), proof.name).toBe(true);
      expect(sizeOf(path.join(ATLAS, proof.dir)), proof.name).toBeLessThanOrEqual(PROOF_BUDGET.each);
    }
    expect(sizeOf(path.join(ATLAS, PROOFS_DIR))).toBeLessThanOrEqual(PROOF_BUDGET.total);
  });

  it.each(proofs.map((p) => [p.name, p] as const))("%s re-checks as its cell recorded", (_name, proof) => {
    expect(proof.run).toBeDefined();
    expect(recheck(path.join(ATLAS, proof.dir), findScenario)).toEqual({ verdict: proof.run!.verdict, red: proof.run!.red });
  });
});
