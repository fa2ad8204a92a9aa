import { describe, expect, it } from "vitest";
import { MACHINE_RULES, normaliseMachine, normaliseMachineJson, ToolUseIds } from "../../mock-api/machine-rules.ts";
import { replayKeyOf } from "../../mock-api/replay-script.ts";

// Texts as releases of both eras send them (recorded with `ccrepro record` on 2.1.112, a cli.js release, with the
// <env> form of 1.0.128, and on 2.1.332, a native one), on the recording machine and on a replaying one.
const ERAS = {
  "cli.js": {
    environment: [
      " - Primary working directory: /home/alice/proj\n  - Is a git repository: true\n - Platform: darwin\n - Shell: zsh\n - OS Version: Darwin 24.1.0\n",
      " - Primary working directory: /runs/r1/iso/work\n  - Is a git repository: true\n - Platform: linux\n - Shell: unknown\n - OS Version: Linux 6.18.44-fc-v1272\n",
    ],
    envTag: [
      "<env>\nWorking directory: /Users/bob/code/x\nIs directory a git repo: Yes\nPlatform: darwin\nOS Version: Darwin 23.0.0\nToday's date: 2026-12-06\n</env>",
      "<env>\nWorking directory: /tmp/ccrepro-work-r2/iso/work\nIs directory a git repo: Yes\nPlatform: linux\nOS Version: Linux 6.18.44-fc-v1272\nToday's date: 2027-01-02\n</env>",
    ],
    gitStatus: [
      "gitStatus: This is the git status at the start of the conversation. Note that this status is a snapshot in time, and will not update during the conversation.\n\nCurrent branch: trunk\n\nMain branch (you will usually use this for PRs): main\n\nGit user: alice\n\nStatus:\n?? README.md\n?? x.txt\n\nRecent commits:\n650d9eb first commit\n1a2b3c4 second",
      "gitStatus: This is the git status at the start of the conversation. Note that this status is a snapshot in time, and will not update during the conversation.\n\nCurrent branch: main\n\nMain branch (you will usually use this for PRs): main\n\nStatus:\n(clean)\n\nRecent commits:\n",
    ],
    billing: ["x-anthropic-billing-header: cc_version=2.1.112.b41; cc_entrypoint=sdk-cli; cch=00000;", "x-anthropic-billing-header: cc_version=2.1.112.c07; cc_entrypoint=sdk-cli; cch=00000;"],
    date: ["# currentDate\nToday's date is 2026-12-06.\n", "# currentDate\nToday's date is 2027-01-02.\n"],
  },
  native: {
    environment: [
      " - Primary working directory: /home/alice/proj\n - Is a git repository: false\n - Platform: linux\n - Shell: zsh\n - OS Version: Linux 6.8.0-45-generic\n - Downloaded files",
      " - Primary working directory: /tmp/ccrepro-work-r3/iso/work\n - Is a git repository: false\n - Platform: linux\n - Shell: bash\n - OS Version: Linux 6.18.44-fc-v1272\n - Downloaded files",
    ],
    envTag: ["memory at `/home/alice/.claude/projects/-home-alice-proj/memory/`.", "memory at `/runs/r3/iso/config/projects/-runs-r3-iso-work/memory/`."],
    gitStatus: [
      "# gitStatus\nThis is the git status at the start of the conversation. Note that this status is a snapshot in time, and will not update during the conversation.\n\nCurrent branch: trunk\n\nMain branch (you will usually use this for PRs): main\n\nStatus:\n?? README.md\n\nRecent commits:\n31c3e2d first commit\n\nClaude Code attached this context automatically.\n</system-reminder>",
      "# gitStatus\nThis is the git status at the start of the conversation. Note that this status is a snapshot in time, and will not update during the conversation.\n\nCurrent branch: main\n\nMain branch (you will usually use this for PRs): main\n\nStatus:\n(clean)\n\nRecent commits:\n\n\nClaude Code attached this context automatically.\n</system-reminder>",
    ],
    billing: ["x-anthropic-billing-header: cc_version=2.1.332.201; cc_entrypoint=sdk-cli; cch=9f3e1;", "x-anthropic-billing-header: cc_version=2.1.332.7aa; cc_entrypoint=sdk-cli; cch=0c2d4;"],
    date: ["Today's date is 2026-12-06.", "Today's date is Saturday, January 2, 2027."],
  },
} as const;

