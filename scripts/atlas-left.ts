// What the checked-in atlas still lacks of what the scenario pages claim: `node --import tsx scripts/atlas-left.ts [ATLAS]`
// lists every variant (parameters and driver) a built-in's `known` list names, and those with no entry in the atlas
// (docs/atlas/atlas.json unless ATLAS names another atlas.json or its directory). Issue 45's item 1 is done when none is left.
import { isDeepStrictEqual } from "node:util";
import { CHECKED_IN_ATLAS, readAtlasFile } from "../atlas/atlas-file.ts";
import { scenarioDrivers } from "../kit/scenario.ts";
import { SCENARIOS } from "../scenarios/index.ts";

const atlas = readAtlasFile(process.argv[2] ?? CHECKED_IN_ATLAS);
const named = SCENARIOS.flatMap((scenario) => {
  const variants: { scenario: string; driver: string; params: Record<string, unknown> }[] = [];
  for (const known of scenario.known ?? []) {
    const variant = { scenario: scenario.name, driver: known.driver ?? scenarioDrivers(scenario)[0]!, params: scenario.params.parse(known.params ?? {}) as Record<string, unknown> };
    if (!variants.some((v) => isDeepStrictEqual(v, variant))) variants.push(variant);
  }
  return variants;
});
const left = named.filter((v) => !atlas.entries.some((e) => e.scenario === v.scenario && e.driver === v.driver && isDeepStrictEqual(e.params, v.params)));
console.log(`${named.length} variants named in release tables; ${named.length - left.length} in the atlas, ${left.length} left`);
for (const v of left) console.log(`  ${v.scenario} ${v.driver} ${Object.entries(v.params).map(([k, value]) => `${k}=${value}`).join(" ")}`);
