// Each normalisation rule on text it must rewrite and on look-alike text it must leave alone.
import { describe, expect, it } from "vitest";
import { CROSS_RUN_RULES, normaliseAcrossRuns, runPathsOf, type NormaliseContext } from "../../checker/cross-run-normalise.ts";
import { runLayout } from "../../harness/run-layout.ts";

interface Case {
  ctx?: NormaliseContext;
  positive: [input: string, output: string][];
  negative: string[];
}

const runPaths = [
  { prefix: "/runs/r1", placeholder: "<run>" },
  { prefix: "/runs/r1/iso/tmp", placeholder: "<tmp>" },
];

const cases: Record<string, Case> = {
  "run-paths": {
    ctx: { runPaths },
    positive: [
      ["<output-file>/runs/r1/iso/tmp/tasks/a.output</output-file>", "<output-file><tmp>/tasks/a.output</output-file>"],
      ["cwd /runs/r1/iso/work and /runs/r1/iso/work", "cwd <run>/iso/work and <run>/iso/work"],
    ],
    negative: ["/runs/r2/iso/tmp/a", "runs/r1 without the leading slash is a different path"],
  },
  "billing-cch": {
    positive: [["cc_entrypoint=sdk-cli; cch=1a2b3;", "cc_entrypoint=sdk-cli; cch=<cch>;"]],
    negative: ["xcch=1a2b3", "cch=ZZZ"],
  },
  "cc-version-hash": {
    positive: [
      ["cc_version=2.1.281.e3b;", "cc_version=2.1.281.<hash>;"],
      ["cc_version=2.1.281.123;", "cc_version=2.1.281.<hash>;"],
    ],
    negative: ["cc_version=2.1.281;", "cc_version=2.1;"],
  },
  "metadata-user-id": {
    ctx: { jsonPath: "metadata.user_id" },
    positive: [["user_abc_account_x_session_y", "<user-id>"]],
    negative: [],
  },
  "date-phrases": {
    positive: [
      ["Today's date is 2026-11-30.\nNext", "Today's date is <date>.\nNext"],
      ["Today's date is Sunday, November 30, 2026", "Today's date is <date>"],
      ["The current month is November 2026\nx", "The current month is <date>\nx"],
    ],
    negative: ["today's date is unknown", "The month is November 2026"],
  },
  "iso-dates": {
    positive: [
      ["on 2026-11-30 at", "on <date> at"],
      ["at 2026-11-30T16:01:02.345Z.", "at <date>."],
    ],
    negative: ["v2026-1-30", "12026-11-301", "build 20261130"],
  },
  "total-tokens": {
    positive: [["<total_tokens>981234 tokens left</total_tokens>", "<total_tokens><n> tokens left</total_tokens>"]],
    negative: ["<total_tokens>many tokens left</total_tokens>", "981234 tokens left"],
  },
  uuids: {
    positive: [["session 0f8fad5b-d9cb-469f-a165-70867728950e ok", "session <uuid> ok"]],
    negative: ["0f8fad5b-d9cb-469f-a165-70867728950", "toolu_mock_0004"],
  },
  "request-ids": {
    positive: [["request req_011CVabcdEFGH123 failed", "request req_<id> failed"]],
    negative: ["req_short", "prereq_011CVabcdEFGH123"],
  },
  "local-ports": {
    positive: [
      ["http://127.0.0.1:43121/v1/messages", "http://127.0.0.1:<port>/v1/messages"],
      ["localhost:8080", "localhost:<port>"],
    ],
    negative: ["10.0.0.1:43121", "127.0.0.1 port 43121"],
  },
};

describe("CROSS_RUN_RULES", () => {
  it("has test cases for exactly the rules in the list", () => {
    expect(Object.keys(cases).sort()).toEqual(CROSS_RUN_RULES.map((r) => r.name).sort());
    for (const rule of CROSS_RUN_RULES) expect(rule.description.length).toBeGreaterThan(10);
  });

  for (const rule of CROSS_RUN_RULES) {
    const c = cases[rule.name];
    describe(rule.name, () => {
      it.each(c?.positive ?? [])("rewrites %j", (input, output) => {
        expect(rule.apply(input, c?.ctx ?? {})).toBe(output);
      });
      it.each((c?.negative ?? []).map((text) => [text]))("leaves %j alone", (text) => {
        expect(rule.apply(text, c?.ctx ?? {})).toBe(text);
      });
    });
  }

  it("leaves metadata-like text elsewhere in a body alone", () => {
    const rule = CROSS_RUN_RULES.find((r) => r.name === "metadata-user-id")!;
    expect(rule.apply("user_abc", { jsonPath: "messages[0].content" })).toBe("user_abc");
  });
});

describe("normaliseAcrossRuns", () => {
  it("makes two billing headers from different requests equal and keeps real differences", () => {
    const a = "x-anthropic-billing-header: cc_version=2.1.281.e3b; cch=1a2b3;\nToday's date is 2026-11-30.";
    const b = "x-anthropic-billing-header: cc_version=2.1.281.f00; cch=9c8d7;\nToday's date is 2026-12-01.";
    expect(normaliseAcrossRuns(a)).toBe(normaliseAcrossRuns(b));
    expect(normaliseAcrossRuns(a)).not.toBe(normaliseAcrossRuns(b.replace("2.1.281", "2.1.282")));
  });

  it("replaces run paths before dates, so a dated run directory becomes one placeholder", () => {
    const ctx = { runPaths: [{ prefix: "/runs/2026-11-30-r1", placeholder: "<run>" }] };
    expect(normaliseAcrossRuns("/runs/2026-11-30-r1/x", ctx)).toBe("<run>/x");
  });

  it("derives placeholders for a run's isolated directories", () => {
    const paths = runPathsOf(runLayout("/runs/r9"));
    expect(normaliseAcrossRuns("/runs/r9/iso/tmp/t /runs/r9/iso/work /runs/r9/mock", { runPaths: paths })).toBe("<tmp>/t <work> <run>/mock");
  });
});
