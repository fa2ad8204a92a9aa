// An unjudged release is never a bisect side (issue 42, items 2 and 3), on real releases 2.1.329–2.1.332: a probe
// scenario that is INCONCLUSIVE up to 2.1.330, GREEN on 2.1.331 and RED from 2.1.332 (it reads the release from the
// stream-json init line, so the table is the probe's, not claude's). Bisected from 2.1.329 it once said "last old:
// 2.1.330", taking an INCONCLUSIVE release for the old side. Now the unjudged --old is refused with its reason (exit
// 3); from 2.1.331 the answer is 2.1.332 with 2.1.331 its last old; and two ends alike exit 7, not ERROR's 3.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli } from "../e2e-run.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-unjudged-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

fs.writeFileSync(
  path.join(folder, "probe.ts"),
  `import { conversation, defineScenario, print, session, text } from "ccrepro";
import { finding, initOf, notReached, reached } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "unjudged-probe",
  summary: "INCONCLUSIVE up to 2.1.330, GREEN on 2.1.331, RED from 2.1.332, by the release the init line names",
  source: "issue 42",
  findings: ["turn-started-on-resume", "never-seen"],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "UNJUDGED_PROBE", replies: [text("ok")], then: text("ok") } }),
  steps: () => [print(s1, "UNJUDGED_PROBE say ok")],
  check: (rec) => {
    const patch = Number((initOf(rec, s1)?.claude_code_version ?? "0.0.0").split(".")[2]);
    if (patch <= 330) return { reached: notReached("this probe cannot reach its point before 2.1.331"), findings: [] };
    if (patch === 331) return { reached: reached(), findings: [] };
    return { reached: reached(), findings: [finding({ id: "turn-started-on-resume", title: "the probe's stand-in bug", where: "2.1.332 on" })] };
  },
});
`,
);

const bisect = (...args: string[]) =>
  ccreproCli(["bisect", "./probe.ts", ...args, "--runs-dir", path.join(folder, "runs")], folder);

describe("bisect over unjudged releases, 2.1.329 → 2.1.332", { timeout: 600_000 }, () => {
  it("refuses an INCONCLUSIVE --old with its reason, on a finding and on the verdict", async () => {
    for (const finding of [["--finding", "turn-started-on-resume"], []]) {
      const done = await bisect("--old", "2.1.329", "--new", "2.1.332", ...finding);
      expect(done.exitCode, done.stdout + done.stderr).toBe(3);
      expect(done.stderr).toMatch(/cannot bisect from the old endpoint 2\.1\.329: INCONCLUSIVE, so neither side: this probe cannot reach its point before 2\.1\.331/);
      expect(done.stdout + done.stderr).not.toMatch(/last old: 2\.1\.330/);
    }
  });

  it("from a judged end, answers with judged sides only", async () => {
    const done = await bisect("--old", "2.1.331", "--new", "2.1.332", "--finding", "turn-started-on-resume");
    expect(done.exitCode, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain("first new release: 2.1.332 (last old: 2.1.331)");
  });

  it("two ends with the same outcome exit 7 (no change), not 3 (ERROR)", async () => {
    const done = await bisect("--old", "2.1.331", "--new", "2.1.332", "--finding", "never-seen");
    expect(done.exitCode, done.stdout + done.stderr).toBe(7);
    expect(done.stdout).toMatch(/both endpoints give the same outcome/);
  });
});
