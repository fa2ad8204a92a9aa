// Which background session `/background` made, read from `claude agents --json` as real releases printed it
// (test/fixtures/background/agents/<release>.json: the agents command's stdout of a `background-mid-turn` run).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Recordings } from "../../harness/recordings.ts";
import scenario, { backgroundJobId } from "../../scenarios/background-mid-turn.ts";

const agents = (release: string) => fs.readFileSync(path.join(import.meta.dirname, "..", "fixtures", "background", "agents", `${release}.json`), "utf8");
const listed = (stdout: string, exitCode: number | null = 0) => ({ agents: { exitCode, stdout } });

describe("backgroundJobId", () => {
  it.each([
    // 2.1.150 lists no `id`: the short id is the session id's first 8 hex digits.
    ["2.1.150", "3ee8e5f0"],
    ["2.1.160", "c6a12f95"],
    // 2.1.170 lists no `name`: the only session listed is ours.
    ["2.1.170", "6c159b39"],
    ["2.1.200", "35958b63"],
    ["2.1.231", "750a0e70"],
    ["2.1.260", "a4b5471a"],
    // 2.1.290 names the session by a title the model wrote ("ok" from the mock): again the only one listed.
    ["2.1.290", "f9c3d316"],
    ["2.1.310", "b7c28958"],
  ])("%s: the session named after the prompt", (release, id) => {
    expect(backgroundJobId(listed(agents(release)))).toBe(id);
  });

  it("picks the session named after the prompt among others", () => {
    const other = { id: "aaaaaaaa", sessionId: "aaaaaaaa-0000-4000-8000-000000000000", name: "something else" };
    const ours = { id: "bbbbbbbb", sessionId: "bbbbbbbb-0000-4000-8000-000000000000", name: "CCREPRO_BGTURN_7Q run the slow command" };
    expect(backgroundJobId(listed(JSON.stringify([other, ours])))).toBe("bbbbbbbb");
  });

  it("is null when it cannot tell: nothing listed, two unnamed sessions, a failed or unparsable listing, no listing", () => {
    const unnamed = (id: string) => ({ id, sessionId: `${id}-0000-4000-8000-000000000000` });
    expect(backgroundJobId(listed("[]"))).toBeNull();
    expect(backgroundJobId(listed(JSON.stringify([unnamed("aaaaaaaa"), unnamed("bbbbbbbb")])))).toBeNull();
    expect(backgroundJobId(listed(agents("2.1.200"), 1))).toBeNull();
    expect(backgroundJobId(listed("error: unknown option '--json'"))).toBeNull();
    expect(backgroundJobId({})).toBeNull();
  });
});

describe("the steps after /background", () => {
  // From 2.1.260 (at the latest) the UI leaves the alternate screen as it exits, wiping it, and prints
  // `backgrounded · <id>` up to 1.8 s later; if that write is lost, nothing of the handover is on the screen.
  it("wait for the UI to exit, not for its last words on the screen", () => {
    const steps = scenario.steps(scenario.params.parse({}));
    const exit = steps.find((step) => step.kind === "screen-wait" && step.label === "the UI exited after /background");
    if (exit?.kind !== "screen-wait") throw new Error("no exit wait");
    expect(exit.until({ screen: "", exited: true, rec: {} as Recordings })).toBe(true);
    expect(exit.until({ screen: "backgrounded · d8d96bf3", exited: false, rec: {} as Recordings })).toBe(false);
  });

  it("stop the session `claude agents --json` listed, and skip logs and stop when it listed none", () => {
    const steps = scenario.steps(scenario.params.parse({}));
    const args = (label: string, commands: Record<string, { exitCode: number | null; stdout: string }>) => {
      const step = steps.find((s) => s.kind === "command" && s.label === label);
      if (step?.kind !== "command" || typeof step.args !== "function") throw new Error(`no computed ${label} command`);
      return step.args({ screens: { ui: "" }, rec: {} as Recordings, commands });
    };
    expect(args("stop", listed(agents("2.1.332")))).toEqual(["stop", "d8d96bf3"]);
    expect(args("logs", listed(agents("2.1.150")))).toEqual(["logs", "3ee8e5f0"]);
    expect(args("stop", listed("[]"))).toBeNull();
  });
});
