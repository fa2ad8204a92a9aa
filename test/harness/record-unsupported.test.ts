// An UNSUPPORTED run's run.json names the driver the run would have used, as every other run's does: a UI run that a
// release could not start was recorded as headless, so `ccrepro report` keyed it, and judged it, by the headless rows.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recordUnsupportedRun } from "../../harness/record-unsupported.ts";
import type { BinaryProbe } from "../../releases/capabilities.ts";
import type { ResolvedClaude } from "../../releases/resolve.ts";

const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-unsupported-"));
afterAll(() => fs.rmSync(runsDir, { recursive: true, force: true }));

const claude: ResolvedClaude = { version: null, era: "local", command: "/bin/true", args: [], executablePath: "/bin/true", sha256: "ab", package: null };
const probe = { reportedVersion: "1.0.21" } as BinaryProbe;

describe("recordUnsupportedRun", () => {
  it("records the driver asked for, the interactive UI too", () => {
    const { record } = recordUnsupportedRun({
      plan: { scenario: "compact-resume", params: {} },
      driver: "terminal",
      claude,
      probe,
      requested: "1.0.21",
      runsDir,
      missing: ["flag:--session-id"],
      message: "needs `--session-id`, which this release lacks",
    });
    expect(record.driver).toBe("terminal");
  });
});
