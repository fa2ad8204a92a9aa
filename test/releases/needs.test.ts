// Capabilities from help text and bundle bytes, and the needs a release leaves missing. The snippets are the
// markers measured in published bundles (quoted in releases/capabilities.ts); the real releases are covered by
// test/pipeline/every-release.e2e.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundleMarkers, capabilitiesOf, flagsOf, hookEventsInBundle, scanBundle, toolsFrom } from "../../releases/capabilities.ts";
import { describeNeed, isNeed, missingNeeds } from "../../releases/needs.ts";
import { scenarioNeeds } from "../../kit/scenario.ts";
import { findScenario } from "../../scenarios/index.ts";

const caps = (help: string, bundle: string) => capabilitiesOf(help, bundle, flagsOf(help, bundle));

describe("capabilitiesOf", () => {
  it("reads flags from --help and hidden commander options from the bundle", () => {
    const help = "  --allowedTools, --allowed-tools <tools...>  Comma list\n  --input-format <format>  stream-json (realtime streaming input)\n  --output-format <format> stream-json";
    expect(flagsOf(help, 'new Option("--permission-mode <mode>", "Permission mode")')).toEqual(
      ["--allowed-tools", "--allowedTools", "--input-format", "--output-format", "--permission-mode"],
    );
    expect(caps(help, "")).toEqual(["stream-json-input", "stream-json-output", "stream-json-input-blocks", "allowed-tools-flag"]);
  });

  it("finds the IS_SANDBOX escape in the root check only where the release has one (1.0.44 on)", () => {
    const refuses = 'if(process.getuid()===0)console.error("--dangerously-skip-permissions cannot be used with root/sudo privileges")';
    const escapes = 'if(process.getuid()===0&&!process.env.IS_SANDBOX)console.error("--dangerously-skip-permissions cannot be used with root/sudo privileges")';
    expect(caps("", refuses)).not.toContain("root-sandbox-escape");
    expect(caps("", escapes)).toContain("root-sandbox-escape");
    // Native builds also have a second message whose condition sits in a helper; one escape is enough.
    expect(caps("", `${escapes};function g(){if(oM.isRootOutsideDeliberateSandbox())console.error("x cannot be used with root/sudo")}`)).toContain("root-sandbox-escape");
  });

  it("tells background Bash from background subagents, and finds /background, SendMessage and task events", () => {
    expect(caps("", 'run_in_background:z.boolean()')).toEqual(["background-bash"]);
    const all = 'subagent_type:z.string(),run_in_background:z.boolean();"<task-notification>";"task_started";Xy="SendMessage";{type:"local-jsx",name:"background",aliases:["bg"]}';
    expect(caps("", all)).toEqual(["background-bash", "background-subagent", "task-notification", "stream-task-events", "send-message", "interactive-background"]);
  });
});

// thinking-changed-on-replay how=interrupt ended in ERROR on 1.0.21–1.0.44 ("Expected message type 'user', got
// 'control_request'", atlas 2026-12-07): those releases read stream-json input but refuse the interrupt request.
describe("the stream-json interrupt", () => {
  const help = "  --input-format <format>  stream-json (realtime streaming input)";
  it("is a capability only where the bundle handles the control request (1.0.45 on)", () => {
    const v1044 = 'if(B.type!=="user")BEA(`Error: Expected message type \'user\', got \'${B.type}\'`)';
    const v1045 = 'for await(let $ of A){if($.type==="control_request"){if($.request.subtype==="interrupt"){if(E)E.abort();';
    expect(caps(help, v1044)).not.toContain("stream-json-interrupt");
    expect(caps(help, v1045)).toContain("stream-json-interrupt");
    // Without --input-format there is no stdin to send it on.
    expect(caps("", v1045)).not.toContain("stream-json-interrupt");
  });

  // rejected-image-resent via=prompt ended in ERROR on 1.0.21–1.0.62 (atlas 2026-12-07): a pasted image is a second block.
  it("takes several content blocks in one user message only where the input loop does not refuse them (1.0.63 on)", () => {
    const v1062 = 'if($.message.content.length!==1){process.stderr.write(`Error: Expected message content to have exactly one item, got ${$.message.content.length}`)';
    expect(caps(help, v1062)).toEqual(["stream-json-input"]);
    expect(caps(help, "")).toEqual(["stream-json-input", "stream-json-input-blocks"]);
    expect(caps("", "")).not.toContain("stream-json-input-blocks");
    const image = findScenario("rejected-image-resent")!;
    expect(scenarioNeeds(image, image.params.parse({ via: "prompt" }))).toContain("stream-json-input-blocks");
    expect(scenarioNeeds(image, image.params.parse({ via: "read" }))).not.toContain("stream-json-input-blocks");
  });

  it("is needed by an interrupt step, and by interrupt-mid-tool-resume's own control request", () => {
    const thinking = findScenario("thinking-changed-on-replay")!;
    expect(scenarioNeeds(thinking, thinking.params.parse({ how: "interrupt" }))).toContain("stream-json-interrupt");
    expect(scenarioNeeds(thinking, thinking.params.parse({ how: "kill-resume" }))).not.toContain("stream-json-interrupt");
    const stopped = findScenario("interrupt-mid-tool-resume")!;
    expect(scenarioNeeds(stopped, stopped.params.parse({ how: "interrupt" }))).toContain("stream-json-interrupt");
    expect(scenarioNeeds(stopped, stopped.params.parse({ how: "sigterm" }))).not.toContain("stream-json-interrupt");
    expect(missingNeeds(["stream-json-interrupt"], { capabilities: ["stream-json-input"], hookEvents: [], tools: [], flags: [] })).toEqual(["stream-json-interrupt"]);
    expect(describeNeed("stream-json-interrupt")).toBe("a stream-json `control_request` interrupt");
  });
});