describe("MACHINE_RULES", () => {
  it("are named and described, in a fixed order", () => {
    expect(MACHINE_RULES.map((r) => r.name)).toEqual(["git-status", "paths", "platform", "os-version", "shell", "date-phrases", "iso-dates", "billing-cch", "cc-version-hash", "tool-use-ids", "task-ids", "task-durations", "uuids", "request-ids", "local-ports"]);
    for (const rule of MACHINE_RULES) expect(rule.description.length).toBeGreaterThan(20);
  });

  for (const [era, samples] of Object.entries(ERAS)) {
    for (const [what, [recorded, replayed]] of Object.entries(samples)) {
      it(`make the ${what} of a ${era} release equal across machines, and nothing else`, () => {
        expect(recorded).not.toBe(replayed);
        expect(normaliseMachine(recorded)).toBe(normaliseMachine(replayed));
      });
    }
  }

  it("keep what a replay must reproduce: the git-or-not line, the entrypoint, the version, the prompt", () => {
    const a = ERAS.native.environment[0];
    expect(normaliseMachine(a)).not.toBe(normaliseMachine(a.replace("repository: false", "repository: true")));
    const billing = ERAS.native.billing[0];
    expect(normaliseMachine(billing)).not.toBe(normaliseMachine(billing.replace("sdk-cli", "cli")));
    expect(normaliseMachine(billing)).not.toBe(normaliseMachine(billing.replace("2.1.332", "2.1.333")));
    expect(normaliseMachine("say pong")).toBe("say pong");
  });

  it("each blank their own part", () => {
    const cases: Record<string, [string, string]> = {
      "git-status": [ERAS["cli.js"].gitStatus[0], "gitStatus: This is the git status at the start of the conversation. <git status>\n\n"],
      paths: ["in /home/alice/proj/src/a.ts and C:", "in <path> and C:"],
      platform: ["Platform: darwin", "Platform: <platform>"],
      "os-version": ["OS Version: Darwin 24.1.0\nnext", "OS Version: <os-version>\nnext"],
      shell: ["Shell: zsh\nnext", "Shell: <shell>\nnext"],
      "date-phrases": ["The current month is December 2026.", "The current month is <date>."],
      "iso-dates": ["at 2026-12-06T12:00:01.5Z", "at <date>"],
      "billing-cch": ["cch=9f3e1;", "cch=<cch>;"],
      "cc-version-hash": ["cc_version=2.1.332.201;", "cc_version=2.1.332.<hash>;"],
      "tool-use-ids": ["toolu_01AbCdEfGh then toolu_01ZzYyXx then toolu_01AbCdEfGh", "<tool-use-1> then <tool-use-2> then <tool-use-1>"],
      "task-ids": ["with ID: bx9i6eagu. agentId: a9a12f1d735a9bd8d (…to: 'a9a12f1d735a9bd8d') <task-id>bx9i6eagu</task-id>", "with ID: <task-1>. agentId: <task-2> (…to: '<task-2>') <task-id><task-1></task-id>"],
      "task-durations": [
        "<usage><tool_uses>1</tool_uses><duration_ms>3035</duration_ms></usage> and <usage>total_tokens: 105\ntool_uses: 1\nduration_ms: 2505</usage>",
        "<usage><tool_uses>1</tool_uses><duration_ms><ms></duration_ms></usage> and <usage>total_tokens: 105\ntool_uses: 1\nduration_ms: <ms></usage>",
      ],
      uuids: ["session 0b9d2c4e-1f2a-4b3c-8d4e-5f6a7b8c9d0e", "session <uuid>"],
      "request-ids": ["req_011CVabcdefgh", "req_<id>"],
      "local-ports": ["http://127.0.0.1:41234", "http://127.0.0.1:<port>"],
    };
    expect(Object.keys(cases)).toEqual(MACHINE_RULES.map((r) => r.name));
    for (const rule of MACHINE_RULES) expect(rule.apply(cases[rule.name]![0], new ToolUseIds()), rule.name).toBe(cases[rule.name]![1]);
  });
});

