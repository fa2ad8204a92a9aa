// `--shard K/N`: a deterministic slice of the matrix, cell i (in the matrix's stable order) going to shard i mod N.
import { UserError } from "../core/errors.ts";
import type { Shard } from "./summary.ts";

const SHARD = /^(\d+)\/(\d+)$/;

export function parseShard(word: string): Shard {
  const match = SHARD.exec(word.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new UserError(`--shard takes K/N with 1 ≤ K ≤ N (e.g. 1/2 and 2/2 for two CI jobs), got "${word}"`, "BAD_ARGUMENT");
  }
  return { index, count };
}

export function sliceForShard<T>(ordered: readonly T[], shard: Shard | null): T[] {
  if (shard === null) return [...ordered];
  return ordered.filter((_, i) => i % shard.count === shard.index - 1);
}
