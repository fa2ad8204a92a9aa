// One writer per output folder (a sweep's --out): a claim file naming its owner, created exclusively, so a second
// writer refuses instead of running every release again and overwriting the first one's results (issue 27, item 9).
import fs from "node:fs";
import path from "node:path";
import { UserError } from "./errors.ts";
import { ownerPid, ownerState, ownerToken, whyOwnerUnknown } from "./process-owner.ts";

export const WRITER_FILE = ".writer";

interface Claim {
  owner: string;
  what: string;
  since: string;
}

function readClaim(file: string): Claim | null {
  try {
    const claim = JSON.parse(fs.readFileSync(file, "utf8")) as Claim;
    return typeof claim.owner === "string" ? claim : null;
  } catch {
    return null;
  }
}

// Claims `dir` for `what` (e.g. "ccrepro sweep"); returns the release. A claim whose owner is gone is taken over,
// with `note` told; a live one is a UserError naming it.
export function claimFolder(dir: string, what: string, note: (line: string) => void = () => {}): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, WRITER_FILE);
  const mine: Claim = { owner: ownerToken(), what, since: new Date().toISOString() };
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine), { flag: "wx" });
      return () => {
        if (readClaim(file)?.owner === mine.owner) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 2) throw error;
    }
    const held = readClaim(file);
    if (held && ownerState(held.owner) === "gone") {
      note(`ccrepro: ${dir} was being written by pid ${ownerPid(held.owner)} (${held.what}), which is gone; this one carries on from its files`);
      fs.rmSync(file, { force: true });
      continue;
    }
    const unknown = held ? whyOwnerUnknown(held.owner) : null;
    const whom = held ? `pid ${ownerPid(held.owner)} (${held.what}, since ${held.since}${unknown ? `; whether it still runs cannot be told from here: ${unknown}` : ""})` : `a process that left ${file} unreadable`;
    throw new UserError(
      `${dir} is being written by ${whom}; one folder has one writer: wait for it to finish (this command then resumes from its results), ` +
        `or pass another --out${held && !unknown ? "" : `; if no ccrepro is writing it, delete ${file}`}`,
      "OUT_IN_USE",
    );
  }
}
