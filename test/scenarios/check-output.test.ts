// What a person reads for each recorded run: the whole result (verdict, reason, every finding's title, place, detail,
// diff and data, the notes) of checking each recording of test/fixtures the way `ccrepro check` does, compared with a
// reviewed copy in test/scenarios/check-output/. A change to any of it shows up here as a diff to review, and is
// accepted with `npx vitest run test/scenarios/check-output.test.ts -u`.
//
// Recordings with a run.json are checked as `ccrepro check` checks them (checkRecordedRun, with the run directory's copy
// of a file scenario); the pruned request logs
// without one name their scenario and parameters here. How each was recorded: the fixture folders' READMEs.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../core/verdict.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { scenarioOfRun } from "../../pipeline/scenario-source.ts";
import { findScenario } from "../../scenarios/index.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");

type Check = (dir: string) => CheckResult | Promise<CheckResult>;

function checkAs(scenarioName: string, params: Record<string, string>): Check {
  return (dir) => {
    const scenario = findScenario(scenarioName)!;
    return scenario.check(loadRecordings(dir), scenario.params.parse(params));
  };
}

const RUNS_WITH_RECORD = fs.readdirSync(path.join(FIXTURES, "runs")).filter((name) => fs.existsSync(path.join(FIXTURES, "runs", name, "run.json")));
// Each run's scenario is loaded here, before any test: a file scenario's load goes through tsx and evaluates the kit's
// and the checkers' modules afresh, and evaluated inside a test that top-level code would count, for the mutation run,
// as covered by this test rather than as static (ignoreStatic leaves static mutants out).
const SCENARIO_OF_RUN = new Map(await Promise.all(RUNS_WITH_RECORD.map(async (name) => [name, await scenarioOfRun(path.join(FIXTURES, "runs", name))] as const)));

const RECORDINGS: [fixture: string, check: Check][] = [
  ...RUNS_WITH_RECORD.map((name): [string, Check] => [`runs/${name}`, (dir) => checkRecordedRun(dir, SCENARIO_OF_RUN.get(name))]),
  ["background/2.1.332-terminal", (dir) => checkRecordedRun(dir, scenarioByName)],
  ["background/2.1.150-dropped", checkAs("background-mid-turn", {})],
  ["background/2.1.150-killed-in-foreground", checkAs("background-mid-turn", {})],
  ["background/2.1.332-rerun", checkAs("background-mid-turn", {})],
  ["hooks/2.1.234-after-turn", checkAs("hook-task-notification-prompt", { when: "after-turn" })],
  ["hooks/2.1.234-mid-turn", checkAs("hook-task-notification-prompt", { when: "mid-turn" })],
  ["hooks/2.1.281-mid-turn", checkAs("hook-task-notification-prompt", { when: "mid-turn" })],
];

describe("the checked result of every recorded run, as a person reads it", () => {
  it("covers every recording folder of test/fixtures/runs", () => {
    const covered = RECORDINGS.map(([fixture]) => fixture);
    for (const name of fs.readdirSync(path.join(FIXTURES, "runs"))) {
      if (fs.statSync(path.join(FIXTURES, "runs", name)).isDirectory()) expect(covered).toContain(`runs/${name}`);
    }
  });

  it.each(RECORDINGS)("%s", async (fixture, check) => {
    const result = await check(path.join(FIXTURES, fixture));
    await expect(`${JSON.stringify(result, null, 2)}\n`).toMatchFileSnapshot(path.join("check-output", `${fixture.replace("/", "--")}.json`));
  });
});
