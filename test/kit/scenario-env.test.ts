// A scenario's `env` (issue 43, item 1): set or unset variables for claude, validated when the file loads; what keeps
// a run isolated is refused by name.
import { describe, expect, it } from "vitest";
import { conversation, defineScenario, print, session, text } from "../../kit/index.ts";
import { reached } from "../../kit/checkers.ts";

const s1 = session("s1");
const base = {
  name: "env-demo",
  summary: "s",
  source: "s",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "M", replies: [text("ok")] } }),
  steps: () => [print(s1, "M hi")],
  check: () => ({ reached: reached(), findings: [] }),
};

describe("a scenario's env", () => {
  it("is kept on the scenario as declared", () => {
    expect(defineScenario({ ...base, env: { CCREPRO_PROBE: "on", DISABLE_TELEMETRY: null } }).env).toEqual({ CCREPRO_PROBE: "on", DISABLE_TELEMETRY: null });
    expect(defineScenario(base).env).toBeUndefined();
  });

  it("refuses what keeps a run isolated, in either case, and a name that is no variable name", () => {
    const refused: Record<string, string | null>[] = [{ HOME: "/x" }, { http_proxy: null }, { CCREPRO_RUN_ID: "x" }, { ANTHROPIC_BASE_URL: "http://example" }, { CLAUDE_CONFIG_DIR: null }];
    for (const env of refused) {
      expect(() => defineScenario({ ...base, env }), JSON.stringify(env)).toThrow(/may not set or unset what keeps a run isolated/);
    }
    expect(() => defineScenario({ ...base, env: { "NOT A NAME": "x" } })).toThrow(/a variable name/);
  });

  it("files: kept as declared; a path that leaves its folder, or an unknown area, is refused", () => {
    expect(defineScenario({ ...base, files: { work: { "NOTES.md": "n" } } }).files).toEqual({ work: { "NOTES.md": "n" } });
    expect(() => defineScenario({ ...base, files: { work: { "../x": "n" } } })).toThrow(/each path must be relative, inside its folder/);
    expect(() => defineScenario({ ...base, files: { work: { "/etc/x": "n" } } })).toThrow(/each path must be relative/);
    expect(() => defineScenario({ ...base, files: { tmp: { x: "n" } } as never })).toThrow(/expected \{ work\?, config\?, home\? \}/);
    expect(() => defineScenario({ ...base, files: { config: { "settings.json": "not json" } } })).toThrow(/must be a JSON object's text: write it as JSON\.stringify/);
    expect(() => defineScenario({ ...base, files: { config: { "agents/a.md": "not json is fine here" } } })).not.toThrow();
  });
});
