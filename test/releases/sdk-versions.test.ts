// The SDK axis of a bisection: the published releases strictly between two endpoints, as runBisect's candidates.
import { describe, expect, it } from "vitest";
import { sdkVersionsBetween } from "../../releases/sdk-install.ts";

// A slice of `npm view @anthropic-ai/claude-agent-sdk versions`, out of order and with a prerelease, as registries can list.
const PUBLISHED = ["0.3.150", "0.3.152", "0.3.151", "0.3.160-beta.1", "0.3.160", "0.3.197", "0.3.198", "0.2.99"];

describe("sdkVersionsBetween", () => {
  it("keeps the releases strictly between the endpoints, oldest first, without prereleases", () => {
    expect(sdkVersionsBetween(PUBLISHED, "0.3.150", "0.3.197")).toEqual(["0.3.151", "0.3.152", "0.3.160"]);
  });

  it("is empty for adjacent releases, and for a reversed range", () => {
    expect(sdkVersionsBetween(PUBLISHED, "0.3.197", "0.3.198")).toEqual([]);
    expect(sdkVersionsBetween(PUBLISHED, "0.3.197", "0.3.150")).toEqual([]);
  });
});
