// The swimlane SVG and its model, on recorded runs (fixtures recorded with ccrepro on real releases; see their READMEs).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { renderSwimlane, type SwimlaneModel } from "../../report/swimlane.ts";
import { loadSwimlaneModel, swimlaneModel } from "../../report/swimlane-model.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
const TERMINAL_RUN = path.join(FIXTURES, "background/2.1.332-terminal");
const ORPHAN_RUN = path.join(FIXTURES, "runs/orphan-red-2.1.332");
const HOOKS_RUN = path.join(FIXTURES, "hooks/2.1.281-mid-turn");

const empty: SwimlaneModel = { start: 1000, end: 11_000, verdict: "GREEN", steps: [], processes: [], streams: [], tasks: [], hooks: [], boundaries: [], findings: [] };

describe("renderSwimlane", () => {
  it("escapes every recorded text, in labels, tooltips and attributes", () => {
    const svg = renderSwimlane({
      ...empty,
      processes: [{ id: `s"1`, kind: "headless", label: "<script>alert(1)</script>", start: 1000, end: null, observed: false, detail: "a & b\u0007" }],
      findings: [{ id: "x'><g", t: 2000, red: true, title: "</title><script>", where: "req 1", target: "finding-0" }],
    });
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(svg).toContain(`data-lane-id="s&quot;1"`);
    expect(svg).toContain(`data-finding="x&#39;&gt;&lt;g"`);
    expect(svg).toContain("a &amp; b\uFFFD");
  });

  it("draws one lane per process, task session, stream, and for steps, hooks and findings when there are any", () => {
    const svg = renderSwimlane({
      ...empty,
      steps: [{ t: 1000, label: "1 start", seek: 0.5, player: "p" }, { t: 2000, label: "2 send", seek: null, player: null }],
      processes: [{ id: "s1", kind: "headless", label: "s1", start: 1000, end: 9000, observed: false, detail: "" }],
      tasks: [{ session: "s1", tasks: [{ taskId: "t1", start: 2000, end: null, status: null }] }],
      streams: [{ stream: "main", requests: [{ seq: 1, start: 1000, end: 11_000, step: 0, stopReason: "end_turn", summary: "text", outcome: "complete", processId: "s1", target: null }] }],
      hooks: [{ t: 3000, event: "Stop", detail: "" }],
      boundaries: [{ t: 6000, kind: "kill", label: "s1 stopped by SIGKILL" }],
    });
    expect([...svg.matchAll(/<g class="lane" data-lane="([^"]+)"/g)].map((m) => m[1])).toEqual(["steps", "headless", "tasks", "stream", "hooks"]);
    // Only a step a player shows carries data-seek; a request without a target carries no data-target.
    expect([...svg.matchAll(/data-seek="([^"]+)" data-player="p"/g)].map((m) => m[1])).toEqual(["0.500"]);
    expect(svg.match(/data-seek=/g)).toHaveLength(1);
    expect(svg).not.toContain("data-target");
    // The request spans the whole axis: from the label column's edge (170) to its end (170 + 900).
    expect(svg).toMatch(/<g class="request" data-seq="1" data-process="s1"><title>[^<]*<\/title><rect x="170.0" y="5" width="900.0"/);
    // The kill rule sits at 5 s of 10 s.
    expect(svg).toMatch(/<line class="boundary" data-boundary="kill" x1="620.0"/);
  });
});

describe("swimlaneModel from recorded runs", () => {
  it("a background-mid-turn run (2.1.332): the UI, the background session seen through its requests, steps that seek the player", () => {
    const model = loadSwimlaneModel(TERMINAL_RUN, { player: { session: "ui", id: "cast-ui" } })!;
    expect(model.processes.map((p) => [p.id, p.kind, p.observed])).toEqual([
      ["ui", "ui", false],
      ["pid-8531", "background", true],
    ]);
    const requests = model.streams.flatMap((s) => s.requests);
    expect(requests.map((r) => [r.seq, r.processId])).toEqual([
      [1, "ui"],
      [3, "pid-8531"],
      [5, "pid-8531"],
      [2, "ui"],
      [4, "pid-8531"],
      [6, "pid-8531"],
      [7, "pid-8531"],
    ]);
    const background = model.processes[1]!;
    expect([background.start, background.end]).toEqual([requests[1]!.start, requests[6]!.end]);
    // Steps during the UI's life seek its recording (seconds from its spawn); the later helper commands do not.
    expect(model.steps.map((s) => s.seek)).toEqual([0, 1.774, 2.196, 6.452, 6.453, 6.92, 6.92, 9.199, null, null, null, null, null]);
    expect(model.findings).toMatchObject([{ id: "turn-rerun", red: false, t: requests[1]!.start, target: "finding-0" }]);
  });

  it("an orphaned-task run (2.1.332, RED): the SIGKILL stop, the tasks, and the finding at the stdout line it cites", () => {
    const model = loadSwimlaneModel(ORPHAN_RUN, { idPrefix: "run3-" })!;
    const rec = loadRecordings(ORPHAN_RUN);
    const s1 = rec.sessions.find((s) => s.label === "s1")!.process!;
    // s2 was only reaped at the end of the run (not a stop the scenario made): no rule.
    expect(model.boundaries).toEqual([
      { t: s1.endedAt, kind: "kill", label: "s1 stopped by SIGKILL" },
      { t: rec.requests.find((r) => r.seq === 3)!.receivedAt, kind: "resume", label: "process resume 1 (main): req 2 → req 3" },
    ]);
    expect(model.tasks).toEqual([
      { session: "s1", tasks: [{ taskId: "bmh4w29zr", start: 1796055614278, end: null, status: null }] },
      { session: "s2", tasks: [{ taskId: "bmh4w29zr", start: 1796055618657, end: 1796055618657, status: "stopped" }] },
    ]);
    expect(model.findings).toEqual([
      expect.objectContaining({ id: "prompt-settled-by-extra-result", red: true, t: rec.sessions[1]!.stdout[2]!.t, target: "run3-finding-0" }),
    ]);
    expect(model.streams[0]!.requests.map((r) => r.target)).toEqual(["run3-req-1", "run3-req-2", "run3-req-3"]);
  });

  it("a subagent run (2.1.281, RED): overlapping tasks on rows of their own, crowded request labels left to the tooltip", () => {
    const model = loadSwimlaneModel(path.join(FIXTURES, "runs/notification-changed-2.1.281"))!;
    const svg = renderSwimlane(model);
    // The subagent's task spans its three shell tasks: it takes row 0 and they row 1.
    const rows = Object.fromEntries([...svg.matchAll(/<rect class="task" data-task="([^"]+)" x="[^"]+" y="(\d+)"/g)].map((m) => [m[1], Number(m[2])]));
    expect(rows).toEqual({ a3a4ada757a4ceb84: 5, bafx3q5r6: 15, bjee08sl2: 15, b340022o3: 15 });
    // Every request keeps its tooltip; in the sub stream's burst at +6.9 s, req 5 (req 6 follows closely) loses its label.
    expect(svg.match(/<g class="request"/g)).toHaveLength(9);
    expect(svg).toMatch(/<g class="request" data-seq="5"[^>]*><title>[^<]*<\/title><rect [^>]*\/><\/g>/);
    expect(svg).toMatch(/<g class="request" data-seq="7"[^>]*><title>[^<]*<\/title><rect [^>]*\/><text [^>]*>7\/s2 end_turn<\/text><\/g>/);
  });

  it("a hook run (2.1.281): one tick per recorded hook call", () => {
    const rec = loadRecordings(HOOKS_RUN);
    const model = swimlaneModel(rec, null);
    expect(model.hooks.map((h) => h.event)).toEqual(rec.hooks.map((h) => h.event));
    expect(model.hooks).toHaveLength(11);
    expect(model.findings).toEqual([]);
    expect(renderSwimlane(model).match(/<line class="hook"/g)).toHaveLength(11);
  });
});
