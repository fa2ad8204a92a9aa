// The SDK session's pure parts: comparing the SDK's message stream with the CLI's own stdout, and reading the child's
// lines out of stderr. The shapes are those of a real run (CLI 2.1.234 under SDK 0.3.197): the SDK yielded every
// line of the CLI's stdout but the initialize control_response.
import { describe, expect, it } from "vitest";
import { childLines, compareStreams } from "../../harness/sdk-session.ts";

const init = { type: "system", subtype: "init", session_id: "s" };
const controlResponse = { type: "control_response", response: { subtype: "success", request_id: "1" } };
const result = { type: "result", subtype: "success", num_turns: 1 };
const at = (value: unknown, t: number) => ({ t, value });

describe("compareStreams", () => {
  it("lists CLI lines the SDK never yielded, in order", () => {
    const cli = [at(controlResponse, 1), at(init, 2), at(result, 3)];
    const sdk = [at(init, 5), at(result, 6)];
    expect(compareStreams(cli, sdk)).toEqual({
      cliLines: 3,
      sdkMessages: 2,
      droppedBySdk: [{ line: 0, t: 1, type: "control_response" }],
      onlyInSdk: [],
    });
  });

  it("reports an SDK message that is no CLI line as it was (rewritten), and the CLI line it replaced as dropped", () => {
    const cli = [at(init, 1), at(result, 2)];
    const sdk = [at(init, 3), at({ ...result, num_turns: 2 }, 4)];
    const difference = compareStreams(cli, sdk);
    expect(difference.onlyInSdk).toEqual([{ line: 1, t: 4, type: "result/success" }]);
    expect(difference.droppedBySdk).toEqual([{ line: 1, t: 2, type: "result/success" }]);
  });

  it("finds nothing when both streams are the same", () => {
    const lines = [at(init, 1), at(result, 2)];
    expect(compareStreams(lines, lines)).toMatchObject({ droppedBySdk: [], onlyInSdk: [] });
  });
});

describe("childLines", () => {
  it("reads the spawn line and the last end line among the CLI's stderr", () => {
    const stderr = [
      '{"ccreproSdkChildSpawned":{"cliPid":42,"cliArgv":["claude"]}}',
      "some CLI warning",
      '{"ccreproSdkChild":{"outcome":"aborted","cliPid":42,"cliExit":{"code":0,"signal":null}}}',
      "",
    ].join("\n");
    expect(childLines(stderr)).toEqual({
      spawned: { cliPid: 42, cliArgv: ["claude"] },
      end: { outcome: "aborted", cliPid: 42, cliExit: { code: 0, signal: null } },
    });
  });

  it("has no end when the child was killed before writing it", () => {
    expect(childLines('{"ccreproSdkChildSpawned":{"cliPid":1,"cliArgv":[]}}\n').end).toBeNull();
  });
});
