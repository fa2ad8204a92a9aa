// Reading a run directory as data: a file is read only where it really is inside the directory it was named under,
// so a symlink (or a "../" in an index line) in a run directory from elsewhere cannot make ccrepro read, report or pack
// a file of the machine's (issue 27: a linked request body once put /etc/passwd into the HTML report).
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";

export class OutsideRunError extends UserError {
  constructor(
    readonly file: string,
    readonly target: string,
    readonly root: string,
  ) {
    super(`${file} leads outside ${root} (to ${target}); ccrepro reads a run directory's files only inside it, and refuses a link out of it`, "BAD_RUN_DIR");
    this.name = "OutsideRunError";
  }
}

// `file` with every link resolved, when that is still under `root` (itself resolved); a missing file is returned as
// named, for the caller's own ENOENT handling.
export function resolveInside(root: string, file: string): string {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return file;
    throw error;
  }
  const realRoot = fs.realpathSync(root);
  const relative = path.relative(realRoot, real);
  if (relative.startsWith(`..${path.sep}`) || relative === ".." || path.isAbsolute(relative)) throw new OutsideRunError(file, real, root);
  return real;
}

export function readInside(root: string, file: string): Buffer;
export function readInside(root: string, file: string, encoding: "utf8"): string;
export function readInside(root: string, file: string, encoding?: "utf8"): Buffer | string {
  const real = resolveInside(root, file);
  return encoding ? fs.readFileSync(real, encoding) : fs.readFileSync(real);
}

// Whether `file` is there, inside `root` (a link out of it throws, as reading it would).
export function existsInside(root: string, file: string): boolean {
  return fs.existsSync(resolveInside(root, file));
}

// A file the harness wrote itself (a request body): never a link, wherever it points, and reached through no link
// below `root` either (a linked requests/ folder would swap every body). A link inside the run directory reads nothing
// of the machine's, but the run's own bytes are not there, so the run cannot be judged (issue 41).
export function refuseLink(root: string, file: string): void {
  // A link out of the directory is refused as such, with where it leads.
  resolveInside(root, file);
  const parts = path.relative(root, file).split(path.sep);
  for (let i = 1; i <= parts.length; i += 1) {
    const at = path.join(root, ...parts.slice(0, i));
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isSymbolicLink()) {
      throw new UserError(`${at} is a link (to ${fs.readlinkSync(at)}); ccrepro wrote it as a ${i === parts.length ? "file" : "folder"}, so ${root} was changed since the run and cannot be judged: check the run as it was recorded (an unpacked \`ccrepro pack\`, or the original directory), or record it again`, "BAD_RUN_DIR");
    }
  }
}
