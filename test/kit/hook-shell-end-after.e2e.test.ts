// The kit's shell hooks and print's endAfter on real releases (issue 43, items 3 and 6), on both release eras: 2.1.112
// (cli.js) and 2.1.332 (native).
// - examples/session-end-hook.ts (anthropics/claude-code#79702, the reporter's own `touch` as a SessionEnd hook): the
//   hook runs on a `-p` exit; a hook that sleeps 3 s first, with no `timeout` as in the report, is cut by the exiting
//   claude (2.1.332: SIGTERM about 1.5 s in, recorded; 2.1.112: killed outright, recorded from its claimed call).
// - a model that never stops asking for a tool: `print(…, { endAfter: { requests: 3 } })` ends claude after the third
//   request and the check judges what was recorded.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli, E2E_TIMEOUT_MS } from "../e2e-run.ts";

const EXAMPLE = path.join(import.meta.dirname, "..", "..", "examples", "session-end-hook.ts");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-end-after-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

fs.writeFileSync(
  path.join(folder, "never-stops.ts"),
  `import { bash, conversation, defineScenario, print, session } from "ccrepro";
import { finding, reached, requestsOf, sessionOf } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "never-stops",
  summary: "a turn whose model always asks for one more tool call is ended after three requests and judged",
  source: "issue 43",
  findings: ["loops"],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "NEVER_STOPS", replies: [], then: bash("echo again", "one more") } }),
  steps: () => [print(s1, "NEVER_STOPS go", { endAfter: { requests: 3 }, timeout: 60_000 })],
  check: (rec) => {
    const made = requestsOf(rec, { stream: "main" }).length;
    const stoppedBy = sessionOf(rec, s1)?.process.stoppedBy.join(",");
    return { reached: reached(), findings: [finding({ id: "loops", title: \`\${made} requests, then \${stoppedBy}\`, where: "s1" })] };
  },
  needs: ["stream-json-output"],
});
`,
);

const run = async (args: string[]) => {
  const result = await ccreproCli(["run", ...args, "--runs-dir", path.join(folder, "runs"), "--json"], folder);
  return { exitCode: result.exitCode, json: JSON.parse(result.stdout) as { verdict: string; findings: { id: string; title: string }[]; notes: string[] } };
};

describe.each(["2.1.112", "2.1.332"])("claude %s", (version) => {
  it("runs the reporter's own SessionEnd command on a -p exit (GREEN), and records a 3 s one cut short (RED)", async () => {
    const quick = await run([EXAMPLE, "--claude", version]);
    expect(quick.json.verdict, JSON.stringify(quick.json)).toBe("GREEN");
    expect(quick.json.notes.join("\n")).toMatch(/SessionEnd called \(reason other\); the hook exited 0; marker written/);
    const slow = await run([EXAMPLE, "--claude", version, "--param", "hookSeconds=3000"]);
    expect(slow.exitCode).toBe(1);
    expect(slow.json.findings.map((f) => f.id)).toEqual(["session-end-hook-cut"]);
    expect(slow.json.notes.join("\n")).toMatch(/the hook exited (143, ended by SIGTERM|null); marker missing/);
  }, E2E_TIMEOUT_MS);

  it("ends a turn that never stops after its third request and judges it", async () => {
    const looped = await run([path.join(folder, "never-stops.ts"), "--claude", version]);
    expect(looped.json.verdict, JSON.stringify(looped.json)).toBe("RED");
    expect(looped.json.findings[0]!.title).toMatch(/^(3|4) requests, then close-stdin,SIGTERM(,SIGKILL)?$/);
  }, E2E_TIMEOUT_MS);
});
