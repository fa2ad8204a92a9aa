// A working directory outside every git repository, for a run whose recording was made outside one. claude finds a
// repository by walking up from its working directory for a `.git` (the cli.js releases as the native ones), and a
// run directory usually sits inside a checkout (runs/ in this one): so the run's `iso/work` becomes a link to a
// directory under the system's temp folder while the run goes, and is brought back into the run directory after it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RunLayout } from "./run-layout.ts";

// The folder that holds a run's outside working directory. It ends in the layout's own `iso/work`, so whatever
// anonymises or reads a run's paths by that suffix (report/anonymise.ts) treats both alike.
function outsideRoot(layout: RunLayout): string {
  return path.join(fs.realpathSync(os.tmpdir()), `ccrepro-work-${path.basename(layout.root)}`);
}

// The nearest folder at or above `dir` that holds a `.git`, or null.
function enclosingRepository(dir: string): string | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, ".git"))) return at;
    if (path.dirname(at) === at) return null;
  }
}

/** Why this run cannot have a working directory outside every repository, or null when it can. */
export function outsideWorkProblem(layout: RunLayout): string | null {
  const repository = enclosingRepository(outsideRoot(layout));
  return repository === null
    ? null
    : `the scenario needs a working directory outside every git repository, but the temp folder ${os.tmpdir()} is inside ${repository}: set TMPDIR to a folder outside it`;
}

/** Makes `layout.work` a link to a fresh directory outside every repository; returns that directory's real path. */
export function placeWorkOutside(layout: RunLayout): string {
  const outside = path.join(outsideRoot(layout), path.relative(layout.root, layout.work));
  fs.mkdirSync(outside, { recursive: true });
  fs.mkdirSync(path.dirname(layout.work), { recursive: true });
  fs.symlinkSync(outside, layout.work, "dir");
  return outside;
}

/** After the run: the outside directory's files move into the run directory, where the link was. A no-op otherwise. */
export function bringWorkBack(layout: RunLayout): void {
  if (!fs.lstatSync(layout.work, { throwIfNoEntry: false })?.isSymbolicLink()) return;
  const outside = fs.readlinkSync(layout.work);
  fs.unlinkSync(layout.work);
  // FIFOs, sockets and devices hold nothing to keep (workdir.ts leaves them out of snapshots too).
  const kept = (file: string) => {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    return !!stat && (stat.isFile() || stat.isDirectory() || stat.isSymbolicLink());
  };
  fs.cpSync(outside, layout.work, { recursive: true, verbatimSymlinks: true, filter: kept });
  fs.rmSync(outsideRoot(layout), { recursive: true, force: true });
}
