// Phase marks for `ccrepro bench`, which runs the CLI as a child and times it from outside: with CCREPRO_PHASES set
// to a file, each mark appends "<name> <epoch ms>" to it; without it a mark costs one environment lookup.
import fs from "node:fs";
import { clockNow } from "./time.ts";

export const PHASES_ENV = "CCREPRO_PHASES";

export function markPhase(name: string): void {
  const file = process.env[PHASES_ENV];
  if (file) fs.appendFileSync(file, `${name} ${clockNow()}\n`);
}

// A phases file as bench reads it back: the first time each mark was written.
export function readPhases(text: string): Map<string, number> {
  const marks = new Map<string, number>();
  for (const line of text.split("\n")) {
    const [name, at] = line.trim().split(" ");
    if (name && at && !marks.has(name) && Number.isFinite(Number(at))) marks.set(name, Number(at));
  }
  return marks;
}
