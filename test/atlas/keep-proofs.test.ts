// Keeping an atlas's proofs (report/atlas-proofs.ts) on two recorded runs of subagent-resume-notification-header
// (test/fixtures/runs: 2.1.281 RED notification-changed and 2.1.332 GREEN, recorded with ccrepro bisect): an atlas whose
// boundary they prove is written by runAtlas with a runner that hands them out, then its proofs are kept.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readAtlasFile, writeAtlasFile } from "../../atlas/atlas-file.ts";
import { runAtlas } from "../../atlas/run-atlas.ts";
import type { ReleaseRunner } from "../../pipeline/run-scenario.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { keepProofs, recheck } from "../../report/atlas-proofs.ts";
import { copyRun } from "../../report/prune-fixture.ts";
import { findScenario } from "../../scenarios/index.ts";
import { tempDirs } from "../stand-in-runner.ts";
import { editBody } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("subagent-resume-notification-header")!;
const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "runs");
const RECORDED: Record<string, string> = { "2.1.281": "notification-changed-2.1.281", "2.1.332": "notification-green-2.1.332" };
const tmp = tempDirs("atlas-proofs-");

// An atlas of two recorded runs, by release; `edit` changes each copy before it is judged.
async function atlasOfFixtures(subject = scenario, recorded = RECORDED, edit: (runDir: string) => void = () => {}): Promise<string> {
  const out = tmp();
  const runner: ReleaseRunner = {
    async prefetch(version) {
      return { version, sha256: `sha-${version}`, fetchMs: 0, downloadedBytes: 0, fromCache: true } as never;
    },
    async run(_subject, version) {
      const runDir = path.join(out, "runs", recorded[version]!);
      fs.cpSync(path.join(FIXTURES, recorded[version]!), runDir, { recursive: true });
      edit(runDir);
      return { installed: true, runDir, record: { result: checkRecordedRun(runDir, findScenario) } } as never;
    },
  };
  await runAtlas({ subjects: [{ scenario: subject, params: subject.params.parse({}) }], drive: {}, versions: Object.keys(recorded), stride: 1, verify: 0, repeat: 1, outDir: out, reuse: [], runner });
  return out;
}

