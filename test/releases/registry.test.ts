import semver from "semver";
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { platformSuffix } from "../../releases/platform.ts";
import {
  nearestVersions,
  parseReleaseIndex,
  releaseIndex,
  releaseInfo,
  resolveVersions,
  resolveVersionWord,
  versionsBetween,
  type Packument,
} from "../../releases/registry.ts";

async function userError(promise: Promise<unknown>): Promise<UserError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

const manifest = (extra: object = {}) => ({ dist: { tarball: "t", integrity: "sha512-x" }, ...extra });
const fake: Packument = {
  "dist-tags": { latest: "1.2.0", next: "1.3.0-beta.1" },
  versions: {
    "1.0.0": manifest({ bin: { claude: "cli.mjs" } }),
    "1.10.0": manifest({ bin: { claude: "cli.js" } }),
    "1.2.0": manifest({ optionalDependencies: { "@anthropic-ai/claude-code-linux-x64": "1.2.0", sharp: "1" } }),
    "1.1.0": manifest({ bin: "./cli.js" }),
    "1.3.0-beta.1": manifest(),
  },
  time: {
    created: "2020-01-01T00:00:00Z",
    "1.0.0": "2026-01-01T00:00:00Z",
    "1.1.0": "2026-02-01T00:00:00Z",
    "1.2.0": "2026-01-15T00:00:00Z",
    "1.10.0": "2026-03-01T00:00:00Z",
  },
};

describe("resolveVersionWord (fixed packument)", () => {
  const index = parseReleaseIndex(fake);

  it("sorts by semver, not by string or publication order", () => {
    expect(index.versions).toEqual(["1.0.0", "1.1.0", "1.2.0", "1.3.0-beta.1", "1.10.0"]);
  });

  it("reads the era and entry script from the package contents", () => {
    expect(index.releases.get("1.0.0")).toMatchObject({ era: "js", jsEntry: "cli.mjs" });
    expect(index.releases.get("1.1.0")).toMatchObject({ era: "js", jsEntry: "cli.js" });
    expect(index.releases.get("1.2.0")).toMatchObject({
      era: "native",
      jsEntry: null,
      platformPackages: ["@anthropic-ai/claude-code-linux-x64"],
    });
  });

  it("resolves tags, latest-N below the latest tag, ranges and since: by publication time", () => {
    expect(resolveVersionWord(index, "latest")).toEqual(["1.2.0"]);
    expect(resolveVersionWord(index, "next")).toEqual(["1.3.0-beta.1"]);
    expect(resolveVersionWord(index, "latest-2")).toEqual(["1.1.0", "1.2.0"]);
    expect(resolveVersionWord(index, ">=1.1.0 <1.10.0")).toEqual(["1.1.0", "1.2.0"]);
    expect(resolveVersionWord(index, "since:2026-01-10")).toEqual(["1.1.0", "1.2.0", "1.10.0"]);
    expect(resolveVersionWord(index, "since:2026-03-01T00:00:00Z")).toEqual([]);
  });

  it("rejects words it cannot read with a code", () => {
    expect(() => resolveVersionWord(index, "since:yesterday")).toThrow(expect.objectContaining({ code: "BAD_VERSION_WORD" }));
    expect(() => resolveVersionWord(index, "latest-0")).toThrow(expect.objectContaining({ code: "BAD_VERSION_WORD" }));
    expect(() => resolveVersionWord(index, "newest")).toThrow(expect.objectContaining({ code: "BAD_VERSION_WORD" }));
    expect(() => resolveVersionWord(index, ">=5")).toThrow(expect.objectContaining({ code: "NO_MATCHING_VERSIONS" }));
  });

  it("names the nearest published versions on both sides", () => {
    expect(nearestVersions(["1.0.0", "1.1.0", "1.2.0", "1.3.0"], "1.1.5", 1)).toEqual(["1.1.0", "1.2.0"]);
    expect(nearestVersions(["1.0.0", "1.1.0"], "9.0.0", 3)).toEqual(["1.0.0", "1.1.0"]);
    expect(nearestVersions(["1.0.0", "1.1.0"], "0.1.0", 1)).toEqual(["1.0.0"]);
  });

  it("rejects a packument of the wrong shape", () => {
    expect(() => parseReleaseIndex({ versions: [] })).toThrow(expect.objectContaining({ code: "BAD_REGISTRY_DATA" }));
  });
});

describe("platformSuffix", () => {
  it("maps host facts to the platform package suffix", () => {
    expect(platformSuffix({ platform: "linux", arch: "x64", musl: false })).toBe("linux-x64");
    expect(platformSuffix({ platform: "linux", arch: "arm64", musl: true })).toBe("linux-arm64-musl");
    expect(platformSuffix({ platform: "darwin", arch: "arm64", musl: false })).toBe("darwin-arm64");
    expect(() => platformSuffix({ platform: "linux", arch: "ia32", musl: false })).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_PLATFORM" }),
    );
  });
});

describe("releases (live npm registry)", () => {
  it("lists published versions in ascending semver order, with 2.1.112 and 2.1.113 either side of the era change", async () => {
    const { versions } = await releaseIndex();
    expect(versions.length).toBeGreaterThan(400);
    expect([...versions].sort(semver.compare)).toEqual(versions);
    expect(await releaseInfo("2.1.112")).toMatchObject({ era: "js", jsEntry: "cli.js" });
    const native = await releaseInfo("2.1.113");
    expect(native.era).toBe("native");
    expect(native.platformPackages).toContain("@anthropic-ai/claude-code-linux-x64");
    expect(native.publishedAt).toBeInstanceOf(Date);
  });

  it("resolves latest and latest-3", async () => {
    const [latest] = await resolveVersions("latest");
    const newest3 = await resolveVersions("latest-3");
    expect(newest3).toHaveLength(3);
    expect([...newest3].sort(semver.compare)).toEqual(newest3);
    expect(newest3.at(-1)).toBe(latest);
  });

  it("names nearby versions for one that was never published", async () => {
    const err = await userError(resolveVersions("2.1.115"));
    expect(err.code).toBe("UNKNOWN_VERSION");
    expect(err.message).toContain("2.1.114");
    expect(err.message).toContain("2.1.116");
  });

  it("resolves a range, since: and versionsBetween against real data", async () => {
    expect(await resolveVersions(">=2.1.112 <2.1.117")).toEqual(["2.1.112", "2.1.113", "2.1.114", "2.1.116"]);
    expect(await versionsBetween("2.1.117", "2.1.112")).toEqual(["2.1.113", "2.1.114", "2.1.116"]);
    const info = await releaseInfo("2.1.113");
    const since = await resolveVersions(`since:${new Date(info.publishedAt!.getTime() - 1).toISOString()}`);
    expect(since).toContain("2.1.113");
    for (const v of since) expect((await releaseInfo(v)).publishedAt!.getTime()).toBeGreaterThanOrEqual(info.publishedAt!.getTime());
  });
});
