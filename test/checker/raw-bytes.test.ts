// Within one run the notification and prefix comparisons see raw bytes: one changed character is a finding.
// The fixture is a real 2.1.332 run (see test/fixtures/runs/README.md); the edit is made on a temp copy.
import { describe, expect, it } from "vitest";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { copyRun, editFile, recordedRun } from "../fixtures/runs/edit-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const SESSION = "ad5b5a65-d294-4863-b0f4-a7521efa0c70";

describe("within-run byte comparison", () => {
  it("2.1.332: one changed character of the session UUID inside the re-sent notification is notification-changed", () => {
    const dir = copyRun(recordedRun("notification-green-2.1.332"));
    // Only the re-sent copy (req 8, messages[4], its <output-file>) changes: the last hex digit of the UUID.
    const path = `-RUN-iso-work/${SESSION}/tasks/bg7y0c983.output</output-file>`;
    editFile(dir, "mock/requests/000008.body", (text) => text.replace(path, path.replace(SESSION, `${SESSION.slice(0, -1)}1`)));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("RED");
    expect(result.findings.filter((f) => f.red).map((f) => f.id)).toEqual(["notification-changed"]);
  });

  it("2.1.332: one changed digit of a token count in the shared prefix is prefix-changed", () => {
    const dir = copyRun(recordedRun("notification-green-2.1.332"));
    editFile(dir, "mock/requests/000008.body", (text) => text.replace("<total_tokens>14999895 tokens left", "<total_tokens>14999896 tokens left"));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.findings.filter((f) => f.red).map((f) => f.id)).toContain("prefix-changed");
  });
});
