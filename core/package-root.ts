// ccrepro's own folder, wherever it runs from: the parent of core/ in the sources, the grandparent in dist/ (a build,
// an installed package). Files the package ships beside its code (the checked-in atlas) are found from here.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(from);
  }
}

export const CCREPRO_ROOT = packageRoot(path.dirname(fileURLToPath(import.meta.url)));
