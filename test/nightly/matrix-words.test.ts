// A matrix given as words (`nightly --scenarios … --claude …`, the action's inputs) becomes the nightly config the
// words mean, or an error that says which word is wrong.
import { describe, expect, it } from "vitest";
import { configFromWords, splitWords } from "../../nightly/matrix-words.ts";
import { DEFAULT_SDK_VERSION } from "../../releases/sdk-install.ts";

describe("configFromWords", () => {
  it("splits at commas and line breaks, never inside a range", () => {
    expect(splitWords(" latest,\n>=2.1.270 <2.1.300 , 2.1.245 - 2.1.290,,\n")).toEqual(["latest", ">=2.1.270 <2.1.300", "2.1.245 - 2.1.290"]);
  });

  it("gives the scenario's own driver on the releases, or every cell through the Agent SDK", async () => {
    const own = await configFromWords({ scenarios: "stop-hook-loop, background-mid-turn", claude: "2.1.280, latest" }, ".");
    expect(own).toMatchObject({ scenarios: ["stop-hook-loop", "background-mid-turn"], versions: ["2.1.280", "latest"], concurrency: 2 });
    expect(own.sdkCells).toBeUndefined();
    const sdk = await configFromWords({ scenarios: "resume-orphaned-background-task", claude: "latest", driver: "sdk", sdk: "" }, ".");
    expect(sdk).toMatchObject({ versions: [], sdkCells: { versions: ["latest"], sdk: [DEFAULT_SDK_VERSION] } });
    // The action passes an empty sdk input with the scenario driver: nothing was asked of the SDK.
    expect((await configFromWords({ scenarios: "stop-hook-loop", claude: "latest", driver: "scenario", sdk: " " }, ".")).sdkCells).toBeUndefined();
  });

  it("refuses what names no matrix, saying which word", async () => {
    await expect(configFromWords({ scenarios: " , ", claude: "latest" }, ".")).rejects.toThrow(/no scenario given/);
    await expect(configFromWords({ scenarios: "stop-hook-loop", claude: "" }, ".")).rejects.toThrow(/no claude release given/);
    await expect(configFromWords({ scenarios: "stop-hook-loop, nope", claude: "latest" }, ".")).rejects.toThrow(/scenarios\[1\]: unknown scenario "nope"/);
    await expect(configFromWords({ scenarios: "stop-hook-loop", claude: "latest", driver: "sdk" }, ".")).rejects.toThrow(/none of stop-hook-loop can be driven through the Agent SDK/);
    await expect(configFromWords({ scenarios: "resume-orphaned-background-task", claude: "latest", driver: "sdk", sdk: "latest" }, ".")).rejects.toThrow(/the Agent SDK release "latest" is not an exact version: give one such as 0\.3\./);
    for (const driver of [undefined, "scenario"] as const) {
      await expect(configFromWords({ scenarios: "stop-hook-loop", claude: "latest", sdk: "0.3.197", ...(driver ? { driver } : {}) }, ".")).rejects.toThrow(
        /an Agent SDK release \(0\.3\.197\) means something only with the sdk driver: add --driver sdk/,
      );
    }
  });
});
