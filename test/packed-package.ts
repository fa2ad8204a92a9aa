// The package as npm publishes it: `npm pack` of a copy of the checkout (so its prepare build cannot swap dist/ under
// other tests that run the checkout's CLI), once per test file; and an install of that tarball where a user works.
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";

const ROOT = path.resolve(import.meta.dirname, "..");
// What the tarball is built from: the folders the build compiles (tsconfig.build.json names them, so a new floor is
// packed too), what the build reads besides, and what package.json's `files` ships that the build does not make;
// everything else (tests, fixtures, runs) stays out of the copy.
const BUILT = (JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.build.json"), "utf8")) as { include: string[] }).include;
const PACKED = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "bin", "scripts", "examples", "docs/atlas/atlas.json", "action.yml", "CHANGELOG.md", "README.md", "LICENSE", ...BUILT];

// Returns the tarball's path, written into `scratch`.
export async function packFromCopy(scratch: string): Promise<string> {
  const source = path.join(scratch, "source");
  for (const entry of PACKED) fs.cpSync(path.join(ROOT, entry), path.join(source, entry), { recursive: true });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(source, "node_modules"));
  const packed = await execa("npm", ["pack", "--json", "--pack-destination", scratch], { cwd: source });
  return path.join(scratch, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
}

// An empty folder with the tarball installed as a dev dependency, as `npm i -D ccrepro` leaves it.
export async function installPacked(tarball: string, folder: string): Promise<void> {
  fs.mkdirSync(folder, { recursive: true });
  await execa("npm", ["install", "--save-dev", "--prefer-offline", "--no-audit", "--no-fund", tarball], { cwd: folder });
}
