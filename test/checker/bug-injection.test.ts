// Bug injection: each bug the checkers claim to see is injected into a recorded GREEN run (a temp copy, files
// edited), and the check must turn RED with the right finding; RED recordings repaired the other way must turn GREEN.
// The recordings are real runs (test/fixtures/runs, test/fixtures/hooks, test/fixtures/background: see their READMEs).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkContinuation } from "../../checker/continuation.ts";
import { checkTurnGrammar, TURN_FINDINGS } from "../../checker/turns.ts";
import { judge, type CheckResult } from "../../core/verdict.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");
const hooksRun = (name: string) => path.join(FIXTURES, "hooks", name);
const backgroundRun = (name: string) => path.join(FIXTURES, "background", name);

type Line = Record<string, unknown>;
type Message = { role: string; content: { type: string; content?: string; text?: string }[] };

// A run checked the way its scenario checks it; recordings without run.json name their scenario and parameters here.
const scenarioCheck = (dir: string): CheckResult => checkRecordedRun(dir, scenarioByName);
const hookCheck = (when: string) => (dir: string): CheckResult => {
  const scenario = findScenario("hook-task-notification-prompt")!;
  return scenario.check(loadRecordings(dir), scenario.params.parse({ when }));
};
const continuationCheck = (dir: string): CheckResult => {
  const { pid } = JSON.parse(fs.readFileSync(path.join(dir, "foreground.json"), "utf8")) as { pid: number };
  return judge(checkContinuation(loadRecordings(dir), { stream: "main", foregroundPid: pid }));
};
// The turn grammar's own claim, every finding red: the orphan scenario reds only two of them.
const grammarCheck = (dir: string): CheckResult => judge(checkTurnGrammar(loadRecordings(dir).sessions.find((s) => s.label === "s2")!, { redIds: TURN_FINDINGS }));