describe("tool-use ids", () => {
  it("map a recorded id to the replay's by the order a request mentions them", () => {
    const request = (first: string, second: string) => ({
      messages: [
        { role: "assistant", content: [{ type: "tool_use", id: first, name: "Bash" }, { type: "tool_use", id: second, name: "Read" }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: second, content: "b" }, { type: "tool_result", tool_use_id: first, content: "a" }] },
      ],
    });
    const recorded = normaliseMachineJson(request("toolu_01RecordedAAAA", "toolu_01RecordedBBBB"));
    expect(normaliseMachineJson(request("toolu_01ReplayedXXXX", "toolu_01ReplayedYYYY"))).toEqual(recorded);
    // A result answering the other call is a difference, not an equal mapping.
    const crossed = request("toolu_01ReplayedXXXX", "toolu_01ReplayedYYYY");
    (crossed.messages[1]!.content[0] as { tool_use_id: string }).tool_use_id = "toolu_01ReplayedXXXX";
    expect(normaliseMachineJson(crossed)).not.toEqual(recorded);
  });

  it("map a background command's and an agent's ids the same way, in both eras' texts, a notification still naming its own task", () => {
    // As 2.1.112 (cli.js) and 2.1.332 (native) write them: the launch's tool result, then the notification.
    const texts = (command: string, agent: string) => [
      `Command running in background with ID: ${command}. Output is being written to: /tmp/claude-0/-p/s/tasks/${command}.output`,
      `agentId: ${agent} (use SendMessage with to: '${agent}' to continue this agent)`,
      `<task-notification>\n<task-id>${command}</task-id>\n<status>completed</status>\n</task-notification>`,
    ];
    const recorded = normaliseMachineJson(texts("bx9i6eagu", "a9a12f1d735a9bd8d"));
    expect(normaliseMachineJson(texts("bws3j4539", "ae46e847cd5067fdd"))).toEqual(recorded);
    const [launch, agent] = texts("bws3j4539", "ae46e847cd5067fdd");
    // The notification names the agent, not the command it was launched for: a difference.
    expect(normaliseMachineJson([launch, agent, texts("ae46e847cd5067fdd", "x")[2]])).not.toEqual(recorded);
  });

  it("blank metadata.user_id whole", () => {
    expect(normaliseMachineJson({ metadata: { user_id: '{"device_id":"01f1"}' } })).toEqual({ metadata: { user_id: "<user-id>" } });
  });
});

describe("the replay's match key", () => {
  it("is the same for a request from another machine, and differs when the prompt does", () => {
    const body = (cwd: string, os: string, prompt: string) =>
      JSON.stringify({ model: "m", system: [{ type: "text", text: `Primary working directory: ${cwd}\n - OS Version: ${os}\n` }], messages: [{ role: "user", content: prompt }] });
    const recorded = replayKeyOf("/v1/messages", body("/home/alice/p", "Darwin 24.1.0", "say pong"));
    expect(replayKeyOf("/v1/messages", body("/runs/r/iso/work", "Linux 6.18", "say pong"))).toEqual(recorded);
    expect(replayKeyOf("/v1/messages", body("/runs/r/iso/work", "Linux 6.18", "say ping"))).not.toEqual(recorded);
  });
});
