// Copies a recorded run directory into a small test fixture: the logs the checker reads, and only the named bodies.
// Usage: node --import tsx scripts/prune-run.ts RUN_DIR OUT_DIR [SEQ,SEQ,…]  (no SEQs: every request body is kept)
// The run directory's absolute path (and the dashed form claude derives from it) becomes /RUN (-RUN) in every
// copied file, so a fixture names no path of the machine it was recorded on; the checker's path rule normalises
// both spellings alike, and index sizes and hashes are recomputed for the rewritten bodies.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { loadRequestLog } from "../harness/recordings.ts";
import { runLayout, sessionLayout } from "../harness/run-layout.ts";

const [runDir, outDir, seqList] = process.argv.slice(2);
if (!runDir || !outDir) {
  console.error("usage: prune-run.ts RUN_DIR OUT_DIR [SEQ,SEQ,…]");
  process.exit(2);
}
const from = runLayout(path.resolve(runDir));
const to = runLayout(path.resolve(outDir));
const dashed = (p: string) => p.replace(/[^A-Za-z0-9]/g, "-");
const runsDir = path.dirname(from.root);
// The runs folder too: a diff in run.json may hold a path cut short before the run directory's own name.
const anonymise = (bytes: Buffer): Buffer =>
  Buffer.from(
    bytes
      .toString("utf8")
      .replaceAll(from.root, "/RUN")
      .replaceAll(dashed(from.root), "-RUN")
      .replaceAll(runsDir, "/RUNS")
      .replaceAll(dashed(runsDir), "-RUNS"),
    "utf8",
  );
const copy = (source: string, target: string) => {
  if (!fs.existsSync(source)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (fs.statSync(source).isDirectory()) {
    for (const name of fs.readdirSync(source)) copy(path.join(source, name), path.join(target, name));
    return;
  }
  fs.writeFileSync(target, anonymise(fs.readFileSync(source)));
};

copy(from.runJson, to.runJson);
copy(from.hooksLog, to.hooksLog);
copy(from.hooksDir, to.hooksDir);
copy(from.outboundLog, to.outboundLog);
for (const label of fs.existsSync(from.sessionsDir) ? fs.readdirSync(from.sessionsDir) : []) {
  const source = sessionLayout(from, label);
  const target = sessionLayout(to, label);
  for (const key of ["stdout", "stdin", "sessionJson"] as const) copy(source[key], target[key]);
}
const log = loadRequestLog(from.mockLog);
const keep = seqList ? new Set(seqList.split(",").map(Number)) : new Set(log.requests.map((r) => r.seq));
const index: string[] = [];
const indexFile = path.join(from.mockLog, "index.jsonl");
for (const line of fs.existsSync(indexFile) ? fs.readFileSync(indexFile, "utf8").split("\n").filter(Boolean) : []) {
  const entry = JSON.parse(anonymise(Buffer.from(line)).toString("utf8"));
  if (entry.kind === "request" && keep.has(entry.seq)) {
    const body = anonymise(fs.readFileSync(path.join(from.mockLog, entry.bodyFile)));
    fs.mkdirSync(path.dirname(path.join(to.mockLog, entry.bodyFile)), { recursive: true });
    fs.writeFileSync(path.join(to.mockLog, entry.bodyFile), body);
    entry.bodyBytes = body.length;
    entry.bodySha256 = crypto.createHash("sha256").update(body).digest("hex");
  }
  index.push(JSON.stringify(entry));
}
fs.mkdirSync(to.mockLog, { recursive: true });
fs.writeFileSync(path.join(to.mockLog, "index.jsonl"), index.length ? `${index.join("\n")}\n` : "");
console.log(`pruned ${runDir} → ${outDir} (${keep.size} of ${log.requests.length} request bodies)`);