describe("toolsFrom", () => {
  it("finds Monitor by its description and ToolSearch by its name as the bundles declare them", () => {
    // 2.1.101's Monitor; 2.1.19's and 2.1.89's ToolSearch (the shapes quoted in releases/capabilities.ts).
    expect(toolsFrom(bundleMarkers('var e0="Monitor",Kr1=`Start a background monitor that streams events`'))).toEqual(["Monitor"]);
    expect(toolsFrom(bundleMarkers('UG="ToolSearch",x=1'))).toEqual(["ToolSearch"]);
    expect(toolsFrom(bundleMarkers('{userFacingName:()=>"ToolSearch"}'))).toEqual(["ToolSearch"]);
    expect(toolsFrom(bundleMarkers('var gP="ToolSearch";Start a background monitor'))).toEqual(["Monitor", "ToolSearch"]);
    // A name in a list of symbols, or in a set of read-only tools, is no tool of the bundle's own.
    expect(toolsFrom(bundleMarkers('"Monday","Monitor","MonomialList";new Set(["Read","Glob","Grep","ToolSearch","LSP"])'))).toEqual([]);
  });
});

describe("scanBundle", () => {
  // Every marker the probe reads, each in a stretch as long as it reads (the root check's condition 300 characters
  // before its message, a subagent schema 4000 from its description, a hook list 2000 either side of its anchor).
  const pieces = [
    'new Option("--permission-mode <mode>", "Permission mode")', 'new Option("--input-format <format>", "Input format")',
    `if(process.getuid()===0&&!process.env.IS_SANDBOX)${" ".repeat(220)}console.error("x cannot be used with root/sudo privileges")`,
    "return process.env.no_proxy||process.env.NO_PROXY",
    `subagent_type:z.string(),${"x".repeat(3900)}run_in_background:z.boolean()`,
    '"<task-notification>"', '"task_started"', 'Xy="SendMessage"', '{name:"background",aliases:["bg"]}',
    "Start a background monitor", 'Av="ToolSearch",',
    `[${" ".repeat(1900)}"PreToolUse","Stop","UserPromptSubmit","WorktreeCreate"${" ".repeat(1900)}]`,
  ];

  it("reads a file in overlapping windows to what reading it whole finds, wherever a window boundary falls", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-scan-"));
    try {
      // The pieces at spacings that put each window boundary inside one of them in turn.
      for (const gap of [0, 777, 5003, 12_345]) {
        const bytes = Buffer.from(pieces.join("\0".repeat(gap)), "latin1");
        const file = path.join(dir, `bundle-${gap}`);
        fs.writeFileSync(file, bytes);
        const whole = { markers: bundleMarkers(bytes.toString("latin1")), flags: flagsOf("", bytes.toString("latin1")), hooks: hookEventsInBundle(bytes) };
        expect(whole.markers.size).toBe(11);
        expect(whole.hooks).toEqual(["PreToolUse", "Stop", "UserPromptSubmit"]);
        for (const window of [9_000, 16_384, 65_536, 8 * 2 ** 20]) {
          const scan = await scanBundle(file, window);
          expect([...scan.markers].sort(), `gap ${gap}, window ${window}`).toEqual([...whole.markers].sort());
          expect([...scan.declaredFlags].sort()).toEqual(whole.flags);
          expect(scan.hookEvents).toEqual(whole.hooks);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("missingNeeds", () => {
  it("names the capabilities and hook events a release lacks, in the scenario's order", () => {
    const probe = { capabilities: ["stream-json-input", "background-bash"] as const, hookEvents: ["PreToolUse", "Stop"], tools: ["ToolSearch"] as const, flags: ["--model", "--resume"] };
    expect(missingNeeds(["stream-json-input", "hook:UserPromptSubmit", "tool:Monitor", "background-bash", "tool:ToolSearch", "task-notification", "flag:--model", "flag:--fallback-model"], probe)).toEqual([
      "hook:UserPromptSubmit",
      "tool:Monitor",
      "task-notification",
      "flag:--fallback-model",
    ]);
    expect(describeNeed("stream-json-input")).toBe("`--input-format stream-json`");
    expect(describeNeed("hook:UserPromptSubmit")).toBe("the UserPromptSubmit hook event");
    expect(describeNeed("tool:Monitor")).toBe("the Monitor tool");
    expect(describeNeed("flag:--fallback-model")).toBe("the `--fallback-model` option");
  });

  it("knows a need's four forms and no other", () => {
    expect(["background-bash", "hook:SessionEnd", "tool:Monitor", "tool:ToolSearch", "flag:--fallback-model"].every(isNeed)).toBe(true);
    expect(["tool:Bash", "hook:", "hook:Session End", "monitor", "tool:monitor", "flag:fallback-model", "flag:--", "flag:--Model"].some(isNeed)).toBe(false);
  });

  it("lets parameters decide needs, and adds what the steps take", () => {
    const header = findScenario("subagent-resume-notification-header")!;
    expect(scenarioNeeds(header, header.params.parse({}))).not.toContain("send-message");
    expect(scenarioNeeds(header, header.params.parse({ resumeBy: "send-message" }))).toContain("send-message");
    expect(scenarioNeeds({ ...header, needs: undefined }, header.params.parse({}))).toEqual(["stream-json-input"]);
  });

  // unparseable-request-body declared only stream-json-output, so 0.2.70–1.0.17 (no --input-format) ran and ended in
  // ERROR "unknown option '--input-format'" instead of UNSUPPORTED: a session its steps start needs the flag whatever
  // the scenario says.
  it("makes a session started over stream-json need --input-format, and a print step --output-format", () => {
    const unparseable = findScenario("unparseable-request-body")!;
    expect(unparseable.needs).toEqual(["stream-json-output"]);
    expect(scenarioNeeds(unparseable, unparseable.params.parse({}))).toEqual(["stream-json-output", "stream-json-input"]);
    const printed = findScenario("api-retry-after")!;
    expect(scenarioNeeds({ ...printed, needs: undefined }, printed.params.parse({}))).toEqual(["stream-json-output"]);
    const monitor = findScenario("resume-monitor-starts-turn")!;
    expect(scenarioNeeds(monitor, monitor.params.parse({}), "terminal")).not.toContain("stream-json-input");
    const orphaned = findScenario("resume-orphaned-background-task")!;
    expect(scenarioNeeds(orphaned, orphaned.params.parse({}), "sdk")).toContain("stream-json-input");
  });

  // compact-resume in the UI ended in ERROR on 1.0.21–1.0.51 ("unknown option '--session-id'", atlas 2026-12-07).
  it("makes every option a step passes in its args a need, values left out", () => {
    const compact = findScenario("compact-resume")!;
    expect(scenarioNeeds(compact, compact.params.parse({}), "terminal")).toEqual(expect.arrayContaining(["flag:--session-id", "flag:--resume"]));
    expect(scenarioNeeds(compact, compact.params.parse({}), "headless")).not.toContain("flag:--session-id");
    const fallback = findScenario("model-fallback-on-overload")!;
    const needs = scenarioNeeds(fallback, fallback.params.parse({}));
    expect(needs).toEqual(expect.arrayContaining(["flag:--model", "flag:--fallback-model"]));
    expect(needs.filter((n) => n.startsWith("flag:") && !n.startsWith("flag:--"))).toEqual([]);
  });

  // mcp-tools-first-turn ended in ERROR on 0.2.70 and 0.2.74 ("the release has no --mcp-config flag", atlas 2026-12-07).
  it("makes MCP servers need --mcp-config, only where the parameters give some", () => {
    const mcp = findScenario("mcp-tools-first-turn")!;
    expect(scenarioNeeds(mcp, mcp.params.parse({}))).toContain("flag:--mcp-config");
    const cache = findScenario("print-resume-cache-reuse")!;
    expect(scenarioNeeds(cache, cache.params.parse({ mcp: true }))).toContain("flag:--mcp-config");
    expect(scenarioNeeds(cache, cache.params.parse({ mcp: false }))).not.toContain("flag:--mcp-config");
  });
});
