// A cached probe is trusted only if it looked for every capability and tool there is now. 8caae0b added the
// capability "stream-json-input-blocks" to the probe without raising its format, and a CI cache kept from before read
// 2.1.165 as without it: its rejected-image-resent run came out UNSUPPORTED. A probe now names what it looked for.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readCachedProbe } from "../../releases/capabilities.ts";
import { CAPABILITIES, TOOLS } from "../../releases/needs.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-probe-cache-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function cachedProbe(reads: readonly string[]): string {
  const file = path.join(dir, `${reads.length}.json`);
  const probe = { format: 6, reads: reads.join(","), sha256: "ab", reportedVersion: "2.1.165", flags: ["--resume"], hookEvents: [], capabilities: ["resume"], tools: [] };
  fs.writeFileSync(file, JSON.stringify(probe));
  return file;
}

describe("readCachedProbe", () => {
  it("takes a probe that looked for every capability and tool known now", () => {
    expect(readCachedProbe(cachedProbe([...CAPABILITIES, ...TOOLS]))?.reportedVersion).toBe("2.1.165");
  });

  it("redoes one that looked for fewer: its missing capability may be one it never looked for", () => {
    const before = [...CAPABILITIES.filter((c) => c !== "stream-json-input-blocks"), ...TOOLS];
    expect(readCachedProbe(cachedProbe(before))).toBeNull();
  });

  it("redoes a damaged one", () => {
    const file = path.join(dir, "damaged.json");
    fs.writeFileSync(file, "{");
    expect(readCachedProbe(file)).toBeNull();
  });
});
