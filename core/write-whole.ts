// A file written beside itself and renamed over: a reader (or a later run) never sees half of it, and a write that
// fails half-way (a full disk) leaves the previous version whole.
import fs from "node:fs";

export function writeFileWhole(file: string, text: string): void {
  // The writer's pid in the name: two processes writing the same file each rename a whole one of their own.
  const partial = `${file}.${process.pid}.partial`;
  try {
    fs.writeFileSync(partial, text);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}