const OUTPUT_FILE = "/tasks/bg7y0c983.output</output-file>";
const reminder = /\n\n<system-reminder>\n\[SYSTEM NOTIFICATION[\s\S]*?<\/system-reminder>/;

// A stdout line of a session, shifted `dt` ms after `line`, with the event edited.
const stdoutLike = (line: Line, dt: number, edit: (event: Line) => Line): Line => ({ t: (line["t"] as number) + dt, raw: JSON.stringify(edit(JSON.parse(line["raw"] as string) as Line)) });
const isResult = (line: Line) => (JSON.parse(line["raw"] as string) as Line)["type"] === "result";

// One more UserPromptSubmit hook call, its payload the typed one's with another prompt.
function addPromptSubmit(dir: string, prompt: string, at: number): void {
  const index = fs.readFileSync(path.join(dir, "hooks.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { t: number; event: string; payloadFile: string });
  const typed = index.find((h) => h.event === "UserPromptSubmit")!;
  const payload = JSON.parse(fs.readFileSync(path.join(dir, typed.payloadFile), "utf8")) as Line;
  const file = `hooks/${Math.round(at * 1000)}-1-UserPromptSubmit.json`;
  fs.writeFileSync(path.join(dir, file), JSON.stringify({ ...payload, prompt }));
  editJsonLines(dir, "hooks.jsonl", (lines) => [...lines, { t: at, event: "UserPromptSubmit", durationMs: 1, payloadFile: file }]);
}

// Request `from` of the log sent again as request `seq` (its body copied, tool ids renumbered to the new seq).
function repeatRequest(dir: string, from: number, seq: number, renumber: [number, number] | null, receivedAt: number): void {
  const body = (n: number) => path.join(dir, "mock", "requests", `${String(n).padStart(6, "0")}.body`);
  let text = fs.readFileSync(body(from), "utf8");
  if (renumber) text = text.replaceAll(`toolu_mock_${renumber[0]}_`, `toolu_mock_${renumber[1]}_`);
  fs.writeFileSync(body(seq), text);
  editJsonLines(dir, "mock/index.jsonl", (lines) => {
    const entry = lines.find((l) => l["kind"] === "request" && l["seq"] === from)!;
    const end = lines.find((l) => l["kind"] === "response-end" && l["seq"] === from)!;
    return [...lines, { ...entry, seq, receivedAt, bodyFile: path.relative(path.join(dir, "mock"), body(seq)) }, { ...end, seq, endedAt: receivedAt + 20 }];
  });
}

interface Injection {
  bug: string;
  finding: string;
  recording: string;
  inject(dir: string): void;
  check(dir: string): CheckResult;
}

const INJECTIONS: Injection[] = [
  {
    bug: "one changed byte in a re-sent notification",
    finding: "notification-changed",
    recording: recordedRun("notification-green-2.1.332"),
    inject: (dir) => editFile(dir, "mock/requests/000008.body", (t) => t.replace(`0${OUTPUT_FILE}`, `1${OUTPUT_FILE}`)),
    check: scenarioCheck,
  },
  {
    bug: "a dropped notification",
    finding: "notification-dropped",
    recording: recordedRun("notification-green-2.1.332"),
    inject: (dir) =>
      editBody(dir, 8, (body) => {
        const block = (body.messages[4] as Message).content[0]!;
        block.content = block.content!.replace(reminder, "");
      }),
    check: scenarioCheck,
  },
  {
    bug: "a moved notification (two messages inserted before it; prefix-changed is the red finding)",
    finding: "notification-moved",
    recording: recordedRun("notification-green-2.1.332"),
    inject: (dir) => editBody(dir, 8, (body) => void body.messages.splice(1, 0, { role: "user", content: "inserted" }, { role: "assistant", content: "ok" })),
    check: scenarioCheck,
  },
  {
    bug: "a reworded synthetic hook prompt",
    finding: "synthetic-prompt-indistinguishable",
    recording: hooksRun("2.1.234-mid-turn"),
    inject(dir) {
      const hooks = fs.readFileSync(path.join(dir, "hooks.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { t: number; event: string });
      const before = hooks.find((h) => h.event === "PostToolUse")!;
      addPromptSubmit(dir, "A background task finished:\n<task-notification>\n<task-id>bkv8tq80c</task-id>\n<status>completed</status>\n</task-notification>", before.t + 1);
    },
    check: hookCheck("mid-turn"),
  },
  {
    bug: "an extra zero-work result",
    finding: "prompt-settled-by-extra-result",
    recording: recordedRun("orphan-control-2.1.234"),
    inject: (dir) =>
      editJsonLines(dir, "sessions/s2/stdout.jsonl", (lines) => {
        const at = lines.findIndex(isResult);
        const extra = stdoutLike(lines[at]!, -2, (e) => ({ ...e, num_turns: 0, result: "", usage: { input_tokens: 0, output_tokens: 0 }, origin: { kind: "task-notification" } }));
        return [...lines.slice(0, at), extra, ...lines.slice(at)];
      }),
    check: scenarioCheck,
  },
  {
    bug: "a turn that settles twice",
    finding: "turn-settled-twice",
    recording: recordedRun("orphan-control-2.1.234"),
    inject: (dir) => editJsonLines(dir, "sessions/s2/stdout.jsonl", (lines) => [...lines, stdoutLike(lines.find(isResult)!, 5, (e) => e)]),
    check: grammarCheck,
  },
  {
    bug: "a tool re-run that answers the turn again (turn-rerun is informational)",
    finding: "turn-duplicated",
    recording: backgroundRun("2.1.332-rerun"),
    inject(dir) {
      // The background session re-sends the prompt once more (req 8) and answers its re-run tool call (req 9).
      repeatRequest(dir, 3, 8, null, 1_796_056_300_000);
      repeatRequest(dir, 5, 9, [3, 8], 1_796_056_300_100);
    },
    check: continuationCheck,
  },
];

interface Repair {
  bug: string;
  recording: string;
  repair(dir: string): void;
  check(dir: string): CheckResult;
}

// req 8's shared prefix made req 6's again: what a release without the bug would have re-sent.
const restorePrefix = (dir: string) => {
  const before = JSON.parse(fs.readFileSync(path.join(dir, "mock", "requests", "000006.body"), "utf8")) as { messages: unknown[] };
  editBody(dir, 8, (body) => void body.messages.splice(0, before.messages.length, ...before.messages));
};

const REPAIRS: Repair[] = [
  { bug: "the header flip (notification-changed)", recording: recordedRun("notification-changed-2.1.281"), repair: restorePrefix, check: scenarioCheck },
  { bug: "the dropped notification (notification-dropped)", recording: recordedRun("notification-dropped-2.1.251"), repair: restorePrefix, check: scenarioCheck },
  {
    bug: "the zero-work task-notification result (prompt-settled-by-extra-result)",
    recording: recordedRun("orphan-red-2.1.332"),
    repair: (dir) =>
      editJsonLines(dir, "sessions/s2/stdout.jsonl", (lines) => lines.filter((l) => !(isResult(l) && (JSON.parse(l["raw"] as string) as Line)["num_turns"] === 0))),
    check: scenarioCheck,
  },
  {
    bug: "the synthetic UserPromptSubmit (synthetic-prompt-indistinguishable)",
    recording: hooksRun("2.1.281-mid-turn"),
    repair: (dir) => {
      // The synthetic call carries a marker a hook can test, as a fixed release would send.
      const file = fs.readdirSync(path.join(dir, "hooks")).filter((f) => f.endsWith("UserPromptSubmit.json")).sort().at(-1)!;
      editFile(dir, `hooks/${file}`, (t) => JSON.stringify({ ...(JSON.parse(t) as Line), source: "task-notification" }));
    },
    check: hookCheck("mid-turn"),
  },
];

// The whole result a person reads (titles, places, details, diffs, data, notes), compared with a reviewed copy in
// test/checker/bug-injection/ (accept a change with `npx vitest run test/checker/bug-injection.test.ts -u`).
async function expectReviewedOutput(kind: string, bug: string, result: CheckResult): Promise<void> {
  const slug = bug.replace(/\(.*?\)/g, "").trim().replace(/[^a-z0-9]+/gi, "-").replace(/-+$/, "").toLowerCase();
  await expect(`${JSON.stringify(result, null, 2)}\n`).toMatchFileSnapshot(path.join("bug-injection", `${kind}--${slug}.json`));
}

describe("bug injection into recorded GREEN runs", () => {
  it.each(INJECTIONS.map((i) => [i.bug, i] as const))("%s", async (_, injection) => {
    expect(injection.check(injection.recording).verdict).toBe("GREEN");
    const dir = copyRun(injection.recording);
    injection.inject(dir);
    const result = injection.check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.findings.map((f) => f.id)).toContain(injection.finding);
    await expectReviewedOutput("injected", injection.bug, result);
  });
});

describe("repairing recorded RED runs", () => {
  it.each(REPAIRS.map((r) => [r.bug, r] as const))("%s", async (_, repair) => {
    expect(repair.check(repair.recording).verdict).toBe("RED");
    const dir = copyRun(repair.recording);
    repair.repair(dir);
    const result = repair.check(dir);
    expect(result.findings.filter((f) => f.red)).toEqual([]);
    expect(result.verdict).toBe("GREEN");
    await expectReviewedOutput("repaired", repair.bug, result);
  });
});
