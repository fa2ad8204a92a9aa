// Releases a binary can be had for before the main package lists them (issue 27, item 10): a platform package's own
// versions, and the Agent SDK's, each naming the claude it carries. Documents shaped as the registry serves them
// (2026-12-01: @anthropic-ai/claude-code-linux-x64@2.1.333 and @anthropic-ai/claude-agent-sdk@0.3.333, whose
// claudeCodeVersion is 2.1.333, were out; @anthropic-ai/claude-code@2.1.333 was not), cut to a few versions.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nativePackageOf, originWords, parseReleaseIndex, resolveVersionWord, withExtraReleases, type Packument } from "../../releases/registry.ts";
import { readSavedReleaseList, saveReleaseList } from "../../releases/saved-release-list.ts";

const PLATFORM = "@anthropic-ai/claude-code-linux-x64";
const SDK_PLATFORM = "@anthropic-ai/claude-agent-sdk-linux-x64";
const native = (v: string) => ({ dist: { tarball: "t", integrity: `sha512-main-${v}` }, optionalDependencies: { [PLATFORM]: v } });
const main: Packument = {
  "dist-tags": { latest: "2.1.332" },
  versions: { "2.1.112": { dist: { tarball: "t" }, bin: { claude: "cli.js" } }, "2.1.331": native("2.1.331"), "2.1.332": native("2.1.332") },
  time: { "2.1.112": "2026-05-01T00:00:00Z", "2.1.331": "2026-11-28T00:00:00Z", "2.1.332": "2026-11-30T00:00:00Z" },
};
const platformPackument = {
  "dist-tags": { latest: "2.1.333" },
  // 0.0.0 stands in the real package (2026-09) and 2.1.100 is an older build the main package never listed: neither is
  // a release "so far" only there.
  versions: { "0.0.0": { dist: {} }, "2.1.100": { dist: {} }, "2.1.331": { dist: { integrity: "sha512-p331" } }, "2.1.332": { dist: { integrity: "sha512-p332" } }, "2.1.333": { dist: { integrity: "sha512-p333" } } },
  time: { "2.1.333": "2026-12-01T09:00:00Z" },
};
const sdk = (claude: string | undefined, platforms = [SDK_PLATFORM]) => ({ dist: { integrity: "sha512-sdk" }, ...(claude ? { claudeCodeVersion: claude } : {}), optionalDependencies: Object.fromEntries(platforms.map((p) => [p, "x"])) });
const sdkPackument = {
  "dist-tags": { latest: "0.4.0-rc.1" },
  versions: { "0.3.332": sdk("2.1.332"), "0.3.333": sdk("2.1.333"), "0.3.334": sdk("2.1.334"), "0.3.335": sdk("2.1.335", ["@anthropic-ai/claude-agent-sdk-darwin-arm64"]), "0.2.9": sdk(undefined), "0.4.0-rc.1": sdk("2.2.0-rc.1") },
  time: { "0.3.334": "2026-12-01T10:00:00Z" },
};

const merged = () =>
  withExtraReleases(withExtraReleases(parseReleaseIndex(main), platformPackument, { kind: "platform-package", package: PLATFORM }), sdkPackument, { kind: "agent-sdk", package: SDK_PLATFORM });

