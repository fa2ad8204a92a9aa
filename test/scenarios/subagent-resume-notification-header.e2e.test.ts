// Seed 002 on real releases: the header flip (2.1.281), the dropped notification (2.1.251), the fix (2.1.332).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const SCENARIO = "subagent-resume-notification-header";

describe(`${SCENARIO} on real releases`, { timeout: E2E_TIMEOUT_MS }, () => {
  it("2.1.281 is RED: the absorbed notification's header changes across the subagent's resume", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.281");
    const { record } = run;
    expect(record.result?.verdict, verdictMessage(run)).toBe("RED");
    const changed = record.result!.findings.find((f) => f.id === "notification-changed");
    expect(changed?.detail.join("\n")).toMatch(/system-notification-preamble .* → non-user-source .*delta 446/);
    expect(record.outbound.attempts).toBe(0);
    expect(record.processes.survivors).toEqual([]);
    // This release leaves /tmp/cc-socks-<uid>/<pid>.sock behind when killed: the run removed its own, and says so.
    const sockets = record.processes.outsideRemoved.filter((file) => file.includes("/cc-socks-"));
    expect(sockets.length).toBeGreaterThan(0);
    expect(sockets.filter((file) => fs.existsSync(file))).toEqual([]);
  });

  it("2.1.251 is RED: the absorbed notification is dropped across the resume", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.251");
    const { record } = run;
    expect(record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(record.result!.findings.map((f) => f.id)).toContain("notification-dropped");
  });

  it("2.1.281 woken by SendMessage is RED the same way: the header flips in place, held back until the subagent is idle", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.281", { resumeBy: "send-message" });
    const { record } = run;
    expect(record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(record.result!.findings.filter((f) => f.red).map((f) => f.id)).toEqual(["notification-changed"]);
    // The run records the script it ran, the held-back SendMessage reply included.
    expect(JSON.stringify(record.mock.script)).toContain('"delayMs":1000');
  });

  it("2.1.332 is GREEN, and a copied run directory gives the same verdict", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332");
    const { record, runDir } = run;
    expect(record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(record.result?.notes.join("\n")).toMatch(/1 notification compared/);
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-copy-")), "run");
    fs.cpSync(runDir, copy, { recursive: true });
    try {
      expect(checkRecordedRun(copy, scenarioByName)).toEqual(record.result);
    } finally {
      fs.rmSync(path.dirname(copy), { recursive: true, force: true });
    }
  });
});
