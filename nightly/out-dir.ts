// Where a nightly writes: runs/nightly-<UTC time>/ by default, never over an earlier nightly's summary.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { compactUtc } from "../core/time.ts";
import { SUMMARY_FILE, type Shard } from "./summary.ts";

const DEFAULT_RUNS_DIR = "runs";

// nightly-20261130T161428Z, or nightly-20261130T161428Z-shard-1-of-2: sortable, and a shard says so in its name.
export function defaultNightlyDir(now: Date, shard: Shard | null = null): string {
  return path.join(DEFAULT_RUNS_DIR, `nightly-${compactUtc(now)}${shard ? `-shard-${shard.index}-of-${shard.count}` : ""}`);
}

// Checked before anything runs; the directory itself appears with the first run or report written into it.
export function checkOutDir(dir: string): string {
  const resolved = path.resolve(dir);
  if (fs.existsSync(path.join(resolved, SUMMARY_FILE))) {
    throw new UserError(`${resolved} already holds a nightly (${SUMMARY_FILE}); pick another --out or remove it`, "OUT_DIR_TAKEN");
  }
  return resolved;
}