describe("the release list beyond the main package", () => {
  it("adds the versions only a platform package or the SDK has, says where each comes from, and keeps the main package's own", () => {
    const index = merged();
    expect(index.versions).toEqual(["2.1.112", "2.1.331", "2.1.332", "2.1.333", "2.1.334", "2.2.0-rc.1"]);
    expect(index.releases.get("2.1.332")).toMatchObject({ origin: { kind: "claude-code" }, integrity: "sha512-main-2.1.332" });
    expect(index.releases.get("2.1.333")).toMatchObject({ era: "native", origin: { kind: "platform-package", package: PLATFORM }, integrity: "sha512-p333", publishedAt: new Date("2026-12-01T09:00:00Z") });
    // The SDK's version is its own; the claude it carries is what the list is keyed by.
    expect(index.releases.get("2.1.334")).toMatchObject({ era: "native", origin: { kind: "agent-sdk", package: SDK_PLATFORM, sdkVersion: "0.3.334" }, integrity: null });
    // An SDK release without this platform's package, or without claudeCodeVersion, gives nothing here.
    expect(index.releases.has("2.1.335")).toBe(false);
    expect(originWords(index.releases.get("2.1.333")!.origin)).toBe(`only in ${PLATFORM} so far`);
    expect(originWords(index.releases.get("2.1.334")!.origin)).toBe(`only in ${SDK_PLATFORM}@0.3.334 so far`);
    expect(originWords(index.releases.get("2.1.332")!.origin)).toBe("@anthropic-ai/claude-code");
  });

  it("moves latest to the newest release any source has a binary for, never to a prerelease", () => {
    const index = merged();
    // The SDK's latest tag names a prerelease claude: the platform package's 2.1.333 is latest.
    expect(index.releases.has("2.2.0-rc.1")).toBe(true);
    expect(resolveVersionWord(index, "latest")).toEqual(["2.1.333"]);
    expect(resolveVersionWord(withExtraReleases(index, { ...sdkPackument, "dist-tags": { latest: "0.3.334" } }, { kind: "agent-sdk", package: SDK_PLATFORM }), "latest")).toEqual(["2.1.334"]);
    expect(resolveVersionWord(index, "latest-3")).toEqual(["2.1.331", "2.1.332", "2.1.333"]);
    expect(resolveVersionWord(parseReleaseIndex(main), "latest")).toEqual(["2.1.332"]);
  });

  it("fetches each from the package that has it", () => {
    const index = merged();
    expect(nativePackageOf(index.releases.get("2.1.332")!, "linux-x64")).toEqual({ spec: `${PLATFORM}@2.1.332`, listed: true });
    expect(nativePackageOf(index.releases.get("2.1.332")!, "darwin-arm64")).toEqual({ spec: "@anthropic-ai/claude-code-darwin-arm64@2.1.332", listed: false });
    expect(nativePackageOf(index.releases.get("2.1.333")!, "linux-x64")).toEqual({ spec: `${PLATFORM}@2.1.333`, listed: true });
    expect(nativePackageOf(index.releases.get("2.1.334")!, "linux-x64")).toEqual({ spec: `${SDK_PLATFORM}@0.3.334`, listed: true });
  });

  // 2026-12-07: the main package went from 2.1.332 to 2.1.337, and 2.1.333–2.1.336 stayed in the platform package alone;
  // the list lost them, and the atlas, which had measured them, could no longer install them.
  it("keeps a platform-only release once the main package has moved past it, but not an older build", () => {
    const moved: Packument = { ...main, "dist-tags": { latest: "2.1.337" }, versions: { ...main.versions, "2.1.337": native("2.1.337") }, time: { ...main.time, "2.1.337": "2026-12-05T00:00:00Z" } };
    const later = { ...platformPackument, versions: { ...platformPackument.versions, "2.1.336": { dist: { integrity: "sha512-p336" } } }, time: { ...platformPackument.time, "2.1.336": "2026-12-04T00:00:00Z", "2.1.100": "2026-11-29T00:00:00Z" } };
    const index = withExtraReleases(parseReleaseIndex(moved), later, { kind: "platform-package", package: PLATFORM });
    expect(index.versions).toEqual(["2.1.112", "2.1.331", "2.1.332", "2.1.333", "2.1.336", "2.1.337"]);
    expect(index.releases.get("2.1.336")).toMatchObject({ origin: { kind: "platform-package", package: PLATFORM }, integrity: "sha512-p336" });
    // Published when the main package's newest was 2.1.332: an older build, not a release.
    expect(index.releases.has("2.1.100")).toBe(false);
    // Published before the main package's first release: never a release either, however high its number.
    const early = { ...later, versions: { ...later.versions, "2.1.400": { dist: {} } }, time: { ...later.time, "2.1.400": "2020-01-01T00:00:00Z" } };
    expect(withExtraReleases(parseReleaseIndex(moved), early, { kind: "platform-package", package: PLATFORM }).releases.has("2.1.400")).toBe(false);
    expect(resolveVersionWord(index, "latest")).toEqual(["2.1.337"]);
  });

  it("ignores a document of another shape: the main package's list stands", () => {
    const index = parseReleaseIndex(main);
    expect(withExtraReleases(index, { error: "not found" }, { kind: "platform-package", package: PLATFORM }).versions).toEqual(index.versions);
  });
});

describe("the saved release list", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-saved-list-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads back what was saved, origins, tags and times included", () => {
    const file = path.join(dir, "release-list.json");
    const at = new Date("2026-12-01T12:00:00Z");
    saveReleaseList(file, merged(), at);
    const saved = readSavedReleaseList(file)!;
    expect(saved.fetchedAt).toEqual(at);
    expect(saved.index).toEqual(merged());
    expect(fs.readdirSync(dir)).toEqual(["release-list.json"]);
  });

  it("is no list when missing, cut or not this format", () => {
    expect(readSavedReleaseList(path.join(dir, "none.json"))).toBeNull();
    fs.writeFileSync(path.join(dir, "cut.json"), '{"format":1,"fetchedAt":"2026-');
    expect(readSavedReleaseList(path.join(dir, "cut.json"))).toBeNull();
    fs.writeFileSync(path.join(dir, "other.json"), JSON.stringify({ format: 9, fetchedAt: "2026-12-01T12:00:00Z", distTags: {}, releases: [] }));
    expect(readSavedReleaseList(path.join(dir, "other.json"))).toBeNull();
  });
});
