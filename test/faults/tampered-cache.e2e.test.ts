// A cache entry that looks right but is not (issue 27, item 8): a copy of 2.1.112's cached entry (cli.js, 13 MB, the
// smallest cached release) whose executable has other bytes of the same size and modification time passes the
// cache's quick check; run.json records the sha256 of the bytes that ran, and the run is an ERROR that says so.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS } from "../e2e-run.ts";
import { runAndCheck } from "../../pipeline/run-scenario.ts";
import { loadScenario } from "../../pipeline/scenario-source.ts";
import { cacheDir } from "../../releases/cache-dir.ts";
import { installRelease } from "../../releases/release-cache.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-tampered-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const SCENARIO = `import { conversation, defineScenario, print, session, text } from "ccrepro";
import { reached } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "tampered-cache",
  summary: "one print turn",
  source: "issue 27",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "TAMPERED", replies: [text("hi")], then: text("hi") } }),
  steps: () => [print(s1, "TAMPERED say hi")],
  check: () => ({ reached: reached(), findings: [], notes: [] }),
});
`;

describe("a cached release whose bytes changed behind the cache's back", () => {
  it("is recorded by the sha256 of what ran, and the run is an ERROR", async () => {
    const cache = path.join(folder, "cache");
    const entry = path.join(cacheDir(), "2.1.112");
    // Installed into the shared cache first when CI's cache is empty; the copy is ours to change.
    await installRelease("2.1.112");
    fs.mkdirSync(cache);
    fs.cpSync(entry, path.join(cache, "2.1.112"), { recursive: true, preserveTimestamps: true, filter: (f) => !f.includes(`${path.sep}in-use`) });
    const cli = path.join(cache, "2.1.112", "package", "cli.js");
    const { mtime, atime } = fs.statSync(cli);
    const text = fs.readFileSync(cli, "utf8");
    expect(text).toContain("We're hiring!");
    fs.writeFileSync(cli, text.replace("We're hiring!", "We're HIRING!"));
    fs.utimesSync(cli, atime, mtime);
    const ran = crypto.createHash("sha256").update(fs.readFileSync(cli)).digest("hex");

    const claude = await installRelease("2.1.112", { cacheDir: cache });
    expect(claude.sha256).not.toBe(ran);
    fs.writeFileSync(path.join(folder, "tampered-cache.ts"), SCENARIO);
    const scenario = await loadScenario(path.join(folder, "tampered-cache.ts"));
    const run = await runAndCheck({ scenario, params: {}, claude, requested: "2.1.112", runsDir: path.join(folder, "runs") });
    expect(run.record.claude.sha256, `${run.record.result.verdict}: ${run.record.result.reason}`).toBe(ran);
    expect(run.record.result.verdict).toBe("ERROR");
    expect(run.record.result.reason).toContain(`is not the bytes that were installed: its sha256 is ${ran}, the install recorded ${claude.sha256}`);
  }, E2E_TIMEOUT_MS);
});
