// Keeps an atlas's boundary proofs in the repository: `node --import tsx scripts/atlas-proofs.ts ATLAS_DIR OUT_DIR`
// copies each boundary's runs from the atlas in ATLAS_DIR (where `ccrepro atlas --out` wrote it) into OUT_DIR/proofs/,
// pruned and re-checked, and writes OUT_DIR/atlas.json naming them there (report/atlas-proofs.ts) and its site,
// OUT_DIR/site/, whose boundary rows link the kept proofs.
// test/atlas/proofs.test.ts re-checks every proof of docs/atlas.
import { keepProofs } from "../report/atlas-proofs.ts";
import { checkedInSite } from "../report/atlas-site.ts";
import { findScenario } from "../scenarios/index.ts";

const [from, to, ...extra] = process.argv.slice(2);
if (!from || !to || extra.length > 0) {
  console.error("usage: node --import tsx scripts/atlas-proofs.ts ATLAS_DIR OUT_DIR");
  process.exit(2);
}
const { kept, refused, leftOut, file } = keepProofs(from, to, findScenario);
const site = checkedInSite(file, to);
for (const proof of kept) console.log(`kept ${proof.dir}: ${proof.verdict}${proof.red.length ? ` ${proof.red.join(" ")}` : ""}, ${Math.round(proof.bytes / 1024)} KiB`);
for (const proof of refused) console.log(`NOT kept ${proof.dir}: ${proof.why}`);
for (const { entry, why } of leftOut) console.log(`left out of the written atlas (${why}): ${entry}`);
const total = kept.reduce((sum, proof) => sum + proof.bytes, 0);
console.log(`${kept.length} proof(s) kept, ${Math.round(total / 1024)} KiB in all; ${refused.length} not kept\nsite: ${site}`);
process.exitCode = refused.length > 0 ? 1 : 0;
