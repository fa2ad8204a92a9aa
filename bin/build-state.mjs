// Whether dist/ is the build of the sources beside it. ccrepro.mjs runs dist/ only then, and the test tiers that
// start the CLI rebuild it when it is not, so a checkout's tests run the same code a fresh clone's and a user's do.
import fs from "node:fs";

// In an installed package there are no sources beside dist/; in a checkout (it has .git) a source file newer than
// the build's stamp means the build is stale. A few hundred stat calls: about a millisecond.
export function builtIsCurrent(root) {
  let built;
  try {
    built = fs.statSync(new URL("dist/BUILT", root)).mtimeMs;
  } catch {
    return false;
  }
  if (!fs.existsSync(new URL(".git", root))) return true;
  const newer = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((entry) => {
      const url = new URL(entry.isDirectory() ? `${entry.name}/` : entry.name, dir);
      return entry.isDirectory() ? newer(url) : /\.(ts|mjs|sh)$/.test(entry.name) && fs.statSync(url).mtimeMs > built;
    });
  };
  // The folders the build compiles, as its tsconfig names them.
  const { include } = JSON.parse(fs.readFileSync(new URL("tsconfig.build.json", root), "utf8"));
  return !include.some((dir) => newer(new URL(`${dir}/`, root)));
}