describe("keepProofs", () => {
  it("copies each boundary's runs under proofs/, re-checked as recorded, and names them there", async () => {
    const from = await atlasOfFixtures();
    expect(readAtlasFile(from).entries[0]!.boundaries.map((b) => `${b.from} → ${b.to}`)).toEqual(["RED notification-changed → GREEN"]);
    const to = tmp();
    const { kept, refused, file } = keepProofs(from, to, findScenario);
    expect(refused).toEqual([]);
    expect(kept.map((k) => [k.dir, k.verdict, k.red])).toEqual([
      ["proofs/notification-changed-2.1.281", "RED", ["notification-changed"]],
      ["proofs/notification-green-2.1.332", "GREEN", []],
    ]);
    const written = readAtlasFile(to);
    expect(written).toEqual(file);
    expect(written.entries[0]!.boundaries[0]!.proof).toEqual({ before: ["proofs/notification-changed-2.1.281"], after: ["proofs/notification-green-2.1.332"] });
    for (const proof of kept) expect(recheck(path.join(to, proof.dir), findScenario)).toEqual({ verdict: proof.verdict, red: proof.red });
    // Pruned: no machine path of this one survives in what was kept.
    const text = fs.readdirSync(path.join(to, "proofs"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8")).join("\n");
    expect(text).not.toContain(from);
  });

  it("writes a cell's reason without this machine's paths (an ERROR's message names the release cache)", async () => {
    const from = await atlasOfFixtures();
    const atlas = readAtlasFile(from);
    const reason = `cannot run ${path.join(os.homedir(), "x", "cli.js")}`;
    writeAtlasFile(from, { ...atlas, entries: atlas.entries.map((e) => ({ ...e, cells: e.cells.map((c) => ({ ...c, reason })) })) });
    const { file } = keepProofs(from, tmp(), findScenario);
    expect(file.entries[0]!.cells.map((c) => c.reason)).toEqual(file.entries[0]!.cells.map(() => "cannot run /HOME/x/cli.js"));
  });

  it("says which proof it could not keep and why, and leaves out the entry it would not prove, with its other proof", async () => {
    const from = await atlasOfFixtures();
    fs.rmSync(path.join(from, "runs", RECORDED["2.1.332"]!), { recursive: true });
    const to = tmp();
    const { kept, refused, leftOut, file } = keepProofs(from, to, findScenario);
    expect(refused).toEqual([{ dir: "runs/notification-green-2.1.332", why: "the run directory is gone" }]);
    expect(leftOut).toEqual([{ entry: `${scenario.name} ${JSON.stringify(scenario.params.parse({}))}`, why: "a proof of it was not kept" }]);
    expect(file.entries).toEqual([]);
    expect(kept).toEqual([]);
    expect(fs.readdirSync(path.join(to, "proofs"))).toEqual([]);
  });

  it("says, for a proof over the budget, the size of the smallest copy that still re-checks as recorded", async () => {
    const from = await atlasOfFixtures();
    const { kept, refused, leftOut } = keepProofs(from, tmp(), findScenario, { each: 10 * 1024, total: 40 * 1024 * 1024 });
    expect(kept).toEqual([]);
    expect(refused.map((r) => r.dir)).toEqual(["runs/notification-changed-2.1.281", "runs/notification-green-2.1.332"]);
    for (const { why } of refused) expect(why).toMatch(/^pruned: the smallest copy that re-checks as recorded takes \d+ bytes, over 10240/);
    expect(leftOut.map((l) => l.why)).toEqual(["a proof of it was not kept"]);
  });

  it("keeps, whole-texted, a run whose check reads a long text to its end: over the budget whole, and any trim cuts what it reads", async () => {
    // nested-subagent-reply-routed finds the child's <result> near the end of a task notification. Its fixtures were
    // kept without the system prompt; each request gets a 30 KB one back, as a real run's main-stream bodies carry, so
    // the whole run is over the budget and every trimmed copy re-checks RED nested-reply-lost.
    const nested = findScenario("nested-subagent-reply-routed")!;
    const recorded = { "2.1.247": "nested-reply-lost-2.1.247", "2.1.332": "nested-reply-routed-2.1.332" };
    const withSystem = (runDir: string) => {
      for (const name of fs.readdirSync(path.join(runDir, "mock", "requests"))) editBody(runDir, Number.parseInt(name, 10), (body) => void (body["system"] = "x".repeat(30 * 1024)));
    };
    const from = await atlasOfFixtures(nested, recorded, withSystem);
    expect(readAtlasFile(from).entries[0]!.boundaries.map((b) => `${b.from} → ${b.to}`)).toEqual(["RED nested-reply-lost → GREEN"]);
    const to = tmp();
    const { kept, refused } = keepProofs(from, to, findScenario);
    expect(refused).toEqual([]);
    const green = kept.find((k) => k.verdict === "GREEN")!;
    expect(green.bytes).toBeLessThanOrEqual(200 * 1024);
    const bodies = fs.readdirSync(path.join(to, green.dir, "mock", "requests")).map((name) => JSON.parse(fs.readFileSync(path.join(to, green.dir, "mock", "requests", name), "utf8")) as Record<string, unknown>);
    expect(bodies.some((body) => "system" in body)).toBe(false);
    expect(recheck(path.join(to, green.dir), findScenario)).toEqual({ verdict: "GREEN", red: [] });
  });

  it("leaves out an entry whose search was cut before it finished, with its proofs", async () => {
    const from = await atlasOfFixtures();
    const atlas = readAtlasFile(from);
    writeAtlasFile(from, { ...atlas, entries: atlas.entries.map((entry) => ({ ...entry, complete: false })) });
    const to = tmp();
    const { kept, leftOut, file } = keepProofs(from, to, findScenario);
    expect(leftOut).toEqual([{ entry: `${scenario.name} ${JSON.stringify(scenario.params.parse({}))}`, why: "its search was cut before it finished" }]);
    expect(file.entries).toEqual([]);
    expect(kept).toEqual([]);
    expect(fs.readdirSync(path.join(to, "proofs"))).toEqual([]);
  });
});

describe("copyRun's bare side rows", () => {
  // Recorded fixtures (test/fixtures/runs/README.md): compact-twice on 2.1.310 (a transcript with prompt snapshots and
  // other attachments) and resume-history-lost's cut-off line on 2.1.332 (a transcript line that is not JSON).
  const transcriptOf = (dir: string) => {
    const folder = path.join(dir, "transcripts");
    const file = fs.readdirSync(folder, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && e.name.endsWith(".jsonl"))!;
    return fs.readFileSync(path.join(file.parentPath, file.name), "utf8").split("\n");
  };
  const options = { bodies: "all", stream: null, bodyKeys: null, trimText: null, dropHeaders: true, mockOnly: false, foreground: null, transcripts: true, bareSideRows: true } as const;

  it("keeps every line and every message row, and cuts each other row to what places it", () => {
    const source = path.join(FIXTURES, "compact-twice-green-2.1.310");
    const to = tmp();
    copyRun(source, to, options);
    const before = transcriptOf(source);
    const after = transcriptOf(to);
    expect(after).toHaveLength(before.length);
    let bared = 0;
    before.forEach((line, i) => {
      if (!line.trim()) return;
      const was = JSON.parse(line) as Record<string, unknown> & { attachment?: { type: string } };
      const is = JSON.parse(after[i]!) as Record<string, unknown>;
      expect([is["type"], is["uuid"], is["parentUuid"]]).toEqual([was["type"], was["uuid"], was["parentUuid"]]);
      if (["user", "assistant", "system"].includes(was["type"] as string)) expect(after[i]).toBe(line);
      else {
        expect(Object.keys(is).every((key) => ["type", "subtype", "uuid", "parentUuid", "isSidechain", "sessionId", "timestamp", "attachment"].includes(key))).toBe(true);
        if (was.attachment) expect(is["attachment"]).toEqual({ type: was.attachment.type });
        if (after[i] !== line) bared++;
      }
    });
    expect(bared).toBeGreaterThan(0);
    expect(recheck(to, findScenario)).toEqual(recheck(source, findScenario));
  });

  it("keeps a line that is not JSON as it was written", () => {
    const source = path.join(FIXTURES, "history-corrupt-line-2.1.332");
    const to = tmp();
    copyRun(source, to, { ...options, trimText: 300 });
    const notJson = (lines: string[]) => lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return line.trim() !== "";
      }
    });
    expect(notJson(transcriptOf(source)).length).toBeGreaterThan(0);
    expect(notJson(transcriptOf(to))).toEqual(notJson(transcriptOf(source)));
  });
});
