// A CI job's release cache cut to its plan before it is saved: claude releases and Agent SDK releases the plan does not
// name go, those it names and those another process holds stay.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";
import { afterAll, describe, expect, it } from "vitest";
import { pruneCacheTo } from "../../releases/ci-cache.ts";
import { listCachedVersions } from "../../releases/release-cache.ts";
import { fakeEntry } from "./fake-cache.ts";

const cache = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-ci-cache-"));
afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

describe("pruneCacheTo", () => {
  it("keeps the plan's releases, and one in use or locked, and removes the rest", async () => {
    for (const version of ["2.1.280", "2.1.300", "2.1.332", "2.1.337", "2.1.340"]) fakeEntry(cache, version, 10);
    for (const sdk of ["0.3.150", "0.3.197"]) fs.mkdirSync(path.join(cache, "sdk", sdk), { recursive: true });
    fs.mkdirSync(path.join(cache, "2.1.300", "in-use"));
    fs.writeFileSync(path.join(cache, "2.1.300", "in-use", `${os.hostname()}-${process.pid}`), "");
    fs.mkdirSync(path.join(cache, ".locks"), { recursive: true });
    const release = await lockfile.lock(path.join(cache, "2.1.340"), { realpath: false, lockfilePath: path.join(cache, ".locks", "2.1.340.lock") });
    try {
      const removed = await pruneCacheTo({ releases: ["2.1.332", "2.1.337"], sdk: ["0.3.197"] }, cache);
      expect(removed).toEqual(["2.1.280", "sdk-0.3.150"]);
    } finally {
      await release();
    }
    expect((await listCachedVersions({ cacheDir: cache })).map((entry) => entry.version)).toEqual(["2.1.300", "2.1.332", "2.1.337", "2.1.340"]);
    expect(fs.readdirSync(path.join(cache, "sdk")).filter((name) => !name.startsWith("."))).toEqual(["0.3.197"]);
  });
});
