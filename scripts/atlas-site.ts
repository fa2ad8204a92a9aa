// Writes the checked-in atlas's site, docs/atlas/site/, from docs/atlas/atlas.json and the scenarios as they are now:
// `node --import tsx scripts/atlas-site.ts`. test/atlas/checked-in-site.test.ts fails while the site differs.
import { CHECKED_IN_ATLAS, readAtlasFile } from "../atlas/atlas-file.ts";
import { checkedInSite } from "../report/atlas-site.ts";

console.log(`site: ${checkedInSite(readAtlasFile(CHECKED_IN_ATLAS))}`);
